/*
 * sm.c - one streaming multiprocessor for one cycle.
 *
 * Per cycle, in pipeline-reverse order as GPGPU-Sim does: warps whose
 * instruction stream ended retire once their loads are back; the memory
 * stage (memstage.h; by default one coalesced request per cycle, retried on
 * a reservation fail) presents requests to the L1; then each warp scheduler
 * issues at most one
 * instruction from a warp whose operands are ready (scoreboard: a load blocks
 * only the instructions that read or overwrite its destination).  Memory
 * instructions need the memory stage to be free.  Barriers hold a block's
 * warps until every live warp of the block has arrived.
 *
 * The SM also computes `wake`, the next cycle at which it can do anything,
 * so the engine can skip cycles in which every SM waits.
 */
#include <stdlib.h>
#include <string.h>

#include "core/gpu.h"
#include "core/icache.h"
#include "core/mem_issue.h"
#include "core/op_latency.h"
#include "core/shmem_unit.h"
#include "core/stages/memstage_inorder.h"
#include "cache/l1_core.h"
#include "warpcache/statreg.h"

/* The SM of a stage environment: the environment is the SM's first member. */
_Static_assert(offsetof(wc_sm, env) == 0, "wc_sm.env must come first");
_Static_assert(offsetof(wc_load, h) == 0, "wc_load.h must come first");

static inline wc_sm *sm_of_env(wc_stage_env *env)
{
    return (wc_sm *)env;
}

/* ---- the L1's view of the GPU (wc_l1_env) ----------------------------- */

/* Hands a request to the memory side; `count` adds its bytes to the SM's
 * traffic counters (only controllers read them: the plain version skips it). */
static inline __attribute__((always_inline)) uint64_t
send_impl(wc_sm *sm, const wc_mem_req *req, uint64_t chunks, uint64_t now, bool count)
{
    wc_gpu *g = sm->gpu;
    double leave = (double)now > sm->port_free ? (double)now : sm->port_free;
    uint32_t up = wc_mem_up_payload(req, chunks);
    sm->port_free = leave + wc_mem_pkt_cycles(&g->mem, up);
    if (count) sm->up_bytes += (uint64_t)wc_mem_pkt_flits(&g->mem, up) * g->mem.flit;
    uint64_t leave_cycle = (uint64_t)leave;
    uint64_t back = wc_mem_access(&g->mem, sm->id, req, chunks, leave_cycle);
    if (back) {
        if (count)
            sm->down_bytes +=
                (uint64_t)wc_mem_pkt_flits(&g->mem, wc_chunk_bytes(chunks, req->chunk_log2)) *
                g->mem.flit;
        /* One initializer, one push: the event stays in registers and is
         * written once into the heap (a store-forwarding stall otherwise). */
        bool bypass = (req->flags & WC_REQ_BYPASS) != 0;
        wc_event ev = {.time = back,
                       .addr = req->addr,
                       .arg = bypass ? req->tag : (uint32_t)chunks,
                       .sm = (uint16_t)sm->id,
                       .kind = bypass ? WC_EV_BYPASS : WC_EV_FILL};
        if (back == WC_MEM_DEFERRED)
            wc_sim_defer_response(g, g->mem.rec, &ev, chunks >> 32);
        else
            wc_sim_push_response(g, ev, chunks >> 32);
    }
    return (uint64_t)sm->port_free;
}

static uint64_t sm_send(void *ctx, const wc_mem_req *req, uint64_t chunks, uint64_t now)
{
    return send_impl(ctx, req, chunks, now, false);
}

static uint64_t sm_send_counted(void *ctx, const wc_mem_req *req, uint64_t chunks, uint64_t now)
{
    return send_impl(ctx, req, chunks, now, true);
}

/* Sets a warp's issue gate; a warp gated WC_NEVER is parked (out of its
 * scheduler's scans) until something wakes it. */
static inline void set_gate(wc_sm *sm, unsigned slot, uint64_t t)
{
    wc_sched *s = sm->slot_sched[slot];
    if ((sm->gate[slot] == WC_NEVER) != (t == WC_NEVER)) wc_sched_set_open(s, slot, t != WC_NEVER);
    sm->gate[slot] = t;
}

/* Warp `slot` may be able to issue from cycle t on: lower its gate and its
 * scheduler's, so the scheduler looks at it again then. */
static inline void warp_wake(wc_sm *sm, unsigned slot, uint64_t t)
{
    /* -ifetch 1: a warp with an empty instruction buffer waits for the fetch
     * unit whatever else it waited for; frontend() wakes it once decoded. */
    if (sm->ifetch && sm->warps[slot].need_fetch) return;
    wc_sched *s = sm->slot_sched[slot];
    if (t < sm->gate[slot]) set_gate(sm, slot, t);
    if (t < s->wake) s->wake = t;
    if (t < sm->sched_low) sm->sched_low = t;
    if (t < sm->wake) sm->wake = t;
}

/* -exit_store_acks 1: GPGPU-Sim lets a warp exit only once it is
 * hardware_done, stores_done() included: every store request it sent below
 * has been acknowledged (shd_warp_t::m_stores_outstanding, decremented by
 * shader_core_ctx::store_ack when the L2's WRITE_ACK comes back).  The
 * later of `last` and that; WC_NEVER while a store is still in the memory
 * stage (store_taken wakes the SM once it has gone). */
static inline uint64_t stores_acked_at(const wc_warp *w, uint64_t last)
{
    if (w->stores_out) return WC_NEVER;
    return w->acked_at > last ? w->acked_at : last;
}

/* The cycle draining warp w can retire from: its last register write, and
 * with -exit_store_acks 1 its last store's acknowledgement (WC_NEVER while
 * one is outstanding or a load has not come back). */
static inline uint64_t drain_last(const wc_sm *sm, const wc_warp *w)
{
    uint64_t last = 0;
    for (unsigned p = 0; p < w->npend; p++)
        if (w->pend[p].ready > last) last = w->pend[p].ready;
    if (sm->store_acks) last = stores_acked_at(w, last);
    return last;
}

/* ---- drain_due (gpu.h) ---------------------------------------------------
 * The earliest drain_last of the draining warps, as of the last pass over
 * them, or 0 (look at all of them).  A warp's drain_last changes only when
 * it starts draining (from "not a member"), when one of its loads completes
 * (a pending register WC_NEVER gets its ready time, so its time was
 * WC_NEVER before) and when one of its stores is taken (WC_NEVER before
 * while stores were outstanding).  Each of those lowers the warp's time
 * from WC_NEVER, so the minimum becomes the smaller of the two; anything
 * else sets 0.  drain_due is never later than any warp's time, so a call
 * for a warp whose time did not change changes nothing.  A cycle before
 * drain_due would retire no warp and find drain_due as the earliest time,
 * so it skips the pass (on micro/stream the warps waiting for their stores'
 * acknowledgements were walked every SM cycle).  test_drain_due checks the
 * invariant before every cycle. */
