/*
 * gpu.c - the clock: kernel launches, block dispatch, responses from the
 * memory side, and cycle skipping.
 *
 * Kernels run one after another.  Blocks go to SMs round-robin, one per SM
 * per pass, while the SM has room under the occupancy limits (blocks,
 * threads, registers, shared memory); when a block finishes, the next block
 * goes to the next SM with room.  Each cycle: deliver the responses due, run
 * every SM whose wake time has come, dispatch.  The clock then jumps to the
 * earliest of the next response and the next SM wake-up, so cycles in which
 * every SM waits on memory cost nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "core/gpu.h"
#include "core/issue_ahead.h"
#include "core/rdhist.h"
#include "warpcache/statreg.h"

wc_sim *wc_sim_create(const wc_config *cfg, wc_err *err)
{
    if (wc_config_validate(cfg, err) < 0) return NULL;
    wc_sim *g = calloc(1, sizeof *g);
    if (!g) {
        wc_errf(err, "out of memory");
        return NULL;
    }
    g->cfg = *cfg;
    wc_evq_init(&g->events);
    g->l1_ops = wc_l1_find(cfg->l1_org);
    if (!g->l1_ops) {
        wc_errf(err, "%s: option -l1_org: unknown L1 organisation '%s'", wc_cfg_where(cfg),
                cfg->l1_org);
        free(g);
        return NULL;
    }
    /* The plug-in specs, parsed once (wc_config_validate checked them with
     * the same parsers): the SMs' schedulers and stages get the values. */
    wc_err why;
    if (wc_sched_parse(cfg->scheduler, &g->sched_ops, &g->sched_params, &why) < 0) {
        wc_errf(err, "%s: option -gpgpu_scheduler: %s", wc_cfg_where(cfg), why.msg);
        free(g);
        return NULL;
    }
    wc_sched probe; /* what create refuses beyond the schema is reported now, not at run */
    if (wc_sched_init(&probe, g->sched_ops, 1, &g->sched_params, NULL, 0, &why) < 0) {
        wc_sched_free(&probe);
        wc_errf(err, "%s: option -gpgpu_scheduler: %s", wc_cfg_where(cfg), why.msg);
        free(g);
        return NULL;
    }
    wc_sched_free(&probe);
    if (wc_mstage_parse(cfg->mem_stage, &g->mstage_ops, &g->mstage_params, &why) < 0) {
        wc_errf(err, "%s: option -mem_stage: %s", wc_cfg_where(cfg), why.msg);
        free(g);
        return NULL;
    }
    if (wc_issue_ahead_parse(cfg->mem_issue_ahead, cfg->pipe_widths, cfg->oc_units_mem,
                             &g->mem_issue_ahead, &why) < 0) {
        wc_errf(err, "%s: option -mem_issue_ahead: %s", wc_cfg_where(cfg), why.msg);
        free(g);
        return NULL;
    }
    g->n_sm = wc_config_n_sm(cfg);
    g->err = err;
    g->ctl_next = WC_NEVER;
    g->views = calloc(g->n_sm, sizeof *g->views); /* filled by the SMs of each run */
    if (!g->views) {
        wc_errf(err, "out of memory");
        wc_sim_destroy(g);
        return NULL;
    }
    if (wc_ctl_create_all(g, err) < 0 ||
        wc_analysis_create_all(&g->analyses, g, &g->cfg, err) < 0) {
        wc_sim_destroy(g);
        return NULL;
    }
    return g;
}

static void teardown(wc_sim *g)
{
    if (g->sms)
        for (unsigned i = 0; i < g->n_sm; i++) wc_sm_free(&g->sms[i]);
    free(g->sms);
    g->sms = NULL;
    if (g->views) /* they pointed into the SMs: a plug-in reading one now fails at once */
        memset(g->views, 0, g->n_sm * sizeof *g->views);
    if (g->l1_shared && g->l1_ops->shared_destroy) g->l1_ops->shared_destroy(g->l1_shared);
    g->l1_shared = NULL;
    wc_mem_free(&g->mem);
    free(g->deferred);
    g->deferred = NULL;
    g->cap_deferred = 0;
    wc_evq_free(&g->events);
    free(g->live);
    g->live = NULL;
    free(g->knobs);
    g->knobs = NULL;
    free(g->knobs_applied);
    g->knobs_applied = NULL;
    free(g->pc_sm);
    g->pc_sm = NULL;
    wc_rdhist_destroy(g->rd);
    g->rd = NULL;
}

