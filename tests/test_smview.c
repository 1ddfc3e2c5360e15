/*
 * test_smview.c - the read-only SM view plug-ins get (include/warpcache/
 * smview.h), read by a controller written against the public API only, in
 * a real run on tiny_config.h's GPU (one SM, one GTO scheduler, ALU latency
 * 4, one issue per cycle).
 *
 * The program: one block of two warps (ids as the source gives them: kernel
 * 7, block 0).  Warp 0: BAR, ALU.  Warp 1: ALU, BAR, ALU.  By the engine's
 * rules (docs/design.md): the block is dispatched at cycle 0 before
 * kernel_begin, both warps start in block slot 0, warp slots 0 and 1, in
 * the one scheduler oldest first.  GTO issues the oldest warp first: cycle
 * 0 warp 0's BAR (it waits: at_barrier), cycle 1 warp 1's ALU, cycle 2 warp
 * 1's BAR, which releases both (they issue again from cycle 3).  A period
 * hook at boundary t runs before cycle t is simulated, so it sees cycles
 * 0..t-1, and the SM's clock (the cycle it ran last) reads t - 1: at 1 one
 * instruction and warp 0 at the barrier, at 2 two and warp 0 still waiting,
 * at 3 three and nobody waiting.  At kernel end all five
 * instructions issued and both warps retired (free, in no scheduler).
 */
#include <string.h>

#include "check.h"
#include "listsrc.h"
#include "tiny_config.h"
#include "warpcache/control.h"
#include "warpcache/sim.h"
#include "warpcache/smview.h"

#define MAXB 8

/* What the probe saw of SM 0 at one hook. */
typedef struct seen {
    uint64_t now, warp_insts, counted; /* counted: the period counters' sum so far */
    uint32_t kernel_id;
    unsigned n_slots, n_block_slots, n_sched;
    unsigned state[2], at_barrier[2], next_op[2], block[2];
    uint64_t block_id;
    unsigned sched_n, sched_w[2];
} seen;

typedef struct probe {
    seen begin, at[MAXB], end;
    unsigned n_at;
    uint64_t counted;
} probe;

static void look(const wc_smview *v, seen *s, uint64_t counted)
{
    memset(s, 0, sizeof *s);
    s->now = wc_smview_now(v);
    s->warp_insts = wc_smview_warp_insts(v);
    s->counted = counted;
    s->kernel_id = wc_smview_kernel_id(v);
    s->n_slots = v->n_slots;
    s->n_block_slots = v->n_block_slots;
    s->n_sched = v->n_sched;
    for (unsigned w = 0; w < 2; w++) {
        s->state[w] = wc_smview_warp_state(v, w);
        s->at_barrier[w] = wc_smview_warp_at_barrier(v, w);
        s->next_op[w] = wc_smview_warp_next_op(v, w);
        s->block[w] = wc_smview_warp_block(v, w);
    }
    s->block_id = wc_smview_block_id(v, 0);
    s->sched_n = wc_smview_sched_count(v, 0);
    for (unsigned k = 0; k < s->sched_n && k < 2; k++)
        s->sched_w[k] = wc_smview_sched_warp(v, 0, k);
}

static int probe_create(wc_ctl *c, const wc_param_values *params, wc_err *err)
{
    (void)params;
    c->period = 1;
    c->priv = calloc(1, sizeof(probe));
    /* what the engine hands a controller before create */
    if (!c->cfg || c->n_sm != 1 || !c->views) return wc_errf(err, "no configuration or views");
    return 0;
}

static void probe_destroy(wc_ctl *c)
{
    free(c->priv);
}

static void probe_begin(wc_ctl *c, wc_ctl_io *io)
{
    probe *p = c->priv;
    look(&io->views[0], &p->begin, 0);
}

static void probe_period(wc_ctl *c, wc_ctl_io *io)
{
    probe *p = c->priv;
    p->counted += io->sm[0].warp_insts;
    if (p->n_at < MAXB) look(&io->views[0], &p->at[p->n_at++], p->counted);
}

static void probe_end(wc_ctl *c, wc_ctl_io *io)
{
    probe *p = c->priv;
    p->counted += io->sm[0].warp_insts;
    look(&io->views[0], &p->end, p->counted);
}

/* The probe's record of the last run (copied out before destroy). */
static probe last;

static void probe_stats(const wc_ctl *c, void (*add)(void *ctx, const char *name, double v),
                        void *ctx)
{
    last = *(const probe *)c->priv;
}