static __attribute__((noinline)) void drain_lowered(wc_sm *sm, const wc_warp *w)
{
    uint64_t t = drain_last(sm, w);
    if (t < sm->drain_due) sm->drain_due = t;
}

void wc_sm_load_complete(wc_sm *sm, uint32_t id)
{
    wc_load *ld = &sm->loads[id];
    wc_warp *w = &sm->warps[ld->warp];
    for (unsigned r = 0; r < ld->nregs; r++)
        for (unsigned i = 0; i < w->npend; i++)
            if (w->pend[i].reg == ld->regs[r] && w->pend[i].ready == WC_NEVER) {
                w->pend[i].ready = ld->ready;
                break;
            }
    warp_wake(sm, ld->warp, ld->ready);               /* recheck it when the data is there */
    if (w->state == W_DRAINING) drain_lowered(sm, w); /* it may have waited for that register */
    wc_sched *s = sm->slot_sched[ld->warp];
    if (s->notify & WC_SCHED_NOTIFY_LOAD) s->ops->on_load_done(s, ld->warp);
    ld->next_free = sm->free_load;
    sm->free_load = id;
    w->loads_out--;
}

void wc_sm_respond(void *ctx, uint32_t cookie, uint64_t t)
{
    wc_sm *sm = ctx;
    if (cookie == WC_NO_REC || cookie >= sm->n_loads) return;
    wc_load *ld = &sm->loads[cookie];
    if (t > ld->ready) ld->ready = t;
    if (--ld->h.outstanding == 0 && ld->h.all_sent) wc_sm_load_complete(sm, cookie);
}

static void fanout_evict(void *ctx, int sm, const wc_line *line, uint64_t addr, uint64_t now)
{
    wc_gpu *g = ctx;
    const wc_mem_req *by = g->sms[sm].cur_req;
    for (unsigned i = 0; i < g->n_listeners; i++) {
        const wc_l1_listener *l = &g->listeners[i];
        if (l->on_evict) l->on_evict(l->ctx, sm, line, addr, now);
        if (l->on_evict_by) l->on_evict_by(l->ctx, sm, line, addr, by, now);
    }
}

static void fanout_fill(void *ctx, int sm, uint64_t addr, uint64_t chunks, uint64_t now)
{
    wc_gpu *g = ctx;
    for (unsigned i = 0; i < g->n_listeners; i++)
        if (g->listeners[i].on_fill)
            g->listeners[i].on_fill(g->listeners[i].ctx, sm, addr, chunks, now);
}

static void fanout_bypass(void *ctx, int sm, const wc_mem_req *req, uint64_t now)
{
    wc_gpu *g = ctx;
    for (unsigned i = 0; i < g->n_listeners; i++)
        if (g->listeners[i].on_bypass) g->listeners[i].on_bypass(g->listeners[i].ctx, sm, req, now);
}

void wc_sm_fanout_access(wc_gpu *g, int sm, const wc_mem_req *req, wc_outcome o, wc_fail_reason why,
                         uint64_t now)
{
    for (unsigned i = 0; i < g->n_listeners; i++)
        if (g->listeners[i].on_access)
            g->listeners[i].on_access(g->listeners[i].ctx, sm, req, o, why, now);
}

/* An organisation's timeline event (wc_l1_env.record). */
static void sm_record(void *ctx, const char *key, double value, uint64_t now)
{
    wc_sm *sm = ctx;
    wc_sim_record(sm->gpu, now, (int)sm->id, key, value);
}

/* ---- setup ------------------------------------------------------------ */

static bool warp_ready(void *ctx, unsigned slot);
static bool warp_ready_gated(void *ctx, unsigned slot);
static bool warp_ready_capped(void *ctx, unsigned slot);
static bool warp_ready_gated_capped(void *ctx, unsigned slot);
static bool warp_ready_shmem(void *ctx, unsigned slot);

/* The readiness test the schedulers use: with the load gate only when one is
 * installed and the per-warp load cap only when it is set, so SMs without
 * them do not test for them per warp. */

static void pick_ready(wc_sm *sm)
{
    if (sm->shmem.on)
        sm->ready = warp_ready_shmem; /* its own copy: the others do not test for it */
    else if (sm->load_gate)
        sm->ready = sm->loads_cap ? warp_ready_gated_capped : warp_ready_gated;
    else
        sm->ready = sm->loads_cap ? warp_ready_capped : warp_ready;
}

void wc_sm_set_load_gate(wc_sm *sm, wc_load_gate_fn fn, void *ctx)
{
    sm->load_gate = fn;
    sm->load_gate_ctx = ctx;
    pick_ready(sm);
}

/* ---- the stage's environment and the plug-ins' view (stage.h, smview.h) - */

static wc_outcome env_present_hooked(wc_stage_env *env, const wc_mem_req *req, uint32_t load,
                                     uint64_t now, wc_fail_reason *why)
{
    return wc_sm_present_hooked(sm_of_env(env), req, load, now, why);
}

/* -exit_store_acks 1 with nothing else hooked (the default configuration):
 * only a store needs the full version (store_taken after the L1 took it).
 * With no knob flags, no access or eviction-by listeners and no on_miss,
 * wc_sm_present_hooked does for any other request exactly what is left
 * here: count the load out before the access (a hit answers at once), undo
 * that on a reservation fail, answer a hit after the hit latency.  cur_req
 * is read only by on_evict_by listeners, which this version excludes. */
static wc_outcome env_present_acks(wc_stage_env *env, const wc_mem_req *req, uint32_t load,
                                   uint64_t now, wc_fail_reason *why)
{
    wc_sm *sm = sm_of_env(env);
    if ((req->flags & (WC_REQ_WRITE | WC_REQ_WRITEBACK)) == WC_REQ_WRITE)
        return wc_sm_present_hooked(sm, req, load, now, why);
    wc_load *ld = load != WC_NO_REC ? &sm->loads[load] : NULL;
    if (ld) ld->h.outstanding++;
    wc_outcome o = sm->l1->ops->access(sm->l1, req, now, why);
    if (o == WC_RESERVATION_FAIL) {
        if (ld) ld->h.outstanding--;
    } else if (ld && o == WC_HIT) {
        wc_sm_respond(sm, load, now + sm->env.hit_latency);
    }
    return o;
}

static void env_respond(wc_stage_env *env, uint32_t load, uint64_t t)
{
    wc_sm_respond(sm_of_env(env), load, t);
}

static void env_load_complete(wc_stage_env *env, uint32_t load)
{
    wc_sm_load_complete(sm_of_env(env), load);
}

static void env_send_around(wc_stage_env *env, const wc_mem_req *req, uint32_t load, uint64_t now)
{
    wc_sm_send_around(sm_of_env(env), req, load, now);
}

