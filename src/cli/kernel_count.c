/*
 * kernel_count.c - the kernels of a command's sources, counted on a detached
 * thread for the progress report (kernel_count.h says why and when).
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/kernel_count.h"

/* A source that needs longer than this to count is left without N. */
#define COUNT_BUDGET_S 60.0

typedef struct count_item {
    char *workload, *trace, *kernels;
    uint64_t seed;
    unsigned n; /* written by the thread, read by the report (atomics) */
} count_item;

struct wc_kernel_count {
    count_item *items;
    size_t n, cap;
    int refs;       /* the owner, and the thread while it runs (atomics) */
    bool abandoned; /* the owner let go: stop (atomics) */
    bool started;   /* owner only */
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

wc_kernel_count *wc_kernel_count_new(size_t cap)
{
    wc_kernel_count *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->items = calloc(cap ? cap : 1, sizeof *c->items);
    if (!c->items) {
        free(c);
        return NULL;
    }
    c->cap = cap;
    c->refs = 1;
    return c;
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

size_t wc_kernel_count_add(wc_kernel_count *c, const wc_run_spec *spec, uint64_t seed)
{
    if (!c || c->n == c->cap) return (size_t)-1;
    count_item *it = &c->items[c->n];
    it->workload = dup_or_null(spec->workload);
    it->trace = dup_or_null(spec->trace);
    it->kernels = dup_or_null(spec->kernels);
    it->seed = seed;
    return c->n++;
}

static void free_count(wc_kernel_count *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->items[i].workload);
        free(c->items[i].trace);
        free(c->items[i].kernels);
    }
    free(c->items);
    free(c);
}

static void drop_ref(wc_kernel_count *c)
{
    if (__atomic_sub_fetch(&c->refs, 1, __ATOMIC_ACQ_REL) == 0) free_count(c);
}

/* Kernels of one source; 0 when it fails to open (the run says why), runs
 * over the budget, or the owner let go. */
static unsigned count_one(wc_kernel_count *c, const count_item *it)
{
    if ((it->workload == NULL) == (it->trace == NULL)) return 0;
    wc_run_spec spec = {.workload = it->workload, .trace = it->trace, .kernels = it->kernels};
    wc_err err;
    wc_source *src = wc_run_open_source(&spec, it->seed, &err);
    if (!src) return 0;
    double t_end = now_s() + COUNT_BUDGET_S;
    unsigned n = 0;
    wc_kernel k;
    int rc;
    while ((rc = src->ops->next_kernel(src, &k, &err)) > 0) {
        n++;
        if (__atomic_load_n(&c->abandoned, __ATOMIC_ACQUIRE) || now_s() > t_end) {
            rc = -1;
            break;
        }
    }
    wc_source_destroy(src);
    return rc == 0 ? n : 0;
}

static void *count_thread(void *arg)
{
    wc_kernel_count *c = arg;
    for (size_t i = 0; i < c->n && !__atomic_load_n(&c->abandoned, __ATOMIC_ACQUIRE); i++)
        __atomic_store_n(&c->items[i].n, count_one(c, &c->items[i]), __ATOMIC_RELEASE);
    drop_ref(c);
    return NULL;
}

void wc_kernel_count_start(wc_kernel_count *c)
{
    if (!c || c->started) return;
    c->started = true;
    __atomic_add_fetch(&c->refs, 1, __ATOMIC_ACQ_REL);
    pthread_attr_t attr;
    pthread_t t;
    if (pthread_attr_init(&attr) != 0) {
        drop_ref(c); /* no thread: no N, nothing else changes */
        return;
    }
    if (pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) != 0 ||
        pthread_create(&t, &attr, count_thread, c) != 0)
        drop_ref(c);
    pthread_attr_destroy(&attr);
}

void wc_kernel_count_now(wc_kernel_count *c)
{
    if (!c || c->started) return;
    c->started = true;
    for (size_t i = 0; i < c->n; i++) c->items[i].n = count_one(c, &c->items[i]);
}

unsigned wc_kernel_count_get(const wc_kernel_count *c, size_t i)
{
    if (!c || i >= c->n) return 0;
    return __atomic_load_n(&c->items[i].n, __ATOMIC_ACQUIRE);
}

void wc_kernel_count_release(wc_kernel_count *c)
{
    if (!c) return;
    __atomic_store_n(&c->abandoned, true, __ATOMIC_RELEASE);
    drop_ref(c);
}