static const wc_controller_ops probe_ops = {
    .name = "probe",
    .help = "reads the SM view",
    .create = probe_create,
    .destroy = probe_destroy,
    .kernel_begin = probe_begin,
    .period = probe_period,
    .kernel_end = probe_end,
    .stats = probe_stats,
};

static void add_bar(list_source *l, unsigned warp)
{
    wc_winst *in = &l->insts[warp][l->n_insts[warp]++];
    wc_winst_clear(in);
    in->op = WC_OP_BAR;
}

static void test_view_through_a_run(void)
{
    wc_config c;
    tiny_config(&c);
    list_source *l = ls_create(1, 64);
    l->k.id = 7;
    add_bar(l, 0);
    ls_alu(l, 0, 5, WC_REG_NONE);
    ls_alu(l, 1, 3, WC_REG_NONE);
    add_bar(l, 1);
    ls_alu(l, 1, 6, WC_REG_NONE);
    wc_err err = {{0}};
    wc_sim *sim = wc_sim_create(&c, &err);
    CHECK(sim != NULL);
    if (!sim) return;
    CHECK_EQ(wc_sim_add_controller(sim, &probe_ops, "", &err), 0);
    memset(&last, 0, sizeof last);
    wc_stats st;
    wc_stats_init(&st);
    CHECK_EQ(wc_sim_run(sim, &l->base, &st, &err), 0);
    CHECK_EQ(st.total.warp_insts, 5);
    const probe *p = &last;

    const seen *b = &p->begin;
    CHECK_EQ(b->now, 0);
    CHECK_EQ(b->n_slots, c.max_threads_per_sm / 32);
    CHECK_EQ(b->n_block_slots, c.max_blocks_per_sm);
    CHECK_EQ(b->n_sched, 1);
    CHECK_EQ(b->kernel_id, 7);
    CHECK_EQ(b->warp_insts, 0);
    CHECK_EQ(b->block[0], 0);
    CHECK_EQ(b->block[1], 0);
    CHECK_EQ(b->block_id, 0);
    CHECK_EQ(b->state[0], WC_WARP_ACTIVE);
    CHECK_EQ(b->state[1], WC_WARP_ACTIVE);
    CHECK_EQ(b->next_op[0], WC_OP_BAR);
    CHECK_EQ(b->next_op[1], WC_OP_ALU);
    CHECK_EQ(b->sched_n, 2);
    CHECK_EQ(b->sched_w[0], 0);
    CHECK_EQ(b->sched_w[1], 1);

    CHECK(p->n_at >= 3);
    /* boundary 1: warp 0's BAR issued and waiting; its next is the ALU */
    CHECK_EQ(p->at[0].now, 0);
    CHECK_EQ(p->at[0].warp_insts, 1);
    CHECK_EQ(p->at[0].at_barrier[0], 1);
    CHECK_EQ(p->at[0].at_barrier[1], 0);
    CHECK_EQ(p->at[0].next_op[0], WC_OP_ALU);
    /* boundary 2: warp 1's ALU issued, its BAR next; warp 0 still waits */
    CHECK_EQ(p->at[1].now, 1);
    CHECK_EQ(p->at[1].warp_insts, 2);
    CHECK_EQ(p->at[1].at_barrier[0], 1);
    CHECK_EQ(p->at[1].next_op[1], WC_OP_BAR);
    /* boundary 3: warp 1's BAR released both */
    CHECK_EQ(p->at[2].now, 2);
    CHECK_EQ(p->at[2].warp_insts, 3);
    CHECK_EQ(p->at[2].at_barrier[0], 0);
    CHECK_EQ(p->at[2].at_barrier[1], 0);
    /* the live count is what the period counters add up to */
    for (unsigned i = 0; i < p->n_at; i++) CHECK_EQ(p->at[i].warp_insts, p->at[i].counted);

    const seen *e = &p->end;
    CHECK_EQ(e->warp_insts, 5);
    CHECK_EQ(e->counted, 5);
    CHECK_EQ(e->state[0], WC_WARP_FREE);
    CHECK_EQ(e->state[1], WC_WARP_FREE);
    CHECK_EQ(e->sched_n, 0);
    wc_stats_free(&st);
    wc_sim_destroy(sim);
    wc_source_destroy(&l->base);
}

int main(void)
{
    RUN(test_view_through_a_run);
    return check_summary("smview");
}
