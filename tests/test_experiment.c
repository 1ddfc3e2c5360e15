/*
 * test_experiment.c - the experiment library (include/warpcache/experiment.h):
 * normalisation and means on hand-computed numbers, metric names, the L1
 * geometry aliases, design files, workload expansion and class labels, and
 * the parallel batch runner (in-order delivery, results equal to a
 * sequential run).  `make tsan` runs this binary under ThreadSanitizer: the
 * batch tests run two simulations in two threads.
 */
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "warpcache/experiment.h"

static void test_normalise_and_means(void)
{
    /* rows x designs; the reference is column 0.
     *   row 0: 2, 4  -> 1, 2
     *   row 1: 4, 2  -> 1, 0.5
     *   row 2: 1, 1  -> 1, 1
     *   row 3: 0, 5  -> NAN (reference 0), excluded from the means
     * column 1: geomean = (2 * 0.5 * 1)^(1/3) = 1
     *           hmean   = 3 / (1/2 + 1/0.5 + 1/1) = 3 / 3.5 = 0.857142857
     * rows 0 and 1 only: geomean = (2 * 0.5)^(1/2) = 1, hmean = 2 / 2.5 = 0.8 */
    const double v[] = {2, 4, 4, 2, 1, 1, 0, 5};
    double norm[8];
    size_t n;
    wc_exp_normalise(v, 4, 2, norm);
    CHECK_NEAR(norm[0], 1.0, 1e-12);
    CHECK_NEAR(norm[1], 2.0, 1e-12);
    CHECK_NEAR(norm[3], 0.5, 1e-12);
    CHECK(isnan(norm[6]) && isnan(norm[7]));
    CHECK_NEAR(wc_exp_geomean(norm, 4, 2, 1, NULL, &n), 1.0, 1e-12);
    CHECK_EQ(n, 3);
    CHECK_NEAR(wc_exp_hmean(norm, 4, 2, 1, NULL, &n), 3.0 / 3.5, 1e-12);
    CHECK_EQ(n, 3);
    const bool use[] = {true, true, false, false};
    CHECK_NEAR(wc_exp_geomean(norm, 4, 2, 1, use, &n), 1.0, 1e-12);
    CHECK_NEAR(wc_exp_hmean(norm, 4, 2, 1, use, &n), 0.8, 1e-12);
    CHECK_EQ(n, 2);
    /* the reference column normalises to exactly 1 */
    CHECK_NEAR(wc_exp_geomean(norm, 4, 2, 0, NULL, &n), 1.0, 1e-12);
    /* geomean of 4 and 1 (as ratios): sqrt(4) = 2; hmean = 2 / (1/4 + 1) = 1.6 */
    const double w[] = {1, 4, 1, 1};
    wc_exp_normalise(w, 2, 2, norm);
    CHECK_NEAR(wc_exp_geomean(norm, 2, 2, 1, NULL, &n), 2.0, 1e-12);
    CHECK_NEAR(wc_exp_hmean(norm, 2, 2, 1, NULL, &n), 1.6, 1e-12);
}

static void test_metric_names(void)
{
    wc_exp_metric m;
    wc_err err;
    CHECK(wc_exp_metric_find("l1_miss_rate", &m, &err) == 0);
    CHECK_STR(m.name, "l1.miss_rate");
    CHECK(wc_exp_metric_find("l2_to_l1_bytes", &m, &err) == 0);
    CHECK_STR(m.name, "icnt.l2_to_l1_bytes");
    CHECK(wc_exp_metric_find("ipc", &m, &err) == 0 && m.is_float);
    CHECK(wc_exp_metric_find("l1.reservation_fails.line_alloc", &m, &err) == 0);
    CHECK(wc_exp_metric_find("no_such_metric", &m, &err) < 0);
    CHECK(strstr(err.msg, "no_such_metric") != NULL);
    /* res_fails_pki: 50 fails over 2000 warp instructions = 25 per kilo-instruction */
    wc_kstats k;
    memset(&k, 0, sizeof k);
    k.warp_insts = 2000;
    k.l1.outcome[WC_RESERVATION_FAIL] = 50;
    CHECK(wc_exp_metric_find("res_fails_pki", &m, &err) == 0);
    CHECK_NEAR(wc_exp_metric_value(&m, &k), 25.0, 1e-12);
    /* extras: present -> value, absent -> NAN */
    wc_kstats_set_extra(&k, "bypassed_lines", 7);
    CHECK(wc_exp_metric_find("extra.bypassed_lines", &m, &err) == 0);
    CHECK_NEAR(wc_exp_metric_value(&m, &k), 7.0, 1e-12);
    CHECK(wc_exp_metric_find("extra.other", &m, &err) == 0);
    CHECK(isnan(wc_exp_metric_value(&m, &k)));
}

