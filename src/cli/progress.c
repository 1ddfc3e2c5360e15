/*
 * progress.c - the progress report of run, validate, compare, sweep and
 * oracle on stderr (progress.h): option parsing, the timer, and the two
 * reports (one simulation; a batch of them on worker threads).
 *
 * The simulator calls back as blocks finish and every few thousand simulated
 * cycles; every call here costs one clock read, and a report is formatted only
 * when the interval has passed.  Nothing here is read by a simulation, so the
 * report cannot change a result.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/opts.h"

double wc_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- options ------------------------------------------------------------- */

const wc_opt wc_cli_progress_opts[] = {
    {WC_CLI_O_PROGRESS, 0, "progress", "MODE",
     "auto (bar on a terminal, lines otherwise), bar, lines, none", 0},
    {WC_CLI_O_PROGRESS_INTERVAL, 0, "progress-interval", "SECONDS",
     "between two reports (default 0.5 for bar, 10 for lines; 0:\n"
     "at every block finished and every 4096 cycles)",
     0},
    {0, 0, NULL, NULL, NULL, 0},
};

int wc_cli_progress_take(wc_progress_opts *o, const wc_opts *p, int id)
{
    static const char *const modes[] = {"auto", "bar", "lines", "none"};
    const char *v = p->value;
    if (id == WC_CLI_O_PROGRESS) {
        for (int m = 0; m < 4; m++)
            if (strcmp(v, modes[m]) == 0) {
                o->mode = (wc_progress_mode)m;
                return 1;
            }
        wc_cli_error("option --progress: '%s' is not one of auto, bar, lines, none", v);
        return -1;
    }
    if (id == WC_CLI_O_PROGRESS_INTERVAL) {
        char *end = NULL;
        errno = 0;
        double s = strtod(v, &end);
        if (errno || end == v || *end || !(s >= 0 && s <= 86400)) {
            wc_cli_error("option --progress-interval: '%s' is not a number of seconds from 0 to "
                         "86400",
                         v);
            return -1;
        }
        o->interval = s;
        o->interval_set = true;
        return 1;
    }
    return 0;
}

/* ---- the timer and the line ---------------------------------------------- */

static void out_init(wc_progress_out *out, const char *label, const wc_progress_opts *o, bool quiet)
{
    wc_progress_mode m = o ? o->mode : WC_PROGRESS_AUTO;
    if (m == WC_PROGRESS_AUTO) m = isatty(2) ? WC_PROGRESS_BAR : WC_PROGRESS_LINES;
    memset(out, 0, sizeof *out);
    out->enabled = !quiet && m != WC_PROGRESS_NONE;
    out->lines = m == WC_PROGRESS_LINES;
    out->interval = o && o->interval_set ? o->interval : out->lines ? 10.0 : 0.5;
    out->t0 = wc_now_seconds();
    out->next = out->t0 + out->interval;
    out->label = label;
}

/* The elapsed seconds when a report is due now, else a negative value. */
static double out_due(wc_progress_out *out)
{
    if (!out->enabled) return -1;
    double now = wc_now_seconds();
    if (now < out->next) return -1;
    /* the next report one interval on, not in a burst after a slow step */
    out->next = now + out->interval;
    return now - out->t0;
}

/* "42s", "3m05s", "2h07m". */
static const char *fmt_secs(double s, char *buf, size_t n)
{
    if (s < 0) s = 0;
    unsigned long t = (unsigned long)(s + 0.5);
    if (t < 100)
        snprintf(buf, n, "%lus", t);
    else if (t < 3600)
        snprintf(buf, n, "%lum%02lus", t / 60, t % 60);
    else
        snprintf(buf, n, "%luh%02lum", t / 3600, t / 60 % 60);
    return buf;
}

/* ", 12s, ETA 30s" from the elapsed time and the fraction done of the whole
 * command (no ETA before 0.1 % of it: the first blocks say little). */
static void fmt_times(char *buf, size_t n, double el, double frac)
{
    char a[32], b[32];
    if (frac > 0.001 && frac < 1.0)
        snprintf(buf, n, ", %s, ETA %s", fmt_secs(el, a, sizeof a),
                 fmt_secs(el * (1.0 - frac) / frac, b, sizeof b));
    else
        snprintf(buf, n, ", %s", fmt_secs(el, a, sizeof a));
}

