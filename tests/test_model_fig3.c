/*
 * test_model_fig3.c - seed 003 (../shared/papers/003_ffafd1cb931cbd21.txt)
 * Figure 3, "expected (round-robin)" column: the column-major copy
 * micro/colcopy (one block of h threads, thread t reads its 4 KB row) on the
 * seed's 16 KB cache of 128 lines with the plain GPU ordering (no latency,
 * MSHR or divergence extension).  Each thread's line serves 32 consecutive
 * loads; between two of them the other h-1 threads touch one line each, so the
 * distance is h-1: fully associative, h <= 128 misses once per 32 loads
 * (3.13 %), h >= 256 always (100 %).
 *
 * With the Fermi hash and 4 ways (extension 3) the lines of a fixed column fall
 * into sets by address bits 13, 14, 15, 17 of the row address t*4096, i.e. by
 * bits 1, 2, 3, 5 of t: h = 32 gives 8 sets x 4 lines and h = 64 16 x 4
 * (fit: 3.13 %), h = 128 16 sets x 8 lines (LRU cycling, 100 %).
 *
 * Also the full model (latency, MSHR and divergence extensions) on the same
 * inputs: its structure is asserted (classes add up, compulsory = lines),
 * and its miss rate is compared with the paper's measured column only at
 * h = 32, where the footprint fits and nearly every miss is compulsory
 * (measured 3.13 %, tolerance 0.05 percentage points).  For h >= 64 the
 * model is known not to reproduce the hardware (7.6-100 % against 3.77-82.28
 * %, docs/model.md explains why): those lines are a report printed for the
 * docs, not a test.
 */
#include "check.h"
#include "warpcache/model.h"
#include "warpcache/workloads.h"

static void seed_config(wc_config *cfg)
{
    wc_config_defaults(cfg);
    cfg->l1.nsets = 32;
    cfg->l1.line_bytes = 128;
    cfg->l1.assoc = 4;
    cfg->l1.set_index = 'H';
}

static const char *spec_of(unsigned h, char *buf, size_t n)
{
    snprintf(buf, n, "micro/colcopy:h=%u", h);
    return buf;
}

static double colcopy_rate(unsigned h, const wc_model_opts *o, wc_model_counts *out)
{
    wc_config cfg;
    seed_config(&cfg);
    char spec[64];
    wc_err err;
    wc_source *src = wc_workload_open(spec_of(h, spec, sizeof spec), 1, &err);
    CHECK(src != NULL);
    if (!src) return -1;
    wc_model_result res;
    memset(&res, 0, sizeof res);
    int rc = wc_model_run(o, &cfg, src, WC_RUN_FULL, &res, NULL, NULL, &err);
    wc_source_destroy(src);
    CHECK(rc == 0);
    if (rc < 0 || res.n_kernels != 1) {
        fprintf(stderr, "%s\n", err.msg);
        wc_model_result_free(&res);
        return -1;
    }
    *out = res.kernels[0].run[WC_RUN_FULL];
    double r = (double)out->misses / (double)out->accesses;
    wc_model_result_free(&res);
    return r;
}

static void plain(wc_model_opts *o, bool assoc)
{
    wc_model_opts_defaults(o);
    o->latency = o->mshr = o->divergence = false;
    o->assoc = assoc;
}

static void test_fig3_round_robin_fully_associative(void)
{
    const unsigned hs[6] = {32, 64, 128, 256, 512, 1024};
    wc_model_opts o;
    plain(&o, false);
    for (int i = 0; i < 6; i++) {
        wc_model_counts c;
        double r = colcopy_rate(hs[i], &o, &c);
        CHECK_EQ(c.accesses, (uint64_t)hs[i] * 1024); /* uncoalesced: one line per thread */
        if (hs[i] <= 128)
            CHECK_EQ(c.misses, (uint64_t)hs[i] * 32); /* 1 in 32 */
        else
            CHECK_EQ(c.misses, c.accesses);
        CHECK_NEAR(r, hs[i] <= 128 ? 1.0 / 32 : 1.0, 1e-12);
    }
}

static void test_fig3_round_robin_fermi_hash(void)
{
    const unsigned hs[4] = {32, 64, 128, 256};
    const double want[4] = {1.0 / 32, 1.0 / 32, 1.0, 1.0};
    wc_model_opts o;
    plain(&o, true);
    for (int i = 0; i < 4; i++) {
        wc_model_counts c;
        CHECK_NEAR(colcopy_rate(hs[i], &o, &c), want[i], 1e-12);
    }
}

static wc_source *open_colcopy(void *ctx, wc_err *err)
{
    return wc_workload_open(ctx, 1, err);
}

/* The full model: sane (rates in range, classes add up), h = 32 compared with
 * the paper, every h printed as a report (see the header). */
static void test_fig3_full_model(void)
{
    const unsigned hs[6] = {32, 64, 128, 256, 512, 1024};
    const double measured[6] = {3.13, 3.77, 32.71, 42.05, 67.20, 82.28};
    wc_model_opts o;
    wc_model_opts_defaults(&o);
    wc_config cfg;
    seed_config(&cfg);
    for (int i = 0; i < 6; i++) {
        char spec[64];
        spec_of(hs[i], spec, sizeof spec);
        wc_model_result res;
        wc_err err;
        CHECK(wc_model_classify(&o, &cfg, open_colcopy, spec, &res, &err) == 0);
        if (res.n_kernels != 1) continue;
        const wc_model_kernel *k = &res.kernels[0];
        const wc_model_classes *c = &k->cls;
        CHECK_EQ(c->compulsory + c->capacity + c->associativity + c->latency + c->mshr,
                 k->run[WC_RUN_FULL].misses);
        CHECK_EQ(c->compulsory, (uint64_t)hs[i] * 32); /* every line once */
        double r = wc_model_miss_rate(k), rn = wc_model_miss_rate_no_latency(k);
        CHECK(r >= rn && rn >= 1.0 / 32 - 1e-9 && r <= 1.0);
        if (hs[i] == 32) CHECK_NEAR(100 * r, measured[i], 0.05);
        printf(
            "fig3 report (not compared beyond h=32): h=%4u paper (GTX470) %6.2f%%  model %6.2f%% "
            "(without latency misses %6.2f%%)"
            "  comp %llu cap %llu assoc %llu lat %llu mshr %llu\n",
            hs[i], measured[i], 100 * r, 100 * rn, (unsigned long long)c->compulsory,
            (unsigned long long)c->capacity, (unsigned long long)c->associativity,
            (unsigned long long)c->latency, (unsigned long long)c->mshr);
        wc_model_result_free(&res);
    }
}

int main(void)
{
    RUN(test_fig3_round_robin_fully_associative);
    RUN(test_fig3_round_robin_fermi_hash);
    RUN(test_fig3_full_model);
    return check_summary("model_fig3");
}