static void test_geometry_aliases(void)
{
    wc_config c;
    wc_err err;
    wc_config_defaults(&c); /* 32 sets x 128 B x 4 ways, Fermi hash */
    CHECK_EQ(wc_exp_set_option(&c, "l1_assoc", "8", "-g", &err), 0);
    CHECK_EQ(c.l1.assoc, 8);
    CHECK_EQ(c.l1.nsets, 32);
    /* l1_size keeps line and assoc: 64 KiB / (128 B x 8) = 64 sets */
    CHECK_EQ(wc_exp_set_option(&c, "l1_size", "64K", "-g", &err), 0);
    CHECK_EQ(c.l1.nsets, 64);
    CHECK_EQ(c.l1.set_index, 'H'); /* the rest of the string is kept */
    CHECK_EQ(wc_exp_set_option(&c, "l1_sets", "3", "-g", &err), -1);
    CHECK(strstr(err.msg, "option l1_sets") && strstr(err.msg, "power of two"));
    CHECK_EQ(wc_exp_set_option(&c, "l1_size", "1000", "-g", &err), -1);
    CHECK(strstr(err.msg, "not a multiple") != NULL);
    CHECK_EQ(wc_exp_set_option(&c, "l1_assoc", "abc", "-g", &err), -1);
    CHECK_EQ(wc_exp_set_option(&c, "gpgpu_scheduler", "lrr", "-g", &err), 0);
    CHECK_STR(c.scheduler, "lrr");
    CHECK_EQ(wc_exp_set_option(&c, "no_such_option", "1", "-g", &err), 1);
}