static void out_print(wc_progress_out *out, const char *text)
{
    if (out->lines)
        fprintf(stderr, "%s: %s\n", out->label, text);
    else
        fprintf(stderr, "\r\033[K%s: %s", out->label, text);
    fflush(stderr);
    out->drawn = true;
}

static void out_end(wc_progress_out *out)
{
    if (!out->enabled || !out->drawn) return;
    if (out->lines) {
        char a[32];
        fprintf(stderr, "%s: finished in %s\n", out->label,
                fmt_secs(wc_now_seconds() - out->t0, a, sizeof a));
    } else {
        fputs("\r\033[K", stderr);
    }
    fflush(stderr);
}

/* The ordinal of kernel k among those seen so far (a kernel is seen until
 * another one reports). */
static void follow_kernel(unsigned *no, uint32_t *id, const wc_kernel *k)
{
    if (*no == 0 || k->id != *id) {
        ++*no;
        *id = k->id;
    }
}

/* "kernel 2/5" or "kernel 2" */
static void fmt_kernel_no(char *buf, size_t n, unsigned no, unsigned of)
{
    if (of && no <= of)
        snprintf(buf, n, "kernel %u/%u", no, of);
    else
        snprintf(buf, n, "kernel %u", no);
}

/* The fraction of a simulation done: kernels before this one, and this one's
 * blocks (0 when the number of kernels is unknown). */
static double job_fraction(unsigned no, unsigned of, double kfrac)
{
    if (!of || !no) return 0;
    double f = ((double)(no - 1) + kfrac) / (double)of;
    return f < 0 ? 0 : f > 1 ? 1 : f;
}

/* ---- one simulation -------------------------------------------------------- */

void wc_progress_init(wc_progress *p, const char *label, const wc_progress_opts *o, bool quiet)
{
    memset(p, 0, sizeof *p);
    out_init(&p->out, label, o, quiet);
}

void wc_progress_count_kernels(wc_progress *p, const wc_run_spec *spec, uint64_t seed)
{
    if (!p->out.enabled || p->count) return;
    p->count = wc_kernel_count_new(1);
    wc_kernel_count_add(p->count, spec, seed);
    if (p->out.interval == 0) wc_kernel_count_now(p->count);
}

void wc_progress_cb(void *ctx, const wc_kernel *k, uint64_t done, uint64_t total, uint64_t cycle)
{
    wc_progress *p = ctx;
    follow_kernel(&p->kernel_no, &p->kernel_id, k);
    double el = out_due(&p->out);
    if (el < 0) return;
    wc_kernel_count_start(p->count);
    unsigned n_kernels = wc_kernel_count_get(p->count, 0);
    double kfrac = total ? (double)done / (double)total : 1.0;
    char kn[48], times[64], text[400];
    fmt_kernel_no(kn, sizeof kn, p->kernel_no, n_kernels);
    fmt_times(times, sizeof times, el, job_fraction(p->kernel_no, n_kernels, kfrac));
    snprintf(text, sizeof text, "%s %.24s: %5.1f%% of %llu blocks, cycle %llu (%.2f M cycles/s)%s",
             kn, k->name, 100.0 * kfrac, (unsigned long long)total, (unsigned long long)cycle,
             el > 0 ? (double)cycle / el / 1e6 : 0.0, times);
    out_print(&p->out, text);
}

void wc_progress_end(wc_progress *p)
{
    out_end(&p->out);
    wc_kernel_count_release(p->count);
    p->count = NULL;
}

/* ---- a batch --------------------------------------------------------------- */

void wc_batch_progress_init(wc_batch_progress *p, const char *label, const wc_progress_opts *o,
                            bool quiet)
{
    memset(p, 0, sizeof *p);
    out_init(&p->out, label, o, quiet);
    pthread_mutex_init(&p->mu, NULL);
}

static const char *job_input(const wc_job *j)
{
    return j->spec.workload ? j->spec.workload : j->spec.trace ? j->spec.trace : "";
}