void wc_sim_destroy(wc_sim *sim)
{
    if (!sim) return;
    teardown(sim);
    wc_ctl_destroy_all(sim);
    wc_analysis_destroy_all(&sim->analyses);
    free(sim->listeners);
    free(sim->views);
    free(sim);
}

static int build(wc_sim *g, wc_err *err)
{
    /* The SMs' schedulers and stages subscribe again below: keep only the
     * listeners added before the run (by the caller and the controllers). */
    g->n_listeners = g->n_user_listeners;
    g->n_access_listeners = 0;
    for (unsigned i = 0; i < g->n_listeners; i++)
        g->n_access_listeners += !!g->listeners[i].on_access;
    if (g->cfg.l1_rd_hist) { /* a part of the run, like the SMs' own listeners */
        wc_l1_listener l;
        if (!(g->rd = wc_rdhist_create(g->n_sm))) return wc_errf(err, "out of memory");
        l = wc_rdhist_listener(g->rd);
        g->building = true;
        int rc = wc_sim_add_l1_listener(g, &l);
        g->building = false;
        if (rc < 0) return wc_errf(err, "out of memory");
    }
    if (wc_mem_init(&g->mem, &g->cfg, err) < 0) return -1;
    g->sms = calloc(g->n_sm, sizeof *g->sms);
    g->live = calloc((g->n_sm + 63) / 64, sizeof *g->live);
    if (!g->sms || !g->live) return wc_errf(err, "out of memory");
    if (g->l1_ops->shared_create) {
        g->l1_shared = g->l1_ops->shared_create(&g->cfg, g->n_sm, err);
        if (!g->l1_shared) return -1;
    }
    g->building = true;
    for (unsigned i = 0; i < g->n_sm; i++)
        if (wc_sm_init(&g->sms[i], g, i, err) < 0) {
            g->building = false;
            return -1;
        }
    g->building = false;
    for (unsigned i = 0; i < g->n_sm; i++)
        if (wc_sm_init_l1(&g->sms[i], err) < 0) return -1;
    wc_sim_set_load_gate(g, g->load_gate, g->load_gate_ctx);
    return wc_ctl_build(g, err);
}

/* Blocks of kernel k that fit on one SM at once. */
static int occupancy(const wc_config *cfg, const wc_kernel *k, unsigned *blocks, wc_err *err)
{
    unsigned warps = wc_kernel_warps_per_block(k);
    unsigned threads = warps * WC_WARP_SIZE;
    if (warps == 0 || warps > WC_MAX_BLOCK_WARPS)
        return wc_errf(err, "kernel %s: a block of %ux%ux%u threads is outside 1..%u threads",
                       k->name, k->block.x, k->block.y, k->block.z,
                       WC_MAX_BLOCK_WARPS * WC_WARP_SIZE);
    unsigned n = cfg->max_blocks_per_sm;
    unsigned by_threads = cfg->max_threads_per_sm / threads;
    if (by_threads < n) n = by_threads;
    if (k->regs_per_thread) {
        unsigned by_regs = cfg->regs_per_sm / (k->regs_per_thread * threads);
        if (by_regs < n) n = by_regs;
    }
    if (k->shmem_bytes) {
        unsigned by_shmem = cfg->shmem_per_sm / k->shmem_bytes;
        if (by_shmem < n) n = by_shmem;
    }
    if (n == 0)
        return wc_errf(err,
                       "kernel %s (block %ux%ux%u, %u registers/thread, %u B shared memory) does "
                       "not fit on an SM (%u threads, %u registers, %u B shared memory)",
                       k->name, k->block.x, k->block.y, k->block.z, k->regs_per_thread,
                       k->shmem_bytes, cfg->max_threads_per_sm, cfg->regs_per_sm,
                       cfg->shmem_per_sm);
    *blocks = n;
    return 0;
}

/* Round-robin: one block per SM with room per pass.  Each pass starts one
 * SM after the last one's start; with -block_rr_carry 1 it starts after the
 * SM that took the last block, as GPGPU-Sim's issue_block2core deals them
 * (so blocks 0, 1, 2 of a kernel on two SMs go to SMs 0, 1, 0, where the
 * passes give 0, 1, 1). */
static int dispatch(wc_sim *g, uint64_t now)
{
    bool placed = true;
    while (g->next_block < g->n_blocks && placed) {
        placed = false;
        unsigned first = g->cfg.block_rr_carry ? (g->last_sm + 1) % g->n_sm : g->rr;
        for (unsigned i = 0; i < g->n_sm && g->next_block < g->n_blocks; i++) {
            wc_sm *sm = &g->sms[(first + i) % g->n_sm];
            if (!wc_sm_block_fits(sm)) continue;
            if (wc_sm_start_block(sm, g->next_block++, now) < 0) return -1;
            g->last_sm = sm->id;
            placed = true;
        }
        g->rr = (g->rr + 1) % g->n_sm;
    }
    return 0;
}