static void env_stage_freed(wc_stage_env *env, uint64_t now)
{
    wc_sm_stage_freed(sm_of_env(env), now);
}

/* A read the stage sent around the L1 by itself counts as a bypassed access
 * of the L1 (as the L1 counts its own bypasses). */
static void env_count_bypassed(wc_stage_env *env, const wc_mem_req *req)
{
    wc_l1_stats *st = &sm_of_env(env)->l1->stats;
    (void)req; /* a read: stages send nothing else around */
    st->accesses++;
    st->reads++;
    st->outcome[WC_BYPASSED]++;
}

/* wc_stage_fail_holds_until (stage.h).  A stage may sleep over a held fail
 * only where nothing sees its attempts one by one: not with the full
 * present (access listeners see each attempt, knob flags rewrite the
 * request), not with controllers (their period counters read the fail
 * counts at boundaries the stage may sleep across, and their knobs and ctl
 * change the L1 without a fill), not under -max_cycles (the statistics at
 * the stop would miss the attempts slept through), and only on the L1
 * core's own access (its memo says how long the fail holds; an
 * organisation wrapping access could do more per attempt).  Elsewhere
 * wc_sm_update_hooks leaves both calls NULL (the stage retries as before). */
static uint64_t env_fail_holds_until(wc_stage_env *env, uint64_t now)
{
    return wc_l1_core_fail_holds_until(env->l1, now);
}

/* wc_stage_fail_ahead (stage.h), under the same conditions.  The request
 * is presented as the stage would present it: present_acks passes a read
 * unchanged (a store is never decided ahead). */
static uint64_t env_fail_ahead(wc_stage_env *env, const wc_mem_req *req, uint64_t at,
                               wc_fail_reason *why)
{
    return wc_l1_core_fail_ahead(env->l1, req, at, why);
}

static void init_env(wc_sm *sm, wc_gpu *g)
{
    wc_stage_env *e = &sm->env;
    e->cfg = &g->cfg;
    e->sim = g;
    e->hit_latency = g->cfg.l1_latency;
    e->loads = (unsigned char *)sm->loads;
    e->load_stride = sizeof *sm->loads;
    e->stall_by = sm->stall_by;
    e->present_hooked = env_present_hooked;
    e->respond = env_respond;
    e->load_complete = env_load_complete;
    e->send_around = env_send_around;
    e->stage_freed = env_stage_freed;
    e->count_bypassed = env_count_bypassed;
}

/* Where each value of the view lives (smview.h): read in place, so the view
 * is never written again.  The _Generic has no default: a field whose type
 * is no longer the one smview.h promises does not compile. */
#define VIEW_FIELD(arr, type, member)                                                              \
    _Generic((arr)[0].member, type                                                                 \
             : (wc_view_field){(const unsigned char *)&(arr)[0].member, sizeof(arr)[0]})

static void init_view(wc_sm *sm, wc_smview *v)
{
    memset(v, 0, sizeof *v);
    v->id = sm->id;
    v->n_slots = sm->n_slots;
    v->n_block_slots = sm->n_block_slots;
    v->n_sched = sm->n_sched;
    v->now = &sm->now;
    v->warp_insts = &sm->warp_insts;
    v->kernel_id = &sm->kernel_id;
    v->warp_block = VIEW_FIELD(sm->warps, uint32_t, block);
    v->warp_state = VIEW_FIELD(sm->warps, uint8_t, state);
    v->warp_at_barrier = VIEW_FIELD(sm->warps, uint8_t, at_barrier);
    v->warp_op = VIEW_FIELD(sm->warps, uint8_t, inst.op);
    v->block_id = VIEW_FIELD(sm->blocks, uint64_t, id);
    v->sched_n = VIEW_FIELD(sm->sched, unsigned, n);
    v->sched_warps = VIEW_FIELD(sm->sched, uint16_t *, warps);
    sm->env.view = v;
}

int wc_sm_init(wc_sm *sm, wc_gpu *g, unsigned id, wc_err *err)
{
    const wc_config *cfg = &g->cfg;
    memset(sm, 0, sizeof *sm);
    sm->id = id;
    sm->gpu = g;
    sm->n_slots = cfg->max_threads_per_sm / WC_WARP_SIZE;
    sm->n_block_slots = cfg->max_blocks_per_sm;
    if (sm->n_slots == 0 || sm->n_slots > WC_MAX_SLOTS)
        return wc_errf(err,
                       "%s: option -gpgpu_shader_core_pipeline: %u threads per SM is outside "
                       "1..%u warps of 32",
                       wc_cfg_where(cfg), cfg->max_threads_per_sm, WC_MAX_SLOTS);
    sm->n_sched = cfg->n_sched_per_sm;
    sm->warps = calloc(sm->n_slots, sizeof *sm->warps);
    sm->gate = malloc(sm->n_slots * sizeof *sm->gate);
    sm->needs_mem = calloc(sm->n_slots, 1);
    sm->blocks = calloc(sm->n_block_slots, sizeof *sm->blocks);
    sm->sched = calloc(sm->n_sched, sizeof *sm->sched);
    sm->slot_sched = calloc(sm->n_slots, sizeof *sm->slot_sched);
    sm->draining = calloc(sm->n_slots, sizeof *sm->draining);
    sm->n_loads = sm->n_slots * WC_MAX_PENDING;
    sm->loads = calloc(sm->n_loads, sizeof *sm->loads);
    if (!sm->warps || !sm->gate || !sm->needs_mem || !sm->blocks || !sm->sched || !sm->slot_sched ||
        !sm->draining || !sm->loads)
        return wc_errf(err, "out of memory (SM %u)", id);
    for (unsigned i = 0; i < sm->n_slots; i++) {
        sm->gate[i] = WC_NEVER;
        sm->slot_sched[i] = &sm->sched[i % sm->n_sched];
    }
    for (uint32_t i = 0; i < sm->n_loads; i++) sm->loads[i].next_free = i + 1;
    sm->loads[sm->n_loads - 1].next_free = WC_NO_REC;
    for (unsigned s = 0; s < sm->n_sched; s++)
        if (wc_sched_init(&sm->sched[s], g->sched_ops, sm->n_slots, &g->sched_params, g, id, err) <
            0) {
            char why[sizeof err->msg];
            snprintf(why, sizeof why, "%s", err->msg);
            return wc_errf(err, "%s: option -gpgpu_scheduler: %s", wc_cfg_where(cfg), why);
        }
    init_env(sm, g);
    init_view(sm, &g->views[id]);
    sm->ms = g->mstage_ops->create(&sm->env, &g->mstage_params, err);
    if (!sm->ms) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err->msg);
        return wc_errf(err, "%s: option -mem_stage: %s", wc_cfg_where(cfg), why);
    }
    sm->ms->ops = g->mstage_ops;
    sm->ms->env = &sm->env;
    sm->ms->wake_on_fill = false; /* set only by a stage sleeping over a fail */
    sm->inorder = g->mstage_ops == &wc_mstage_inorder;
    if (wc_mi_init(sm, g->mem_issue_ahead, err) < 0) return -1;
    sm->ifetch = cfg->ifetch != 0 || cfg->icache != 0; /* the cache is the fetch unit's */
    if (wc_sm_icache_init(sm, cfg, err) < 0) return -1;
    sm->store_acks = cfg->exit_store_acks != 0;
    sm->sched_rotate = cfg->sched_rotate != 0 && sm->n_sched > 1;
    sm->sched_pow2 = wc_is_pow2(sm->n_sched);
    sm->decoding = -1;
    sm->fetch_last = sm->n_slots - 1; /* the first fetch looks at slot 0 first */
    sm->loads_cap = cfg->ldst_loads_per_warp;
    wc_op_latency_table(cfg, sm->op_lat);
    wc_shmem_init(&sm->shmem, cfg);
    pick_ready(sm);
    for (unsigned s = 0; s < sm->n_sched; s++) {
        sm->sched[s].limit = cfg->max_warp_limit;
        sm->sched[s].gate = sm->gate;
        sm->sched[s].needs_mem = sm->needs_mem;
        sm->sched[s].mem_busy = sm->mi_cap ? &sm->mem_full : &sm->ms->full;
        sm->sched[s].low = &sm->sched_low;
    }
    sm->sched_low = 0; /* due: the first cycle looks at the schedulers */
    sm->wake = WC_NEVER;
    return 0;
}

