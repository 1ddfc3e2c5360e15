/*
 * batch.c - runs independent simulations (wc_job) on worker threads.
 *
 * Workers claim jobs in index order from a shared counter; each job owns its
 * configuration copy, source and wc_sim, so workers share nothing but the
 * counter and the delivery state below, both under one mutex.  Results are
 * handed to the caller twice: `on_done` as each job finishes (progress), and
 * `in_order` strictly by index, buffering jobs that finish early - that is
 * what makes output independent of the thread count and of timing.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "warpcache/experiment.h"

typedef struct batch {
    wc_job *jobs;
    size_t n;
    const wc_batch_opts *opts;
    pthread_mutex_t lock;
    size_t next_claim;   /* next job a worker takes */
    size_t next_deliver; /* next job in_order receives */
    size_t done;
    bool *finished;
    bool stopped;
} batch;

unsigned wc_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : (unsigned)n;
}

/* Hands over every finished job at the head of the index order. */
static void deliver_in_order(batch *b)
{
    while (!b->stopped && b->next_deliver < b->n && b->finished[b->next_deliver]) {
        size_t i = b->next_deliver++;
        if (b->opts->in_order && b->opts->in_order(b->opts->order_ctx, i, &b->jobs[i]) != 0)
            b->stopped = true;
    }
}

static void *worker(void *arg)
{
    batch *b = arg;
    for (;;) {
        pthread_mutex_lock(&b->lock);
        size_t i = b->stopped ? b->n : b->next_claim;
        if (i < b->n) b->next_claim++;
        pthread_mutex_unlock(&b->lock);
        if (i >= b->n) return NULL;

        wc_job *j = &b->jobs[i];
        j->rc = wc_run_simulation(&j->cfg, &j->spec, &j->stats, &j->err);

        pthread_mutex_lock(&b->lock);
        b->finished[i] = true;
        b->done++;
        if (b->opts->on_done) b->opts->on_done(b->opts->done_ctx, b->done, b->n, j);
        deliver_in_order(b);
        pthread_mutex_unlock(&b->lock);
    }
}

int wc_batch_run(wc_job *jobs, size_t n, const wc_batch_opts *opts, wc_err *err)
{
    batch b;
    memset(&b, 0, sizeof b);
    b.jobs = jobs;
    b.n = n;
    b.opts = opts;
    for (size_t i = 0; i < n; i++) {
        wc_stats_init(&jobs[i].stats);
        jobs[i].rc = 0;
        jobs[i].err.msg[0] = 0;
    }
    if (n == 0) return 0;
    b.finished = calloc(n, sizeof *b.finished);
    unsigned t = opts->threads ? opts->threads : wc_cpu_count();
    if (t > n) t = (unsigned)n;
    pthread_t *th = calloc(t, sizeof *th);
    if (!b.finished || !th) {
        free(b.finished);
        free(th);
        return wc_errf(err, "out of memory");
    }
    pthread_mutex_init(&b.lock, NULL);
    unsigned started = 0;
    if (t == 1) {
        worker(&b); /* no thread for -j 1: plain, debuggable, same code path */
    } else {
        for (; started < t; started++)
            if (pthread_create(&th[started], NULL, worker, &b) != 0) break;
        if (started == 0) worker(&b);
        for (unsigned i = 0; i < started; i++) pthread_join(th[i], NULL);
    }
    pthread_mutex_destroy(&b.lock);
    bool stopped = b.stopped;
    free(b.finished);
    free(th);
    return stopped ? 1 : 0;
}

void wc_batch_free(wc_job *jobs, size_t n)
{
    for (size_t i = 0; jobs && i < n; i++) wc_stats_free(&jobs[i].stats);
}