/* An L1 organisation's own counter, summed over SMs into the extras. */
static void sum_extra(void *ctx, const char *name, double v)
{
    wc_kstats *s = ctx;
    for (unsigned j = 0; j < s->n_extras; j++)
        if (strcmp(s->extras[j].name, name) == 0) {
            s->extras[j].value += v;
            return;
        }
    wc_kstats_set_extra(s, name, v);
}

/* Cumulative counters of the whole GPU, as a wc_kstats: every registered
 * counter (warpcache/statreg.h) summed over SMs, then the extras. */
static void snapshot(const wc_sim *g, wc_kstats *s)
{
    memset(s, 0, sizeof *s);
    for (unsigned i = 0; i < g->n_sm; i++) {
        const wc_sm *sm = &g->sms[i];
        wc_stat_collect(s, WC_STAT_INTO_KS, WC_STAT_SM, sm);
        wc_stat_collect(s, WC_STAT_INTO_KS, WC_STAT_L1, &sm->l1->stats);
        if (sm->l1->ops->stats) sm->l1->ops->stats(sm->l1, sum_extra, s);
        if (sm->ms->ops->stats) sm->ms->ops->stats(sm->ms, sum_extra, s);
    }
    for (unsigned i = 0; i < g->n_ctls; i++)
        if (g->ctls[i].c.ops->stats) g->ctls[i].c.ops->stats(&g->ctls[i].c, sum_extra, s);
    wc_analysis_stats_all(&g->analyses, sum_extra, s);
    wc_stat_collect(s, WC_STAT_INTO_KS, WC_STAT_MEM, &g->mem.c);
    if (g->rd) wc_rdhist_add_to(g->rd, s);
}

/* dst = after - before over the registered counters; extras by name. */
static void kstats_diff(wc_kstats *dst, const wc_kstats *after, const wc_kstats *before)
{
    wc_stat_combine(dst, WC_STAT_INTO_KS, after, before, true);
    dst->rd_on = after->rd_on;
    /* Organisation counters (extras) are cumulative too. */
    for (unsigned i = 0; i < after->n_extras; i++) {
        double v = after->extras[i].value;
        for (unsigned j = 0; j < before->n_extras; j++)
            if (strcmp(before->extras[j].name, after->extras[i].name) == 0)
                v -= before->extras[j].value;
        wc_kstats_set_extra(dst, after->extras[i].name, v);
    }
}

/* True while an SM's memory stage still holds requests.  A warp retires when
 * its stream has ended and its register writes are done, which a store never
 * delays: the last warp of a kernel can retire while the stage is still
 * presenting the requests of its last store (four 32 B requests with
 * -coalesce_bytes 32, say).  Those requests belong to the kernel. */
static bool stages_holding(const wc_sim *g)
{
    for (unsigned i = 0; i < g->n_sm; i++)
        if (g->sms[i].ms->holding) return true;
    return false;
}

/* Blocks are dispatched (next_block) before they finish (blocks_done), so
 * some block is left to dispatch or still resident iff not all have finished;
 * after the last block the kernel lasts until the memory stages are empty
 * (checked only then, so the per-iteration cost is one comparison). */
static bool kernel_busy(const wc_sim *g)
{
    return g->blocks_done < g->n_blocks || stages_holding(g);
}

/* The run loop visits only SMs that will wake at some point: an idle SM (no
 * blocks, or every warp waiting on memory) costs nothing per iteration until
 * a response or a new block gives it work. */
static inline void live_update(wc_sim *g, unsigned i)
{
    uint64_t bit = 1ull << (i & 63);
    if (g->sms[i].wake != WC_NEVER)
        g->live[i >> 6] |= bit;
    else
        g->live[i >> 6] &= ~bit;
}

static void live_update_all(wc_sim *g)
{
    for (unsigned i = 0; i < g->n_sm; i++) live_update(g, i);
}

/* Simulated cycles between two timer calls of the progress callback: a few
 * milliseconds of simulation, in which the callback's clock read is lost. */
#define PROGRESS_CYCLES 4096u

static inline uint64_t next_progress(uint64_t now)
{
    return now < UINT64_MAX - PROGRESS_CYCLES ? now + PROGRESS_CYCLES : UINT64_MAX;
}