/* The L1 comes last, once every part of every SM has subscribed its
 * listeners: the fan-out it is given calls them all. */
int wc_sm_init_l1(wc_sm *sm, wc_err *err)
{
    wc_gpu *g = sm->gpu;
    wc_l1_env env = {.ctx = sm,
                     .sm = (int)sm->id,
                     .send = sm_send,
                     .respond = wc_sm_respond,
                     .record = sm_record,
                     .shared = g->l1_shared,
                     .data = g->l1_data};
    if (g->n_ctls) env.send = sm_send_counted; /* period counters include traffic */
    if (g->n_listeners) {
        g->fanout.ctx = g;
        g->fanout.on_evict = fanout_evict;
        g->fanout.on_fill = fanout_fill;
        g->fanout.on_bypass = fanout_bypass;
        env.listener = &g->fanout;
    }
    sm->l1 = g->l1_ops->create(&g->cfg, &env, err);
    sm->env.l1 = sm->l1;
    wc_sm_update_hooks(sm);
    return sm->l1 ? 0 : -1;
}

void wc_sm_free(wc_sm *sm)
{
    if (sm->l1) sm->l1->ops->destroy(sm->l1);
    if (sm->ms) sm->ms->ops->destroy(sm->ms);
    for (unsigned s = 0; sm->sched && s < sm->n_sched; s++) wc_sched_free(&sm->sched[s]);
    free(sm->sched);
    free(sm->slot_sched);
    free(sm->warps);
    free(sm->gate);
    free(sm->needs_mem);
    free(sm->blocks);
    free(sm->draining);
    free(sm->loads);
    wc_mi_free(sm);
    wc_sm_icache_free(sm);
    memset(sm, 0, sizeof *sm);
}

/* ---- instruction stream --------------------------------------------- */

/* Pulls the warp's next instruction; an ended stream starts draining. */
static void fetch(wc_sm *sm, unsigned slot)
{
    wc_gpu *g = sm->gpu;
    wc_warp *w = &sm->warps[slot];
    wc_block *b = &sm->blocks[w->block];
    int rc = g->src->ops->next_inst(g->src, b->src_block, w->wib, &w->inst, g->err);
    if (rc < 0) {
        g->failed = true;
        rc = 0;
    }
    sm->needs_mem[slot] = rc > 0 && wc_op_is_gmem(w->inst.op);
    wc_sched_set_mem(sm->slot_sched[slot], slot, sm->needs_mem[slot]);
    /* EXIT issues like any instruction (a predicated-off EXIT, mask 0, is common
     * in traces); the warp ends when its stream does. */
    if (rc == 0) {
        w->state = W_DRAINING;
        set_gate(sm, slot, WC_NEVER);
        wc_sched_remove(sm->slot_sched[slot], slot);
        sm->draining[sm->n_draining++] = (uint16_t)slot;
        drain_lowered(sm, w); /* a new member: as if its time came down from WC_NEVER */
    }
}

/* ---- the front end (-ifetch 1) -----------------------------------------
 *
 * GPGPU-Sim's fetch and decode stages (shader_core_ctx::fetch and decode in
 * src/gpgpu-sim/shader.cc): a warp issues only from its two-entry
 * instruction buffer; once both entries are issued the buffer is empty, and
 * the SM's fetch unit refills one warp's buffer per cycle, taking the next
 * warp after the last one fetched (round robin over the warp slots) whose
 * buffer is empty.  A warp fetched in cycle t is decoded in t + 1 (after
 * that cycle's issue: GPGPU-Sim runs issue, decode, fetch in this order) and
 * may issue from t + 2.  The instruction cache always hits here, unless
 * -icache 1 (icache.c) looks the fetch up in GPGPU-Sim's L1I. */

/* The warp's buffer ran empty: it waits for the fetch unit. */
static void buffer_empty(wc_sm *sm, unsigned slot)
{
    wc_warp *w = &sm->warps[slot];
    if (w->state != W_ACTIVE) return; /* its stream ended: nothing to fetch */
    w->ibuf = 0;
    wc_sm_set_need_fetch(sm, slot, 1);
    sm->n_need_fetch++;
    set_gate(sm, slot, WC_NEVER);
}

/* One cycle of decode, then fetch; true when the front end has work in the
 * next cycle. */
static bool frontend(wc_sm *sm, uint64_t now)
{
    if (sm->decoding >= 0) {
        unsigned slot = (unsigned)sm->decoding;
        wc_warp *w = &sm->warps[slot];
        sm->decoding = -1;
        wc_sm_set_need_fetch(sm, slot, 0);
        w->ibuf = 2;
        if (w->state == W_ACTIVE && !w->at_barrier) warp_wake(sm, slot, now + 1);
    }
    if (sm->icache) {
        /* Most cycles of a memory-bound SM have no warp to hand out, none
         * waiting for a lookup and no miss to send: a fetch would change
         * nothing, so it is not called. */
        bool work = sm->n_need_fetch || wc_icache_busy(sm->icache);
        if (work) wc_sm_icache_fetch(sm, now);
        return sm->decoding >= 0 || sm->n_need_fetch || wc_icache_busy(sm->icache);
    }
    if (!sm->n_need_fetch) return false;
    int slot = wc_sm_next_fetch(sm); /* need_fetch is 0 or 1 without -icache */
    if (slot < 0) return false;
    sm->decoding = slot;
    sm->fetch_last = (unsigned)slot;
    sm->n_need_fetch--;
    return true;
}

