/*
 * bench_batch.c - throughput of the batch runner behind compare and sweep:
 * the same 24 simulations (8 PolyBench workloads x the base, 48 KB and
 * fully associative L1s) at -j 1 and -j 2, in simulations per minute, and
 * the parallel efficiency (speed-up / threads).  It also checks that both
 * runs produced identical cycle counts.  Run by `make bench`; never part of
 * the tests.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "warpcache/experiment.h"

static const char *const workloads[] = {
    "polybench/atax:scale=0.125",   "polybench/bicg:scale=0.125",
    "polybench/mvt:scale=0.125",    "polybench/gesummv:scale=0.125",
    "polybench/syr2k:scale=0.0625", "polybench/2dconv:scale=0.125",
    "polybench/gemver:scale=0.125", "polybench/correlation:scale=0.0625",
};
#define NW (sizeof workloads / sizeof workloads[0])
#define ND 3

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* base, base-48k and full-assoc, set here so the benchmark needs no files */
static void design(wc_config *c, int d)
{
    wc_config_defaults(c);
    if (d == 1) {
        c->l1.nsets = 64;
        c->l1.assoc = 6;
        c->shmem_per_sm = 16384;
    } else if (d == 2) {
        c->l1.nsets = 1;
        c->l1.assoc = 128;
        c->l1.set_index = 'L';
    }
}

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Wall-clock seconds of one batch; *cpu gets the CPU seconds it used (all
 * threads), which shows whether the cores were free: on an idle machine a
 * -j 2 batch uses about twice its wall time in CPU time. */
static double run(unsigned threads, uint64_t *cycles, double *cpu)
{
    wc_job jobs[NW * ND];
    memset(jobs, 0, sizeof jobs);
    for (size_t i = 0; i < NW * ND; i++) {
        design(&jobs[i].cfg, (int)(i % ND));
        jobs[i].spec.workload = workloads[i / ND];
    }
    wc_batch_opts o = {threads, NULL, NULL, NULL, NULL};
    wc_err err = {{0}};
    double t0 = now_s(), c0 = cpu_s();
    if (wc_batch_run(jobs, NW * ND, &o, &err) < 0) {
        fprintf(stderr, "%s\n", err.msg);
        exit(1);
    }
    double dt = now_s() - t0;
    *cpu = cpu_s() - c0;
    for (size_t i = 0; i < NW * ND; i++) {
        if (jobs[i].rc < 0) {
            fprintf(stderr, "%s: %s\n", workloads[i / ND], jobs[i].err.msg);
            exit(1);
        }
        cycles[i] = jobs[i].stats.total.cycles;
    }
    wc_batch_free(jobs, NW * ND);
    return dt;
}

int main(void)
{
    uint64_t c1[NW * ND], c2[NW * ND];
    double u1, u2;
    double t1 = run(1, c1, &u1), t2 = run(2, c2, &u2);
    printf("batch: %zu simulations (%zu workloads x %d L1 designs), %u CPUs online\n",
           (size_t)(NW * ND), (size_t)NW, ND, wc_cpu_count());
    printf("  -j 1: %6.2f s wall, %6.2f s CPU  %7.1f simulations/min\n", t1, u1,
           60.0 * NW * ND / t1);
    printf("  -j 2: %6.2f s wall, %6.2f s CPU  %7.1f simulations/min\n", t2, u2,
           60.0 * NW * ND / t2);
    printf("  speed-up %.2fx, parallel efficiency %.0f%%; CPUs busy for this batch at -j 2: "
           "%.2f of 2 (less than 2: other processes had the cores)\n",
           t1 / t2, 100.0 * t1 / t2 / 2.0, u2 / t2);
    if (memcmp(c1, c2, sizeof c1) != 0) {
        printf("  ERROR: -j 1 and -j 2 gave different cycle counts\n");
        return 1;
    }
    printf("  -j 1 and -j 2 results identical\n");
    return 0;
}