static int run_kernel(wc_sim *g, uint64_t *clock, wc_kstats *ks, wc_err *err)
{
    const wc_kernel *k = &g->k;
    if (occupancy(&g->cfg, k, &g->max_blocks_per_sm, err) < 0) return -1;
    g->warps_per_block = wc_kernel_warps_per_block(k);
    g->n_blocks = wc_dim3_count(k->grid);
    g->next_block = g->blocks_done = 0;
    /* GPGPU-Sim keeps its round robin over the SMs (gpgpu_sim::
     * issue_block2core's m_last_cluster_issue) from one kernel to the next:
     * with -block_rr_carry 1 dispatch starts after g->last_sm, kept across
     * kernels; without it every kernel starts at SM 0. */
    g->rr = 0;
    wc_kstats before;
    snapshot(g, &before);
    uint64_t start = *clock, now = *clock;
    /* GPGPU-Sim's launch latency (gpgpu_sim::select_kernel): no block starts
     * before it has passed, and the kernel's cycles include it. */
    now += g->cfg.kernel_launch_latency + g->n_blocks * (uint64_t)g->cfg.tb_launch_latency;
    uint64_t last_done = 0, progress_step = g->n_blocks / 200 + 1;
    /* Between finished blocks (a kernel of few long blocks shows nothing for
     * many seconds otherwise) the callback is also called every
     * PROGRESS_CYCLES cycles.  That deadline and the -max_cycles stop are the
     * loop's one comparison per step (check_at, the earlier of the two), so
     * the timer costs the simulation nothing; the clock is read in the
     * callback. */
    uint64_t stop_at = UINT64_MAX;
    if (g->cfg.max_cycles && g->cfg.max_cycles <= UINT64_MAX - start)
        stop_at = start + g->cfg.max_cycles;
    uint64_t progress_at = g->progress ? next_progress(now) : UINT64_MAX;
    uint64_t check_at = stop_at < progress_at ? stop_at : progress_at;
    if (dispatch(g, now) < 0) return -1;
    wc_ctl_kernel_begin(g, now);
    live_update_all(g);
    /* Loop invariants in locals: the calls below could write any field of
     * g as far as the compiler knows, and would make it load them again. */
    const unsigned live_words = (g->n_sm + 63) / 64;
    wc_sm *const sms = g->sms;
    uint64_t *const live = g->live;
    wc_xbar *const xbar = g->mem.xbar;
    for (bool go = kernel_busy(g); go;) { /* the end is tested below, where it can change */
        if (now >= g->ctl_next) {         /* a period boundary: knobs apply from this cycle */
            wc_ctl_period(g, now);
            live_update_all(g);
        }
        if (xbar) wc_sim_run_xbar(g, now);
        while (wc_evq_top_time(&g->events) <= now) {
            wc_event ev = wc_evq_pop(&g->events);
            wc_sm_deliver(&sms[ev.sm], &ev); /* its wake is now at most ev.time: live */
            live[ev.sm >> 6] |= 1ull << (ev.sm & 63);
        }
        uint64_t next = wc_evq_top_time(&g->events);
        /* Live SMs in index order; an SM's cycle changes only its own wake,
         * so only its own bit can go (and it was set). */
        for (unsigned wi = 0; wi < live_words; wi++)
            for (uint64_t m = live[wi]; m; m &= m - 1) {
                wc_sm *sm = &sms[wi * 64 + (unsigned)__builtin_ctzll(m)];
                if (sm->wake <= now) {
                    wc_sm_cycle(sm, now);
                    if (sm->wake == WC_NEVER) live[wi] &= ~(m & -m);
                }
                if (sm->wake < next) next = sm->wake;
            }
        if (g->failed) return -1;
        /* Responses scheduled by this iteration's SM cycles (a miss just sent
         * by a stage that then went idle) count too. */
        uint64_t ev_next = wc_evq_top_time(&g->events);
        if (ev_next < next) next = ev_next;
        if (xbar) {
            /* A reply leaving the router in cycle c reaches its SM after
             * c + latency: the engine comes back by then to run it. */
            uint64_t x = wc_xbar_next(xbar);
            if (x != WC_NEVER) {
                x += g->mem.latency;
                if (x <= now) x = now + 1;
                if (x < next) next = x;
            }
        }
        if (g->blocks_done != last_done) {
            if (dispatch(g, now) < 0) return -1;
            live_update_all(g);
            for (unsigned i = 0; i < g->n_sm; i++)
                if (g->sms[i].wake < next) next = g->sms[i].wake;
            if (g->progress && g->blocks_done / progress_step != last_done / progress_step)
                g->progress(g->progress_ctx, k, g->blocks_done, g->n_blocks, now);
            last_done = g->blocks_done;
        }
        /* The kernel ends in the cycle its last warp retired, whatever the
         * memory side still carries (writes' acknowledgements in the
         * crossbar, -icnt_model islip). */
        if (!kernel_busy(g)) break;
        if (next == WC_NEVER) {
            if (kernel_busy(g))
                return wc_errf(err, "internal: kernel %s deadlocked at cycle %llu", k->name,
                               (unsigned long long)now);
            break;
        }
        if (g->ctl_next < next) next = g->ctl_next; /* never jump past a period boundary */
        now = next > now ? next : now + 1;
        if (now >= check_at) {
            if (now >= stop_at) {
                now = stop_at;       /* the clock may have jumped past it */
                g->truncated = true; /* the statistics cover the cycles simulated */
                break;
            }
            if (g->progress) { /* else progress_at is never reached */
                progress_at = next_progress(now);
                g->progress(g->progress_ctx, k, g->blocks_done, g->n_blocks, now);
                check_at = stop_at < progress_at ? stop_at : progress_at;
            }
        }
    }
    /* The kernel ends when its last warp retired; responses still arriving
     * for stores are not waited for. */
    if (g->cfg.l1_flush)
        for (unsigned i = 0; i < g->n_sm; i++)
            if (g->sms[i].l1->ops->flush) g->sms[i].l1->ops->flush(g->sms[i].l1, now);
    wc_ctl_kernel_end(g, now);
    wc_kstats after;
    snapshot(g, &after);
    kstats_diff(ks, &after, &before);
    ks->cycles = now - start;
    *clock = now;
    if (g->progress) g->progress(g->progress_ctx, k, g->n_blocks, g->n_blocks, now);
    return 0;
}