bool wc_sm_block_fits(const wc_sm *sm)
{
    return sm->used_blocks < sm->gpu->max_blocks_per_sm;
}

/* Takes n free warp slots, lowest first.  They need not be contiguous: the
 * retired warps of a block still running free their slots one by one. */
static bool take_slots(const wc_sm *sm, unsigned n, uint16_t *slot)
{
    unsigned k = 0;
    for (unsigned i = 0; i < sm->n_slots && k < n; i++)
        if (sm->warps[i].state == W_FREE) slot[k++] = (uint16_t)i;
    return k == n;
}

int wc_sm_start_block(wc_sm *sm, uint64_t block_id, uint64_t now)
{
    wc_gpu *g = sm->gpu;
    unsigned bs = 0;
    while (bs < sm->n_block_slots && sm->blocks[bs].used) bs++;
    uint16_t slot[WC_MAX_BLOCK_WARPS];
    if (bs == sm->n_block_slots || !take_slots(sm, g->warps_per_block, slot))
        return wc_errf(g->err, "internal: no room on SM %u", sm->id);
    wc_block *b = &sm->blocks[bs];
    memset(b, 0, sizeof *b);
    if (g->src->ops->open_block(g->src, block_id, &b->src_block, g->err) < 0) return -1;
    b->used = true;
    b->id = block_id;
    sm->kernel_id = g->k.id;
    b->nwarps = b->live = g->warps_per_block;
    memcpy(b->slot, slot, b->nwarps * sizeof *slot);
    sm->used_blocks++;
    for (unsigned i = 0; i < b->nwarps; i++) {
        unsigned s = slot[i];
        wc_warp *w = &sm->warps[s];
        w->state = W_ACTIVE;
        w->block = bs;
        w->wib = i;
        w->at_barrier = 0;
        w->npend = 0;
        w->ibuf = 0;
        wc_sm_set_need_fetch(sm, s, 0);
        w->loads_out = 0;
        w->stores_out = 0;
        w->acked_at = 0;
        sm->gate[s] = WC_NEVER;
        wc_sched_add(sm->slot_sched[s], s);
        warp_wake(sm, s, now);
        fetch(sm, s);
        if (sm->ifetch) buffer_empty(sm, s); /* a new warp's buffer starts empty */
    }
    if (sm->wake > now) sm->wake = now;
    return 0;
}

/* ---- barriers and retirement ------------------------------------------ */

/* Releases the block's warps once every live warp has arrived (they issue
 * from the next cycle on). */
static void barrier_check(wc_sm *sm, wc_block *b)
{
    if (b->at_barrier == 0 || b->at_barrier < b->live) return;
    for (unsigned i = 0; i < b->nwarps; i++) {
        wc_warp *w = &sm->warps[b->slot[i]];
        if (w->at_barrier) {
            w->at_barrier = 0;
            if (w->state == W_ACTIVE)
                wc_sched_set_bar(sm->slot_sched[b->slot[i]], b->slot[i], false);
            warp_wake(sm, b->slot[i], sm->now + 1);
        }
    }
    b->at_barrier = 0;
}

static void block_finish(wc_sm *sm, wc_block *b)
{
    wc_gpu *g = sm->gpu;
    g->src->ops->close_block(g->src, b->src_block);
    b->used = false;
    sm->used_blocks--;
    g->blocks_done++;
}

static void warp_retire(wc_sm *sm, unsigned slot)
{
    wc_warp *w = &sm->warps[slot];
    wc_block *b = &sm->blocks[w->block];
    w->state = W_FREE;
    if (w->at_barrier) b->at_barrier--;
    w->at_barrier = 0;
    b->live--;
    if (b->live == 0) {
        block_finish(sm, b);
        return;
    }
    /* Leaving counts as arriving at the block's barriers: a reordering
     * stage keeps what the others issue after a release this causes behind
     * this warp's requests (its stores may still be in the stage). */
    if (sm->ms->ops->barrier) sm->ms->ops->barrier(sm->ms, slot, sm->now);
    barrier_check(sm, b);
}

/* Retires draining warps whose register writes are all done (a cycle at
 * or after drain_due; wc_sm_cycle skips it before).  Out of line: it runs
 * in few cycles, and inlined into the cycle its loop's registers cost the
 * cycle's common path more than the call. */
static __attribute__((noinline)) void retire_drained(wc_sm *sm, uint64_t now)
{
    /* a warp changed by a retire's side effects lowers this or sets 0 */
    sm->drain_due = WC_NEVER;
    uint64_t low = WC_NEVER;
    for (unsigned i = 0; i < sm->n_draining;) {
        unsigned slot = sm->draining[i];
        uint64_t last = drain_last(sm, &sm->warps[slot]);
        if (last <= now) {
            warp_retire(sm, slot);
            sm->draining[i] = sm->draining[--sm->n_draining];
            continue;
        }
        if (last < low) low = last;
        i++;
    }
    if (low < sm->drain_wake) sm->drain_wake = low;
    if (low < sm->drain_due) sm->drain_due = low;
}

/* ---- scoreboard -------------------------------------------------------- */

/* Drops completed entries; returns the entry blocking `reg`, or NULL. */
static inline const wc_pending *pending_on(wc_warp *w, uint16_t reg, uint64_t now)
{
    for (unsigned i = 0; i < w->npend; i++)
        if (w->pend[i].reg == reg && w->pend[i].ready > now) return &w->pend[i];
    return NULL;
}

static inline void pending_compact(wc_warp *w, uint64_t now)
{
    unsigned k = 0;
    for (unsigned i = 0; i < w->npend; i++)
        if (w->pend[i].ready > now) w->pend[k++] = w->pend[i];
    w->npend = (uint8_t)k;
}

/* Closes the gate of a warp that cannot issue until t (WC_NEVER: until woken). */
static inline void gate_until(wc_sm *sm, unsigned slot, uint64_t t)
{
    wc_sched *s = sm->slot_sched[slot];
    set_gate(sm, slot, t);
    if (t < s->scan_min) s->scan_min = t;
}

/* -ldst_loads_per_warp: the warp's next instruction is a load (it will get a
 * load record, issue_gmem) and the warp has the cap's number in flight. */
static inline bool loads_capped(const wc_sm *sm, unsigned slot, const wc_warp *w)
{
    const wc_winst *in = &w->inst;
    return sm->needs_mem[slot] && in->ndst && !wc_op_is_store(in->op) &&
           w->loads_out >= sm->loads_cap;
}

