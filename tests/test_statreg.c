/*
 * test_statreg.c - registered statistics (warpcache/statreg.h): every
 * counter of a kernel's report and of a controller's period is registered
 * exactly once with a name, unit and meaning, and the engine's snapshot, the
 * per-kernel difference, the sum of kernels and the period counters carry
 * what the owners counted.  The run: test_control.c's miss_then_reuse
 * launched twice on the tiny GPU (every latency visible, the L1 flushed
 * between kernels).
 */
#include "check.h"
#include "tiny_config.h"
#include "tiny_gpu.h"
#include "listsrc.h"
#include "warpcache/control.h"
#include "warpcache/statreg.h"

/* ---- coverage: each uint64_t of wc_kstats and wc_period_counters ---------- */

typedef struct cover {
    unsigned ks[sizeof(wc_kstats) / 8], pc[sizeof(wc_period_counters) / 8];
    unsigned n, unnamed;
    const char *names[128];
    unsigned dup_names;
} cover;

static void count_one(void *ctx, const wc_stat_group *g, const wc_stat_desc *d)
{
    cover *c = ctx;
    unsigned n = d->sum ? 1 : d->n;
    for (unsigned j = 0; j < n; j++) {
        if (d->ks >= 0) c->ks[(size_t)d->ks / 8 + j]++;
        if (d->pc >= 0) c->pc[(size_t)d->pc / 8 + j]++;
    }
    if (!d->unit || !d->unit[0] || !d->desc || !d->desc[0] || !g->owner) c->unnamed++;
    for (unsigned i = 0; i < c->n && i < 128; i++)
        if (strcmp(c->names[i], d->name) == 0) c->dup_names++;
    if (c->n < 128) c->names[c->n] = d->name;
    c->n++;
}

/* Every counter field of wc_kstats (from `cycles` up to the extras) is
 * registered once, nothing else is; every counter of wc_period_counters but
 * the period's length and the derived l1_misses once.  Names are unique and
 * every entry says its unit and meaning. */
static void test_every_counter_registered_once(void)
{
    cover c;
    memset(&c, 0, sizeof c);
    wc_stat_each(count_one, &c);
    CHECK(c.n > 30);
    CHECK_EQ(c.unnamed, 0);
    CHECK_EQ(c.dup_names, 0);
    for (size_t off = 0; off < sizeof(wc_kstats); off += 8) {
        bool counter = off >= offsetof(wc_kstats, cycles) && off < offsetof(wc_kstats, n_extras);
        if (c.ks[off / 8] != (counter ? 1u : 0u)) {
            fprintf(stderr, "wc_kstats offset %zu registered %u times\n", off, c.ks[off / 8]);
            CHECK(0);
        }
    }
    for (size_t off = 0; off < sizeof(wc_period_counters); off += 8) {
        bool counter = off < offsetof(wc_period_counters, l1_miss_rate) &&
                       off != offsetof(wc_period_counters, cycles) &&
                       off != offsetof(wc_period_counters, l1_misses);
        if (c.pc[off / 8] != (counter ? 1u : 0u)) {
            fprintf(stderr, "wc_period_counters offset %zu registered %u times\n", off,
                    c.pc[off / 8]);
            CHECK(0);
        }
    }
}

/* ---- values on a run ----------------------------------------------------- */

static list_source *miss_then_reuse_twice(void)
{
    list_source *l = ls_create(1, 32);
    ls_load(l, 0, 0x10000, 1);
    ls_alu(l, 0, 2, 1);
    ls_load(l, 0, 0x10000, 3);
    ls_alu(l, 0, 4, 3);
    l->kernels_left = 2;
    return l;
}

/* A controller keeping the counters of its periods (period 100). */
static wc_period_counters seen_sm[8], seen_gpu[8];
static unsigned n_seen;

static const wc_param_desc no_params[] = {{0}};

static int keep_create(wc_ctl *c, const wc_param_values *params, wc_err *err)
{
    c->period = 100;
    return 0;
}

static void keep_period(wc_ctl *c, wc_ctl_io *io)
{
    if (n_seen < 8) {
        seen_sm[n_seen] = io->sm[0];
        seen_gpu[n_seen] = *io->gpu;
    }
    n_seen++;
}