static void test_designs(void)
{
    char dir[] = "/tmp/wc-designs.XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[256];
    snprintf(path, sizeof path, "%s/big.config", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs(
        "# A big L1\n# paper: 004_x.txt Table 1\n-gpgpu_cache:dl1 N:64:128:6,L:L:m:N:H,A:32:8,8\n",
        f);
    fclose(f);
    const char *dirs[] = {"/nonexistent-dir", dir};
    wc_design_info d;
    wc_err err;
    CHECK(wc_design_find("big", dirs, 2, &d, &err) == 0);
    CHECK_STR(d.description, "A big L1");
    CHECK_STR(d.paper, "004_x.txt Table 1");
    CHECK_STR(d.path, path);
    CHECK(wc_design_find(path, dirs, 0, &d, &err) == 0); /* a path needs no directory */
    CHECK_STR(d.name, "big");
    CHECK(wc_design_find("small", dirs, 2, &d, &err) < 0);
    CHECK(strstr(err.msg, "unknown design 'small'") && strstr(err.msg, "big"));
    wc_design_info *all;
    size_t n;
    CHECK(wc_design_list(dirs, 2, &all, &n, &err) == 0);
    CHECK_EQ(n, 1);
    free(all);
    unlink(path);
    rmdir(dir);
}

static void test_workload_lists(void)
{
    char **names = NULL;
    size_t n = 0;
    wc_err err;
    CHECK(wc_expand_workloads("polybench:scale=0.5", &names, &n, &err) == 0);
    CHECK_EQ(n, 20); /* the 20 PolyBench/GPU benchmarks */
    CHECK_STR(names[0], "polybench/atax:scale=0.5");
    CHECK(wc_expand_workloads("micro/stream:n=64", &names, &n, &err) == 0);
    CHECK_EQ(n, 21);
    CHECK_STR(names[20], "micro/stream:n=64");
    CHECK(wc_expand_workloads("nosuchsuite", &names, &n, &err) < 0);
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
    char buf[128];
    wc_workload_classes("polybench/gesummv:scale=0.5", "002", buf, sizeof buf);
    CHECK_STR(buf, "002:thrashing 002:conflict");
    wc_workload_classes("polybench/gesummv", "004", buf, sizeof buf);
    CHECK_STR(buf, "004:IW");
    wc_workload_classes("micro/stride", "004", buf, sizeof buf);
    CHECK_STR(buf, "");
}

typedef struct order_log {
    size_t seen[8], n;
} order_log;

static int log_order(void *ctx, size_t index, wc_job *job)
{
    order_log *l = ctx;
    l->seen[l->n++] = index;
    return 0;
}

static const char *const specs[] = {"micro/stream:n=65536", "micro/colcopy:h=64",
                                    "micro/stride:n=16384,stride=4", "polybench/atax:scale=0.03"};

static void make_jobs(wc_job *jobs)
{
    memset(jobs, 0, 4 * sizeof *jobs);
    for (int i = 0; i < 4; i++) {
        wc_config_defaults(&jobs[i].cfg);
        jobs[i].spec.workload = specs[i];
    }
}

/* Two threads over four simulations: in_order sees 0,1,2,3 whatever finished
 * first, and every result equals the same job run alone on one thread. */
static void test_batch_parallel_equals_sequential(void)
{
    wc_job seq[4], par[4];
    wc_err err;
    order_log log = {{0}, 0};
    make_jobs(seq);
    make_jobs(par);
    wc_batch_opts one = {1, NULL, NULL, NULL, NULL};
    wc_batch_opts two = {2, NULL, NULL, log_order, &log};
    CHECK_EQ(wc_batch_run(seq, 4, &one, &err), 0);
    CHECK_EQ(wc_batch_run(par, 4, &two, &err), 0);
    CHECK_EQ(log.n, 4);
    for (size_t i = 0; i < 4; i++) {
        CHECK_EQ(log.seen[i], i);
        CHECK_EQ(par[i].rc, 0);
        CHECK(par[i].stats.total.cycles > 0);
        CHECK_EQ(par[i].stats.total.cycles, seq[i].stats.total.cycles);
        CHECK_EQ(par[i].stats.total.l1.accesses, seq[i].stats.total.l1.accesses);
        CHECK_EQ(par[i].stats.total.icnt.l2_to_l1_bytes, seq[i].stats.total.icnt.l2_to_l1_bytes);
    }
    wc_batch_free(seq, 4);
    wc_batch_free(par, 4);
}

/* Eight jobs over four workloads on two threads: the second job of each
 * workload is started in the order of the first ones' cost (batch.c's
 * longest-first claim), not in index order, and still in_order sees 0..7 and
 * every result equals the same job run alone on one thread. */
static void test_batch_longest_first_keeps_order(void)
{
    enum { N = 8 };
    wc_job seq[N], par[N];
    wc_err err;
    order_log log = {{0}, 0};
    memset(seq, 0, sizeof seq);
    memset(par, 0, sizeof par);
    for (int i = 0; i < N; i++) {
        wc_config_defaults(&seq[i].cfg);
        wc_config_defaults(&par[i].cfg);
        seq[i].spec.workload = par[i].spec.workload = specs[i % 4];
    }
    wc_batch_opts one = {1, NULL, NULL, NULL, NULL};
    wc_batch_opts two = {2, NULL, NULL, log_order, &log};
    CHECK_EQ(wc_batch_run(seq, N, &one, &err), 0);
    CHECK_EQ(wc_batch_run(par, N, &two, &err), 0);
    CHECK_EQ(log.n, N);
    for (size_t i = 0; i < N; i++) {
        CHECK_EQ(log.seen[i], i);
        CHECK_EQ(par[i].rc, 0);
        CHECK_EQ(par[i].stats.total.cycles, seq[i].stats.total.cycles);
        CHECK_EQ(par[i].stats.total.l1.accesses, seq[i].stats.total.l1.accesses);
    }
    wc_batch_free(seq, N);
    wc_batch_free(par, N);
}

static int stop_after_first(void *ctx, size_t index, wc_job *job)
{
    (void)ctx;
    return index == 0 ? 1 : 0;
}

/* A failing job reports its own error; in_order returning non-zero stops the batch. */
static void test_batch_errors_and_stop(void)
{
    wc_job jobs[4];
    wc_err err;
    make_jobs(jobs);
    jobs[1].spec.workload = "micro/nosuch";
    wc_batch_opts o = {2, NULL, NULL, NULL, NULL};
    CHECK_EQ(wc_batch_run(jobs, 4, &o, &err), 0);
    CHECK_EQ(jobs[0].rc, 0);
    CHECK_EQ(jobs[1].rc, -1);
    CHECK(strstr(jobs[1].err.msg, "micro/nosuch") != NULL);
    wc_batch_free(jobs, 4);
    make_jobs(jobs);
    wc_batch_opts s = {1, NULL, NULL, stop_after_first, NULL};
    CHECK_EQ(wc_batch_run(jobs, 4, &s, &err), 1);
    CHECK(jobs[3].stats.n_kernels == 0); /* never started */
    wc_batch_free(jobs, 4);
}

static void test_run_simulation_api(void)
{
    wc_config cfg;
    wc_stats st;
    wc_err err;
    wc_config_defaults(&cfg);
    wc_stats_init(&st);
    /* micro/stream n=65536: 65536 threads each load and store one float: 2048
     * warps x (1 load + 1 store) = 4096 warp memory instructions */
    wc_run_spec spec = {.workload = "micro/stream:n=65536"};
    CHECK_EQ(wc_run_simulation(&cfg, &spec, &st, &err), 0);
    CHECK_EQ(st.n_kernels, 1);
    CHECK_EQ(st.total.op_count[WC_OP_LDG] + st.total.op_count[WC_OP_STG], 4096);
    CHECK_STR(st.workload, "micro/stream:n=65536");
    wc_stats_free(&st);
    wc_run_spec both = {.workload = "micro/stream", .trace = "x"};
    wc_stats_init(&st);
    CHECK_EQ(wc_run_simulation(&cfg, &both, &st, &err), -1);
    wc_stats_free(&st);
}

int main(void)
{
    RUN(test_normalise_and_means);
    RUN(test_metric_names);
    RUN(test_geometry_aliases);
    RUN(test_designs);
    RUN(test_workload_lists);
    RUN(test_batch_parallel_equals_sequential);
    RUN(test_batch_longest_first_keeps_order);
    RUN(test_batch_errors_and_stop);
    RUN(test_run_simulation_api);
    return check_summary("experiment");
}