/* Gives back to the source every block still open (after an error or a
 * -max_cycles stop), so no source state is left behind. */
static void close_open_blocks(wc_sim *g)
{
    for (unsigned i = 0; g->sms && i < g->n_sm; i++)
        for (unsigned b = 0; b < g->sms[i].n_block_slots; b++) {
            wc_block *blk = &g->sms[i].blocks[b];
            if (!blk->used) continue;
            g->src->ops->close_block(g->src, blk->src_block);
            blk->used = false;
        }
}

static int run_all(wc_sim *g, wc_source *src, wc_stats *st, wc_err *err)
{
    uint64_t clock = 0;
    g->last_sm = g->n_sm - 1; /* the first kernel starts at SM 0, in GPGPU-Sim too */
    while (!g->truncated) {
        int rc = src->ops->next_kernel(src, &g->k, err);
        if (rc < 0) return -1;
        if (rc == 0) break;
        wc_kstats *ks = wc_stats_new_kernel(st);
        if (!ks) return wc_errf(err, "out of memory");
        if (run_kernel(g, &clock, ks, err) < 0) return -1;
        snprintf(ks->name, sizeof ks->name, "%s", g->k.name);
        ks->id = g->k.id;
        wc_kstats_add(&st->total, ks);
        if (g->analyses.n) { /* rates are not sums: set again on both */
            wc_analysis_derive_all(&g->analyses, ks);
            wc_analysis_derive_all(&g->analyses, &st->total);
        }
        if (g->truncated) {
            st->truncated = true;
            snprintf(st->truncated_in, sizeof st->truncated_in, "%s", g->k.name);
        }
    }
    snprintf(st->total.name, sizeof st->total.name, "total");
    return 0;
}

int wc_sim_check(wc_sim *g, wc_err *err)
{
    g->err = err;
    teardown(g);
    int rc = build(g, err);
    teardown(g);
    return rc;
}

int wc_sim_run(wc_sim *g, wc_source *src, wc_stats *st, wc_err *err)
{
    g->err = err;
    g->failed = false;
    teardown(g);
    if (build(g, err) < 0) return -1;
    g->src = src;
    g->truncated = false;
    g->st = st;
    int rc = run_all(g, src, st, err);
    close_open_blocks(g);
    g->st = NULL;
    return rc;
}

/* The kernel's length (warpcache/statreg.h): set by run_kernel, not summed
 * over SMs; registered so that sums and differences carry it. */
static const wc_stat_desc kernel_stats[] = {
    {"cycles", "cycles",
     "core cycles from the kernel's first dispatch to its last warp's "
     "retirement",
     WC_STAT_KERNEL, 0, WC_KS(cycles), WC_NONE, 1, false},
    {0},
};
const wc_stat_group wc_stats_kernel = {"engine (per kernel)", kernel_stats};
WC_PLUGIN(stats, wc_stats_kernel, 10);
