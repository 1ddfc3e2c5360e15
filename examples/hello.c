/*
 * hello.c - the smallest program built on libwarpcache: it simulates one
 * built-in workload on the default (Fermi, 16 KB L1) configuration through the
 * public API and prints a few statistics.  `make check` compiles it against
 * the installed tree (make install, pkg-config warpcache) and runs it; see
 * docs/library.md.
 *
 *     cc hello.c $(pkg-config --cflags --libs --static warpcache) -o hello
 *     ./hello [WORKLOAD [L1_ASSOC]]      e.g. ./hello polybench/atax:scale=0.125 8
 */
#include <stdio.h>

#include "warpcache/experiment.h"

int main(int argc, char **argv)
{
    const char *workload = argc > 1 ? argv[1] : "micro/colcopy:h=256";
    wc_err err;
    wc_config cfg;
    wc_config_defaults(&cfg);
    /* One option changed the way `-o l1_assoc=N` does on the command line. */
    if (argc > 2 && wc_exp_set_option(&cfg, "l1_assoc", argv[2], "hello", &err) != 0) {
        fprintf(stderr, "hello: l1_assoc: %s\n", err.msg);
        return 2;
    }
    wc_stats st;
    wc_stats_init(&st);
    wc_run_spec spec = {.workload = workload};
    if (wc_run_simulation(&cfg, &spec, &st, &err) < 0) {
        fprintf(stderr, "hello: %s\n", err.msg);
        wc_stats_free(&st);
        return 2;
    }
    const wc_kstats *t = &st.total;
    printf("workload      %s\n", workload);
    printf("kernels       %zu\n", st.n_kernels);
    printf("cycles        %llu\n", (unsigned long long)t->cycles);
    printf("ipc           %.4f\n", wc_kstats_ipc(t));
    printf("l1_miss_rate  %.4f\n", wc_kstats_l1_miss_rate(t));
    printf("l2_accesses   %llu\n", (unsigned long long)t->l2.accesses);
    wc_stats_free(&st);
    return 0;
}