/* The report (under the mutex), from the state of every running job and
 * the job that reported last. */
static void batch_print(wc_batch_progress *p, double el)
{
    wc_kernel_count_start(p->count);
    double sum = (double)p->done;
    size_t running = 0;
    for (size_t i = 0; i < p->n_jobs; i++)
        if (p->slots[i].running) {
            const wc_job_progress *s = &p->slots[i];
            running++;
            sum += job_fraction(s->kernel_no, wc_kernel_count_get(p->count, s->workload),
                                s->kernel_frac);
        }
    char times[64], text[600], now[400] = "";
    fmt_times(times, sizeof times, el, p->total ? sum / (double)p->total : 0);
    const wc_job_progress *s = p->last;
    if (s && s->running) {
        char kn[48];
        fmt_kernel_no(kn, sizeof kn, s->kernel_no, wc_kernel_count_get(p->count, s->workload));
        snprintf(now, sizeof now, "; %.60s (workload %zu/%zu): %s, %.0f%%",
                 job_input(&p->jobs[s - p->slots]), s->workload + 1, p->n_workloads, kn,
                 100.0 * s->kernel_frac);
    }
    snprintf(text, sizeof text, "%zu/%zu simulations done, %zu running%s%s", p->done, p->total,
             running, now, times);
    out_print(&p->out, text);
}

static void job_progress_cb(void *ctx, const wc_kernel *k, uint64_t done, uint64_t total,
                            uint64_t cycle)
{
    wc_job_progress *s = ctx;
    wc_batch_progress *p = s->bp;
    pthread_mutex_lock(&p->mu);
    follow_kernel(&s->kernel_no, &s->kernel_id, k);
    s->kernel_frac = total ? (double)done / (double)total : 1.0;
    s->running = true;
    p->last = s;
    double el = out_due(&p->out);
    if (el >= 0) batch_print(p, el);
    pthread_mutex_unlock(&p->mu);
}

void wc_batch_progress_attach(wc_batch_progress *p, wc_job *jobs, size_t n)
{
    if (!p->out.enabled || !n) return;
    p->slots = calloc(n, sizeof *p->slots);
    if (!p->slots) return; /* no per-job detail; the counts still show */
    p->jobs = jobs;
    p->n_jobs = n;
    p->total = n;
    /* distinct inputs in order of first appearance, each counted once */
    size_t *first = malloc(n * sizeof *first);
    p->count = wc_kernel_count_new(n);
    for (size_t i = 0; first && i < n; i++) {
        size_t w = 0;
        while (w < p->n_workloads && strcmp(job_input(&jobs[first[w]]), job_input(&jobs[i])) != 0)
            w++;
        if (w == p->n_workloads) {
            first[w] = i;
            wc_kernel_count_add(p->count, &jobs[i].spec, jobs[i].cfg.seed);
            p->n_workloads++;
        }
        p->slots[i] = (wc_job_progress){.bp = p, .workload = w};
        jobs[i].spec.progress = job_progress_cb;
        jobs[i].spec.progress_ctx = &p->slots[i];
    }
    free(first);
    if (p->out.interval == 0) wc_kernel_count_now(p->count);
}

void wc_batch_progress_job_done(wc_batch_progress *p, const wc_job *job)
{
    if (!p->slots || !job || job < p->jobs || job >= p->jobs + p->n_jobs) return;
    pthread_mutex_lock(&p->mu);
    p->slots[job - p->jobs].running = false;
    pthread_mutex_unlock(&p->mu);
}

void wc_batch_progress_cb(void *ctx, size_t done, size_t total, const wc_job *job)
{
    wc_batch_progress *p = ctx;
    wc_batch_progress_job_done(p, job);
    pthread_mutex_lock(&p->mu);
    p->done = done;
    p->total = total;
    double el = out_due(&p->out);
    if (el >= 0) batch_print(p, el);
    pthread_mutex_unlock(&p->mu);
}

void wc_batch_progress_end(wc_batch_progress *p)
{
    out_end(&p->out);
    wc_kernel_count_release(p->count);
    p->count = NULL;
    free(p->slots);
    p->slots = NULL;
    pthread_mutex_destroy(&p->mu);
}