static inline __attribute__((always_inline)) bool warp_ready_impl(wc_sm *sm, unsigned slot,
                                                                  bool gated, bool capped)
{
    uint64_t now = sm->now;
    wc_warp *w = &sm->warps[slot];
    if (w->state != W_ACTIVE || w->at_barrier) return false;
    const wc_winst *in = &w->inst;
    if (w->npend) {
        pending_compact(w, now);
        /* A blocked warp is not looked at again before its operand can be
         * ready (WC_NEVER while a load is out: load_complete lowers it). */
        for (unsigned i = 0; i < in->nsrc; i++) {
            const wc_pending *p = pending_on(w, in->src[i], now);
            if (p) {
                gate_until(sm, slot, p->ready);
                return false;
            }
        }
        for (unsigned i = 0; i < in->ndst; i++) {
            const wc_pending *p = pending_on(w, in->dst[i], now);
            if (p) {
                gate_until(sm, slot, p->ready);
                return false;
            }
        }
        if (w->npend + in->ndst > WC_MAX_PENDING) {
            uint64_t first = WC_NEVER;
            for (unsigned i = 0; i < w->npend; i++)
                if (w->pend[i].ready < first) first = w->pend[i].ready;
            gate_until(sm, slot, first);
            return false;
        }
    }
    if (capped && loads_capped(sm, slot, w)) { /* wc_sm_load_complete wakes it */
        gate_until(sm, slot, WC_NEVER);
        return false;
    }
    if (gated && sm->needs_mem[slot] &&
        !sm->load_gate(sm->load_gate_ctx, sm->id, slot)) { /* throttled: ask again next cycle */
        gate_until(sm, slot, now + 1);
        return false;
    }
    return true;
}

/* Four copies, so an SM without a load gate or a load cap does not test for
 * them per warp. */
static bool warp_ready(void *ctx, unsigned slot)
{
    return warp_ready_impl(ctx, slot, false, false);
}

static bool warp_ready_gated(void *ctx, unsigned slot)
{
    return warp_ready_impl(ctx, slot, true, false);
}

static bool warp_ready_capped(void *ctx, unsigned slot)
{
    return warp_ready_impl(ctx, slot, false, true);
}

static bool warp_ready_gated_capped(void *ctx, unsigned slot)
{
    return warp_ready_impl(ctx, slot, true, true);
}

/* -shmem_issue_limit, -shmem_bank_conflicts: a shared-memory instruction
 * also waits for the LD/ST unit (shmem_unit.c). */
static bool warp_ready_shmem(void *ctx, unsigned slot)
{
    wc_sm *sm = ctx;
    if (!warp_ready_impl(sm, slot, sm->load_gate != NULL, sm->loads_cap != 0)) return false;
    if (!wc_shmem_waits(&sm->shmem, sm->warps[slot].inst.op, sm->now)) return true;
    gate_until(sm, slot, sm->shmem.free_at);
    return false;
}

static inline void pend_add(wc_warp *w, uint16_t reg, uint64_t ready)
{
    w->pend[w->npend].reg = reg;
    w->pend[w->npend].ready = ready;
    w->npend++;
}

/* ---- issue ------------------------------------------------------------- */

static uint32_t load_alloc(wc_sm *sm, unsigned slot, const wc_winst *in)
{
    uint32_t id = sm->free_load;
    if (id == WC_NO_REC) return WC_NO_REC; /* cannot happen: bounded by the scoreboard */
    wc_load *ld = &sm->loads[id];
    sm->free_load = ld->next_free;
    ld->ready = 0;
    ld->h.outstanding = 0;
    ld->h.all_sent = 0;
    ld->warp = (uint16_t)slot;
    ld->nregs = in->ndst;
    for (unsigned i = 0; i < in->ndst; i++) ld->regs[i] = in->dst[i];
    return id;
}

static void issue_gmem(wc_sm *sm, unsigned slot, wc_warp *w, uint64_t now)
{
    const wc_winst *in = &w->inst;
    wc_block *b = &sm->blocks[w->block];
    /* with instructions issued ahead, straight into their queue's tail */
    wc_mem_req *reqs = sm->mi_cap ? wc_mi_tail(sm) : sm->reqs;
    unsigned n = wc_coalesce(in, &sm->l1->xfer, reqs);
    uint8_t flags = 0;
    if (wc_op_is_store(in->op)) flags |= WC_REQ_WRITE;
    if (in->op == WC_OP_ATOM) flags |= WC_REQ_ATOMIC | WC_REQ_NO_ALLOC;
    if (in->flags & WC_INST_NO_L1_ALLOC) flags |= WC_REQ_NO_ALLOC;
    if (in->op == WC_OP_LDL || in->op == WC_OP_STL) flags |= WC_REQ_LOCAL;
    uint32_t ld = WC_NO_REC;
    if (in->ndst && !(flags & WC_REQ_WRITE)) {
        ld = load_alloc(sm, slot, in);
        w->loads_out++; /* -ldst_loads_per_warp; one add per load is cheaper than a test */
        for (unsigned i = 0; i < in->ndst; i++) pend_add(w, in->dst[i], WC_NEVER);
    }
    uint32_t origin = sm->kernel_id << 8 | (w->wib & 0xffu); /* wc_req_kernel, wc_req_wib */
    for (unsigned i = 0; i < n; i++) {
        wc_mem_req *r = &reqs[i];
        r->pc = in->pc;
        r->block = (uint32_t)b->id;
        r->tag = ld;
        r->sm = (uint16_t)sm->id;
        r->warp = (uint16_t)slot;
        r->op = in->op;
        r->flags = flags;
        r->origin = origin;
    }
    sm->gmem_reqs += n;
    if ((flags & WC_REQ_WRITE) && sm->store_acks) w->stores_out += n; /* store_taken */
    if (n == 0) {
        if (ld != WC_NO_REC) {
            sm->loads[ld].h.all_sent = 1;
            sm->loads[ld].ready = now + 1;
            wc_sm_load_complete(sm, ld);
        }
        return;
    }
    if (sm->mi_cap)
        wc_mi_push(sm, slot, n, ld, now);
    else if (sm->inorder)
        wc_inorder_accept(sm->ms, slot, sm->reqs, n, ld, now);
    else
        sm->ms->ops->accept(sm->ms, slot, sm->reqs, n, ld, now);
}

