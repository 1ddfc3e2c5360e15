/*
 * bench_sim.c - simulator throughput on the fermi-16k configuration:
 * coalesced L1 requests per second, L1 lookups (including retried
 * reservation fails) per second, warp instructions per second, peak memory;
 * then the same with the reply crossbar simulated cycle by cycle
 * (-icnt_model islip, what GPGPU-Sim files with -network_mode 1 get), to
 * show its cost.  Run by `make bench`; never part of the tests.
 */
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

#include "warpcache/sim.h"
#include "warpcache/workloads.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int bench(const char *workload, const char *config, const char *icnt)
{
    wc_config cfg;
    wc_config_defaults(&cfg);
    wc_err err = {{0}};
    if (wc_config_load_file(&cfg, config, NULL, NULL, &err) < 0 ||
        (icnt && wc_config_set(&cfg, "icnt_model", icnt, "bench", &err) < 0)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    double best = 1e30;
    wc_stats st;
    for (int rep = 0; rep < 3; rep++) {
        wc_source *src = wc_workload_open(workload, cfg.seed, &err);
        wc_sim *sim = src ? wc_sim_create(&cfg, &err) : NULL;
        if (!sim) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        if (rep) wc_stats_free(&st);
        wc_stats_init(&st);
        double t0 = now_s();
        int rc = wc_sim_run(sim, src, &st, &err);
        double dt = now_s() - t0;
        wc_sim_destroy(sim);
        wc_source_destroy(src);
        if (rc < 0) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        if (dt < best) best = dt;
    }
    const wc_kstats *k = &st.total;
    uint64_t lookups = k->l1.accesses + k->l1.outcome[WC_RESERVATION_FAIL];
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%-28s %8.3f s  %7.2f M req/s  %7.2f M lookups/s  %7.2f M warp-inst/s  "
           "(%llu req, %llu warp insts, %llu cycles)  peak RSS %ld MB\n",
           workload, best, k->gmem_reqs / best / 1e6, lookups / best / 1e6,
           k->warp_insts / best / 1e6, (unsigned long long)k->gmem_reqs,
           (unsigned long long)k->warp_insts, (unsigned long long)k->cycles, ru.ru_maxrss / 1024);
    wc_stats_free(&st);
    return 0;
}

int main(int argc, char **argv)
{
    const char *config = argc > 1 ? argv[1] : "configs/fermi-16k.config";
    printf("simulator throughput, %s, best of 3, one core\n", config);
    int rc = 0;
    for (int x = 0; x < 2; x++) {
        const char *icnt = x ? "islip" : NULL;
        if (icnt) printf("with -icnt_model %s\n", icnt);
        rc |= bench("micro/stream:n=4194304", config, icnt);
        rc |= bench("micro/colcopy:h=1024", config, icnt);
        rc |= bench("micro/stride:n=1048576,stride=8", config, icnt);
    }
    return rc;
}
