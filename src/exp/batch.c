/*
 * batch.c - runs independent simulations (wc_job) on worker threads.
 *
 * Workers claim jobs longest expected first (point_pick.c: the jobs of one
 * workload or trace cost alike, learned from the CPU time of those finished),
 * so that a batch does not end with one worker on a long job while the others
 * idle; with one worker they run in index order.  Each job owns its
 * configuration copy, source and wc_sim, so workers share nothing but the
 * claim and delivery state below, under one mutex.  Results are
 * handed to the caller twice: `on_done` as each job finishes (progress), and
 * `in_order` strictly by index, buffering jobs that finish early - that is
 * what makes output independent of the thread count and of timing.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "exp/point_pick.h"
#include "warpcache/experiment.h"

typedef struct batch {
    wc_job *jobs;
    size_t n;
    const wc_batch_opts *opts;
    pthread_mutex_t lock;
    size_t next_claim;  /* next job a worker takes, in index order (no pick) */
    wc_point_pick pick; /* the claim order when `picking` */
    bool picking;
    size_t *input_of;    /* [job]: its input (workload or trace) for the pick */
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

/* The next job to start (b->n: none); lock held. */
static size_t claim(batch *b)
{
    if (b->stopped) return b->n;
    if (b->picking) {
        size_t i = wc_point_pick_next(&b->pick);
        return i == WC_PICK_NONE ? b->n : i;
    }
    return b->next_claim < b->n ? b->next_claim++ : b->n;
}

/* CPU time of the calling thread in microseconds: a job's cost for the pick
 * (CPU, not wall, so that a busy machine does not distort the order). */
static uint64_t thread_cpu_us(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static void *worker(void *arg)
{
    batch *b = arg;
    for (;;) {
        pthread_mutex_lock(&b->lock);
        size_t i = claim(b);
        pthread_mutex_unlock(&b->lock);
        if (i >= b->n) return NULL;

        wc_job *j = &b->jobs[i];
        uint64_t t0 = thread_cpu_us();
        j->rc = wc_run_simulation(&j->cfg, &j->spec, &j->stats, &j->err);
        uint64_t cost = thread_cpu_us() - t0;

        pthread_mutex_lock(&b->lock);
        if (b->picking) wc_point_pick_learn(&b->pick, b->input_of[i], cost);
        b->finished[i] = true;
        b->done++;
        if (b->opts->on_done) b->opts->on_done(b->opts->done_ctx, b->done, b->n, j);
        deliver_in_order(b);
        pthread_mutex_unlock(&b->lock);
    }
}

/* A job's input, the pick's unit of expected cost: workload, trace, kernels. */
typedef struct job_key {
    const char *workload, *trace, *kernels;
    size_t job;
} job_key;

static const char *or_empty(const char *s)
{
    return s ? s : "";
}

static int same_input(const job_key *x, const job_key *y)
{
    int c = strcmp(or_empty(x->workload), or_empty(y->workload));
    if (!c) c = strcmp(or_empty(x->trace), or_empty(y->trace));
    if (!c) c = strcmp(or_empty(x->kernels), or_empty(y->kernels));
    return c;
}

static int by_input(const void *a, const void *b)
{
    const job_key *x = a, *y = b;
    int c = same_input(x, y);
    return c ? c : (x->job > y->job) - (x->job < y->job);
}

/* Sets up the longest-first claim order; false (index order) when there is
 * nothing to gain or no memory for it. */
static bool pick_init(batch *b, unsigned threads)
{
    if (threads < 2 || b->n < 3) return false;
    job_key *keys = malloc(b->n * sizeof *keys);
    size_t *points = malloc(b->n * sizeof *points);
    b->input_of = malloc(b->n * sizeof *b->input_of);
    bool ok = keys && points && b->input_of;
    if (ok) {
        for (size_t i = 0; i < b->n; i++) {
            const wc_run_spec *sp = &b->jobs[i].spec;
            keys[i] = (job_key){sp->workload, sp->trace, sp->kernels, i};
            points[i] = i;
        }
        qsort(keys, b->n, sizeof *keys, by_input);
        size_t input = 0;
        for (size_t k = 0; k < b->n; k++) {
            if (k && same_input(&keys[k - 1], &keys[k]) != 0) input++;
            b->input_of[keys[k].job] = input;
        }
        ok = wc_point_pick_init(&b->pick, points, b->input_of, b->n, input + 1) == 0;
    }
    free(keys);
    free(points);
    if (!ok) {
        free(b->input_of);
        b->input_of = NULL;
    }
    return ok;
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
    b.picking = pick_init(&b, t);
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
    if (b.picking) wc_point_pick_free(&b.pick);
    free(b.input_of);
    bool stopped = b.stopped;
    free(b.finished);
    free(th);
    return stopped ? 1 : 0;
}

void wc_batch_free(wc_job *jobs, size_t n)
{
    for (size_t i = 0; jobs && i < n; i++) wc_stats_free(&jobs[i].stats);
}