static void issue(wc_sm *sm, unsigned slot, uint64_t now)
{
    wc_warp *w = &sm->warps[slot];
    const wc_winst *in = &w->inst;
    sm->warp_insts++;
    sm->thread_insts += wc_popcount32(in->mask);
    sm->op_count[in->op < WC_OP__COUNT ? in->op : WC_OP_ALU]++;
    wc_sched *s = sm->slot_sched[slot];
    set_gate(sm, slot, now + 1);
    if (s->wake > now + 1) s->wake = now + 1;
    if (sm->sched_low > now + 1) sm->sched_low = now + 1;
    if (s->notify & WC_SCHED_NOTIFY_ISSUE) s->ops->on_issue(s, slot, in);
    switch (in->op) {
    case WC_OP_BAR: {
        wc_block *b = &sm->blocks[w->block];
        w->at_barrier = 1;
        set_gate(sm, slot, WC_NEVER); /* barrier_check wakes it */
        wc_sched_set_bar(s, slot, true);
        if (sm->ms->ops->barrier) sm->ms->ops->barrier(sm->ms, slot, now);
        b->at_barrier++;
        barrier_check(sm, b);
        break;
    }
    case WC_OP_LDS:
    case WC_OP_STS: {
        uint64_t ready = now + sm->op_lat[in->op];
        if (sm->shmem.on) ready += wc_shmem_issue(&sm->shmem, in, now); /* bank conflicts */
        for (unsigned i = 0; i < in->ndst; i++) pend_add(w, in->dst[i], ready);
        /* a store holding the unit keeps its warp from retiring (no register waits) */
        if (!in->ndst && sm->shmem.free_at > now + 1 && w->npend < WC_MAX_PENDING)
            pend_add(w, WC_REG_NONE, sm->shmem.free_at);
        break;
    }
    case WC_OP_LDG:
    case WC_OP_STG:
    case WC_OP_LDL:
    case WC_OP_STL:
    case WC_OP_ATOM: issue_gmem(sm, slot, w, now); break;
    default: {
        uint64_t lat = sm->op_lat[in->op < WC_OP__COUNT ? in->op : WC_OP_ALU]; /* op_latency.c */
        if (lat > 1)
            for (unsigned i = 0; i < in->ndst; i++) pend_add(w, in->dst[i], now + lat);
        break;
    }
    }
    fetch(sm, slot);
    if (sm->ifetch && --w->ibuf == 0) buffer_empty(sm, slot);
}

/* ---- what the SM offers its memory stage (stage.h) ----------------------- */

/* Which per-request extras are wanted (wc_stage_present): bypass knobs,
 * access or eviction listeners, a scheduler that wants misses. */
void wc_sm_update_hooks(wc_sm *sm)
{
    const wc_gpu *g = sm->gpu;
    bool evict_by = false;
    for (unsigned i = 0; i < g->n_listeners; i++) evict_by |= g->listeners[i].on_evict_by != NULL;
    bool full = sm->req_flags || g->n_access_listeners || evict_by ||
                (sm->n_sched && sm->sched[0].ops->on_miss);
    sm->env.hooks = full || sm->store_acks;
    sm->env.present_hooked = full ? env_present_hooked : env_present_acks;
    /* Sleeping over fails (env_fail_holds_until): NULL where it is refused. */
    bool sleep = !full && !g->n_ctls && !g->cfg.max_cycles && sm->l1 &&
                 sm->l1->ops->access == wc_l1_core_access;
    sm->env.fail_holds_until = sleep ? env_fail_holds_until : NULL;
    sm->env.fail_ahead = sleep ? env_fail_ahead : NULL;
}

/* -exit_store_acks 1: the L1 took one of warp `slot`'s store requests;
 * `ack` is when the L2's acknowledgement of what it sent below reaches the
 * SM (0: nothing went below, a write-back L1 kept it, and GPGPU-Sim
 * acknowledges that at once).  A draining warp is looked at again then. */
static void store_taken(wc_sm *sm, unsigned slot, uint64_t ack)
{
    wc_warp *w = &sm->warps[slot];
    bool was_out = w->stores_out != 0; /* then its retire time was WC_NEVER */
    if (w->stores_out) w->stores_out--;
    if (ack > w->acked_at) w->acked_at = ack;
    if (w->state != W_DRAINING) return;
    if (was_out)
        drain_lowered(sm, w);
    else
        sm->drain_due = 0; /* its time may have gone up: the next cycle looks at all */
    uint64_t t = w->acked_at > sm->now ? w->acked_at : sm->now + 1;
    if (t < sm->drain_wake) sm->drain_wake = t;
    if (t < sm->wake) sm->wake = t;
}

wc_outcome wc_sm_present_hooked(wc_sm *sm, const wc_mem_req *req, uint32_t load, uint64_t now,
                                wc_fail_reason *why)
{
    wc_load *ld = load != WC_NO_REC ? &sm->loads[load] : NULL;
    wc_mem_req tmp;
    if (sm->req_flags && !(req->flags & (WC_REQ_WRITE | WC_REQ_ATOMIC))) { /* bypass knobs */
        tmp = *req;
        tmp.flags |= sm->req_flags;
        req = &tmp;
    }
    if (ld) ld->h.outstanding++; /* before access: a hit may answer at once */
    bool acked = sm->store_acks && (req->flags & (WC_REQ_WRITE | WC_REQ_WRITEBACK)) == WC_REQ_WRITE;
    if (acked) sm->gpu->mem.write_ack = 0;
    sm->cur_req = req;
    wc_outcome o = sm->l1->ops->access(sm->l1, req, now, why);
    sm->cur_req = NULL;
    if (sm->gpu->n_access_listeners) wc_sm_fanout_access(sm->gpu, (int)sm->id, req, o, *why, now);
    if (o == WC_RESERVATION_FAIL) {
        if (ld) ld->h.outstanding--;
        return o;
    }
    if (acked) store_taken(sm, req->warp, sm->gpu->mem.write_ack);
    if (ld && o == WC_HIT) wc_sm_respond(sm, load, now + sm->env.hit_latency);
    if (o == WC_MISS || o == WC_SECTOR_MISS) {
        wc_sched *s = sm->slot_sched[req->warp];
        if (s->ops->on_miss) s->ops->on_miss(s, req->warp, req->addr);
    }
    return o;
}

void wc_sm_send_around(wc_sm *sm, const wc_mem_req *req, uint32_t load, uint64_t now)
{
    wc_mem_req r = *req;
    r.flags |= WC_REQ_BYPASS | (sm->req_flags & WC_REQ_L2_BYPASS);
    r.tag = load;
    if (load != WC_NO_REC) sm->loads[load].h.outstanding++;
    uint64_t chunks = r.chunks ? r.chunks : wc_chunks_all(1u << (r.line_log2 - r.chunk_log2));
    sm->l1->env.send(sm, &r, chunks, now);
}

/* Applies a controller's knobs from cycle `now` on; whatever waited for the
 * old setting looks again now. */
void wc_sm_apply_knobs(wc_sm *sm, const uint64_t *want, uint64_t *have, uint64_t now)
{
    size_t n;
    const wc_knob_desc *const *knob = wc_knob_list(&n);
    if (memcmp(want, have, n * sizeof *want) == 0) return;
    const wc_knob_site site = {
        .sm = sm->id, .now = now, .l1 = sm->l1, .sched = sm->sched, .n_sched = sm->n_sched};
    unsigned flags = 0;
    for (size_t k = 0; k < n; k++) {
        if (want[k] != have[k] && knob[k]->apply) knob[k]->apply(&site, want[k]);
        have[k] = want[k];
        if (want[k]) flags |= knob[k]->req_flag;
    }
    sm->req_flags = (uint8_t)flags;
    wc_sm_update_hooks(sm);
    wc_mstage *ms = sm->ms;
    if (ms->holding && (ms->retry_at == WC_NEVER || ms->wake_on_fill)) ms->retry_at = now;
    if (sm->wake > now) sm->wake = now;
}