static const wc_controller_ops keep_ops = {
    .name = "keep", .params = no_params, .create = keep_create, .period = keep_period};

/*
 * Kernel 1 (212 cycles): LDG A misses the L1 and the L2 (one DRAM read), the
 * second LDG A hits the L1; 2 LDG + 2 ALU = 4 warp instructions of 32 threads,
 * 2 coalesced requests; one 32 B request packet up (one flit), 160 B (5 flits)
 * down.  Kernel 2: the L1 was flushed, so LDG A misses it again but hits the
 * L2 (no DRAM read), the second hits the L1.  Per kernel the report holds the
 * difference (kernel 2's before-snapshot is kernel 1's counts), the totals the
 * sum.  The period [0, 100) of kernel 1 holds the LDG: 1 warp instruction,
 * one L1 read that missed, 32 B up and 160 B down on SM 0; the GPU row adds
 * the L2's one access and one miss.
 */
static void test_registered_counters_on_a_run(void)
{
    wc_config c;
    tiny_config(&c);
    n_seen = 0;
    tiny_hooks h = {.ctl = &keep_ops, .ctl_params = ""};
    wc_stats st;
    CHECK_EQ(tiny_run(&c, &miss_then_reuse_twice()->base, &st, &h, NULL), 0);
    CHECK_EQ(st.n_kernels, 2);
    if (st.n_kernels != 2) {
        wc_stats_free(&st);
        return;
    }
    const uint64_t l2_miss[2] = {1, 0}, l2_hit[2] = {0, 1}, dram[2] = {1, 0};
    for (unsigned i = 0; i < 2; i++) {
        const wc_kstats *k = &st.kernels[i];
        CHECK_EQ(k->warp_insts, 4);
        CHECK_EQ(k->thread_insts, 128);
        CHECK_EQ(k->op_count[WC_OP_LDG], 2);
        CHECK_EQ(k->op_count[WC_OP_ALU], 2);
        CHECK_EQ(k->gmem_reqs, 2);
        CHECK_EQ(k->l1.accesses, 2);
        CHECK_EQ(k->l1.reads, 2);
        CHECK_EQ(k->l1.outcome[WC_MISS], 1);
        CHECK_EQ(k->l1.outcome[WC_HIT], 1);
        CHECK_EQ(k->l1.read_misses, 1);
        CHECK_EQ(k->l2.accesses, 1);
        CHECK_EQ(k->l2.misses, l2_miss[i]);
        CHECK_EQ(k->l2.hits, l2_hit[i]);
        CHECK_EQ(k->dram.reads, dram[i]);
        CHECK_EQ(k->icnt.l1_to_l2_bytes, 32);
        CHECK_EQ(k->icnt.l2_to_l1_bytes, 160);
    }
    CHECK_EQ(st.kernels[0].cycles, 212);
    CHECK_EQ(st.total.cycles, st.kernels[0].cycles + st.kernels[1].cycles);
    CHECK_EQ(st.total.warp_insts, 8);
    CHECK_EQ(st.total.l1.outcome[WC_MISS], 2);
    CHECK_EQ(st.total.l2.accesses, 2);
    CHECK_EQ(st.total.dram.reads, 1);
    CHECK_EQ(st.total.icnt.l2_to_l1_bytes, 320);
    CHECK(n_seen >= 1);
    CHECK_EQ(seen_sm[0].warp_insts, 1);
    CHECK_EQ(seen_sm[0].l1_reads, 1);
    CHECK_EQ(seen_sm[0].l1_read_misses, 1);
    CHECK_EQ(seen_sm[0].l1_outcome[WC_MISS], 1);
    CHECK_EQ(seen_sm[0].up_bytes, 32);
    CHECK_EQ(seen_sm[0].down_bytes, 160);
    CHECK_EQ(seen_sm[0].l2_accesses, 0); /* the GPU row only */
    CHECK_EQ(seen_gpu[0].warp_insts, 1);
    CHECK_EQ(seen_gpu[0].l2_accesses, 1);
    CHECK_EQ(seen_gpu[0].l2_misses, 1);
    wc_stats_free(&st);
}

int main(void)
{
    RUN(test_every_counter_registered_once);
    RUN(test_registered_counters_on_a_run);
    return check_summary("statreg");
}
