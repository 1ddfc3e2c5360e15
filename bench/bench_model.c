/*
 * bench_model.c - throughput and peak memory of the reuse-distance model of
 * seed 003 (src/model/) on large built-in workloads: line requests modelled per
 * second for the full model (every extension) and for the plain GPU ordering,
 * and the process's peak resident memory.  Not a test (make bench).
 *
 *   build/bench/bench_model [WORKLOAD ...]
 */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "warpcache/model.h"
#include "warpcache/workloads.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static long peak_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static int bench(const char *spec, bool full)
{
    wc_config cfg;
    wc_config_defaults(&cfg);
    wc_model_opts o;
    wc_model_opts_defaults(&o);
    if (!full) o.latency = o.mshr = o.divergence = false;
    wc_err err;
    wc_source *src = wc_workload_open(spec, 1, &err);
    if (!src) {
        fprintf(stderr, "bench_model: %s\n", err.msg);
        return 1;
    }
    wc_model_result res;
    memset(&res, 0, sizeof res);
    double t0 = now();
    int rc = wc_model_run(&o, &cfg, src, WC_RUN_FULL, &res, NULL, NULL, &err);
    double dt = now() - t0;
    wc_source_destroy(src);
    if (rc < 0) {
        fprintf(stderr, "bench_model: %s\n", err.msg);
        wc_model_result_free(&res);
        return 1;
    }
    uint64_t acc = 0, miss = 0;
    for (size_t i = 0; i < res.n_kernels; i++) {
        acc += res.kernels[i].run[WC_RUN_FULL].accesses;
        miss += res.kernels[i].run[WC_RUN_FULL].misses;
    }
    printf("%-40s %-6s %12llu requests %8.3f s %8.2f M requests/s  miss %6.2f%%  peak RSS %ld MB\n",
           spec, full ? "full" : "plain", (unsigned long long)acc, dt, acc / dt / 1e6,
           acc ? 100.0 * miss / acc : 0.0, peak_rss_kb() / 1024);
    wc_model_result_free(&res);
    return 0;
}

int main(int argc, char **argv)
{
    static const char *const defaults[] = {
        "micro/colcopy:h=1024,w=8192",      /* 8 M uncoalesced line requests, 8 K lines / thread */
        "micro/stride:n=4194304,stride=33", /* 4 M line requests, 4 M distinct lines */
    };
    int rc = 0;
    if (argc > 1) {
        for (int i = 1; i < argc; i++) rc |= bench(argv[i], true) | bench(argv[i], false);
    } else {
        for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
            rc |= bench(defaults[i], true) | bench(defaults[i], false);
    }
    return rc;
}