/* A response from below reached this SM (engine event). */
void wc_sm_deliver(wc_sm *sm, const wc_event *ev)
{
    sm->now = ev->time;
    if (ev->kind == WC_EV_BYPASS) {
        wc_sm_respond(sm, ev->arg, ev->time);
    } else if (__builtin_expect(ev->kind == WC_EV_IFILL, 0)) {
        wc_sm_icache_deliver(sm, ev); /* no data fill: the memory stage need not retry */
        return;
    } else {
        sm->l1->ops->fill(sm->l1, ev->addr,
                          ev->kind == WC_EV_FILL_HI ? (uint64_t)ev->arg << 32 : ev->arg, ev->time);
    }
    wc_mstage *ms = sm->ms;
    /* A fill: retry (a stage sleeping over a held fail too: catches up then). */
    if (ms->holding && ms->retry_at > ev->time && (ms->retry_at == WC_NEVER || ms->wake_on_fill))
        ms->retry_at = ev->time;
    if (sm->wake > ev->time) sm->wake = ev->time;
}

/* ---- the cycle ----------------------------------------------------------- */

/* Each due scheduler picks and issues; returns `next` lowered to their wake
 * times, and sets sched_low to their minimum (a write during the loop that
 * lowers a wake lowers it too; a scheduler raises only its own wake, before
 * it is counted). */
static uint64_t sched_issue(wc_sm *sm, uint64_t now, uint64_t next)
{
    /* The schedulers issue one after the other within a cycle, and the first
     * takes a shared resource (a free place ahead of the memory stage) before
     * the others.  GPGPU-Sim 3.x always starts with scheduler 0, which then
     * wins every such tie; since 2017 (commit dcf7e6a8, shader_core_ctx::issue)
     * the first scheduler moves on by one each cycle. */
    unsigned first = !sm->sched_rotate ? 0
                     : sm->sched_pow2  ? (unsigned)now & (sm->n_sched - 1) /* no division */
                                       : (unsigned)(now % sm->n_sched);
    sm->sched_low = WC_NEVER;
    for (unsigned k = 0; k < sm->n_sched; k++) {
        unsigned i = first + k < sm->n_sched ? first + k : first + k - sm->n_sched;
        wc_sched *s = &sm->sched[i];
        /* A scheduler none of whose warps can be ready yet is skipped. */
        if (s->wake <= now) {
            s->now = now;
            s->scan_min = WC_NEVER;
            int slot = s->ops->pick(s, sm->ready, sm);
            if (slot >= 0)
                issue(sm, (unsigned)slot, now);
            else
                s->wake = s->scan_min;
        }
        if (s->wake < sm->sched_low) sm->sched_low = s->wake;
    }
    return sm->sched_low < next ? sm->sched_low : next;
}

void wc_sm_cycle(wc_sm *sm, uint64_t now)
{
    sm->now = now;
    sm->wake = WC_NEVER; /* lowered by whatever makes a warp ready during this cycle */
    sm->drain_wake = WC_NEVER;
    if (sm->n_draining) {
        if (now < sm->drain_due) /* what a pass would find (drain_due above) */
            sm->drain_wake = sm->drain_due;
        else
            retire_drained(sm, now);
    }
    wc_mstage *ms = sm->ms;
    if (ms->holding && ms->retry_at <= now) {
        if (sm->inorder)
            wc_inorder_step(&sm->env, ms,
                            now); /* the default stage, inlined: it runs per request */
        else
            ms->ops->cycle(ms, now);
        if (wc_mi_feed_due(sm)) wc_mi_feed(sm, now);
    }
    uint64_t next = sm->drain_wake;
    /* Most cycles of a memory-bound SM are the stage's: no scheduler is due
     * (each keeps its own wake time).  sched_low, later than now, is their
     * minimum (gpu.h), so one comparison stands for the rotation of
     * sched_issue; at or before now, sched_issue looks at each (a scheduler
     * not due is skipped there as here) and sets it again. */
    if (sm->sched_low > now)
        next = sm->sched_low < next ? sm->sched_low : next;
    else
        next = sched_issue(sm, now, next);
    if (sm->ifetch && frontend(sm, now) && now + 1 < next) next = now + 1;
    if (ms->holding && ms->retry_at < next) next = ms->retry_at;
    if (sm->wake < next) next = sm->wake;
    sm->wake = next <= now ? now + 1 : next;
}

/* ---- the SM's counters (warpcache/statreg.h) ------------------------------ */

#define SM_STAT(name, unit, desc, field, n, ks, pc)                                                \
    {                                                                                              \
        name, unit, desc, WC_STAT_SM, WC_STAT_AT(wc_sm, field), ks, pc, n, false                   \
    }

static const wc_stat_desc sm_stats[] = {
    SM_STAT("warp_insts", "instructions", "warp instructions issued", warp_insts, 1,
            WC_KS(warp_insts), WC_PC(warp_insts)),
    SM_STAT("thread_insts", "instructions", "thread instructions issued (active lanes)",
            thread_insts, 1, WC_KS(thread_insts), WC_PC(thread_insts)),
    SM_STAT("ops", "instructions", "warp instructions by class (wc_op order; reported as ops.*)",
            op_count, WC_OP__COUNT, WC_KS(op_count), WC_NONE),
    SM_STAT("mem.requests", "requests", "coalesced requests presented to the L1", gmem_reqs, 1,
            WC_KS(gmem_reqs), WC_NONE),
    {"mem.stall_cycles", "cycles", "cycles the memory stage was stalled by a reservation fail",
     WC_STAT_SM, WC_STAT_AT(wc_sm, stall_by), WC_KS(mem_stall_cycles), WC_NONE, WC_FAIL__COUNT,
     true},
    SM_STAT("mem.stall_by_reason", "cycles",
            "the same by the fail's reason (wc_fail_reason order; reported as "
            "mem.stall_by_reason.*)",
            stall_by, WC_FAIL__COUNT, WC_KS(mem_stall_by), WC_NONE),
    SM_STAT("up_bytes", "bytes", "traffic SM -> L2 on the wire, counted when sent", up_bytes, 1,
            WC_NONE, WC_PC(up_bytes)),
    SM_STAT("down_bytes", "bytes", "traffic L2 -> SM on the wire, counted when sent", down_bytes, 1,
            WC_NONE, WC_PC(down_bytes)),
    {0},
};
const wc_stat_group wc_stats_sm = {"SM (engine)", sm_stats};
WC_PLUGIN(stats, wc_stats_sm, 20);
