/*
 * tscplus.c - TSC+ (design `tsc-plus`, -l1_org tsc-plus) of
 * ../shared/papers/000_746bcc542c65c503.txt, section 3.5: the tag-split
 * cache (tsc.c, same store) with two storage modes chosen by set dueling.
 *
 *   fine    a miss fetches only the missing requested chunks (TSC);
 *   coarse  a miss fetches every chunk of the line not present or pending.
 *
 * Set dueling runs on SM 0 only: of its sets, -tscp_samplers are always fine
 * and as many always coarse, drawn once per run from the seed (the per-run
 * shared block, wc_l1_env.shared).  SM 0's sampler sets count misses and
 * traffic (per miss: 1 request packet + one 32 B packet per chunk fetched)
 * per mode; the mode with the smaller misses x traffic product wins (ties:
 * fine) and every other set of every SM follows it.  When a miss counter
 * passes -tscp_halve_at all four counters halve, so the choice follows
 * program phases.  The stats give the accesses made in each mode, the
 * winner switches and the counters; every switch goes on the run's timeline
 * (env.record: key tscp_mode_coarse, value 1 coarse / 0 fine, SM 0).
 *
 * Everything else (placement, NRU, partial misses) is tsc.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "cache/org/tsc.h"

enum { MODE_FINE = 0, MODE_COARSE = 1 };
enum { ROLE_FOLLOWER = 0, ROLE_FINE, ROLE_COARSE };

/* ctl ops of this organisation (tests, controllers). */
enum {
    TSCP_CTL_SET_MODE = WC_L1_CTL_ORG, /* arg: set -> the mode this instance uses there */
    TSCP_CTL_SET_ROLE,                 /* arg: set -> 0 follower, 1 fine sampler, 2 coarse */
    TSCP_CTL_WINNER                    /* the followers' mode now */
};

static const wc_param_desc tscp_params[] = {
    {.key = "tscp_samplers",
     .def = 4,
     .min = 1,
     .max = 64,
     .help = "TSC+: sampler sets per mode (on SM 0)"},
    {.key = "tscp_halve_at",
     .def = 1024,
     .min = 1,
     .max = 1u << 30,
     .help = "TSC+: all duel counters halve when a miss counter passes this"},
    {0},
};

/* The per-run block: sampler roles and the duel, shared by every SM. */
typedef struct tscp_shared {
    uint32_t nsets;
    uint8_t *role; /* per set of SM 0 */
    uint64_t miss[2], traffic[2], halve_at;
    uint8_t winner;
    uint64_t switches;
} tscp_shared;

typedef struct tscp_ts {
    tsc_ts t; /* first */
    tscp_shared *sh;
    bool sm0;
    uint8_t cur; /* mode of the access in progress */
    /* The run's timeline (env.record, may be NULL): SM 0 records each switch. */
    void (*record)(void *ctx, const char *key, double value, uint64_t now);
    void *record_ctx;
    uint64_t acc[2];
} tscp_ts;

static void *tscp_shared_create(const wc_config *cfg, unsigned n_sm, wc_err *err)
{
    tscp_shared *sh = calloc(1, sizeof *sh);
    uint32_t nsets = cfg->l1.nsets;
    if (!sh || !(sh->role = calloc(nsets, 1))) {
        free(sh);
        wc_errf(err, "tsc-plus L1: out of memory");
        return NULL;
    }
    sh->nsets = nsets;
    sh->halve_at = wc_cfg_param(cfg, tscp_params, "tscp_halve_at");
    uint64_t want = wc_cfg_param(cfg, tscp_params, "tscp_samplers");
    uint64_t rng = cfg->seed ^ 0x7473632b7473632bull; /* "tsc+tsc+" */
    /* A seeded draw of distinct sets: fine samplers first, then coarse;
     * with fewer than 2 x samplers sets, half the sets each. */
    uint32_t per = (uint32_t)(want * 2 <= nsets ? want : nsets / 2);
    for (int r = ROLE_FINE; r <= ROLE_COARSE; r++)
        for (uint32_t k = 0; k < per;) {
            uint32_t s = (uint32_t)(wc_splitmix64(&rng) % nsets);
            if (sh->role[s]) continue;
            sh->role[s] = (uint8_t)r;
            k++;
        }
    return sh;
}

static void tscp_shared_destroy(void *p)
{
    tscp_shared *sh = p;
    if (!sh) return;
    free(sh->role);
    free(sh);
}

static inline uint8_t mode_of(const tscp_ts *x, uint32_t set)
{
    uint8_t r = x->sm0 && set < x->sh->nsets ? x->sh->role[set] : ROLE_FOLLOWER;
    return r == ROLE_FOLLOWER ? x->sh->winner : (uint8_t)(r - ROLE_FINE);
}

/* A miss of `chunks` in a sampler set of SM 0 feeds the duel. */
static void duel(tscp_shared *sh, uint8_t mode, uint64_t chunks)
{
    sh->miss[mode]++;
    sh->traffic[mode] += 1 + wc_chunk_count(chunks);
    if (sh->miss[mode] > sh->halve_at)
        for (int m = 0; m < 2; m++) {
            sh->miss[m] /= 2;
            sh->traffic[m] /= 2;
        }
    uint8_t w = sh->miss[MODE_COARSE] * sh->traffic[MODE_COARSE] <
                        sh->miss[MODE_FINE] * sh->traffic[MODE_FINE]
                    ? MODE_COARSE
                    : MODE_FINE;
    sh->switches += w != sh->winner;
    sh->winner = w;
}

static uint64_t tscp_miss_chunks(const wc_tagstore *ts, uint64_t missing, uint64_t have)
{
    const tscp_ts *x = (const tscp_ts *)ts;
    if (x->cur == MODE_FINE) return missing;
    return wc_chunks_all(ts->nchunks) & ~have;
}

static void tscp_place(wc_tagstore *ts, wc_l1_core *core, uint32_t set, wc_line *line,
                       uint64_t chunks, const wc_repl_ctx *ctx, uint64_t now)
{
    tscp_ts *x = (tscp_ts *)ts;
    wc_tsc_place(ts, core, set, line, chunks, ctx, now);
    bool read = ctx && ctx->req && !(ctx->req->flags & WC_REQ_WRITE);
    if (!read || !x->sm0 || x->sh->role[set] == ROLE_FOLLOWER) return;
    uint8_t before = x->sh->winner;
    duel(x->sh, (uint8_t)(x->sh->role[set] - ROLE_FINE), chunks);
    if (x->sh->winner != before && x->record)
        x->record(x->record_ctx, "tscp_mode_coarse", x->sh->winner, now);
}

static void tscp_stats(const wc_tagstore *ts, void (*emit)(void *ctx, const char *name, double v),
                       void *ctx)
{
    const tscp_ts *x = (const tscp_ts *)ts;
    wc_tsc_stats(ts, emit, ctx);
    emit(ctx, "tscp_fine_accesses", (double)x->acc[MODE_FINE]);
    emit(ctx, "tscp_coarse_accesses", (double)x->acc[MODE_COARSE]);
    if (!x->sm0) return; /* the duel is SM 0's: reported once */
    emit(ctx, "tscp_winner_switches", (double)x->sh->switches);
    emit(ctx, "tscp_final_mode_coarse", (double)x->sh->winner);
    emit(ctx, "tscp_duel_miss_fine", (double)x->sh->miss[MODE_FINE]);
    emit(ctx, "tscp_duel_miss_coarse", (double)x->sh->miss[MODE_COARSE]);
    emit(ctx, "tscp_duel_traffic_fine", (double)x->sh->traffic[MODE_FINE]);
    emit(ctx, "tscp_duel_traffic_coarse", (double)x->sh->traffic[MODE_COARSE]);
}

static const wc_tagstore_ops tscp_ops = {
    .name = "tsc-plus",
    .destroy = wc_tsc_destroy,
    .lookup = wc_tsc_lookup,
    .can_allocate = wc_tsc_can_allocate,
    .allocate = wc_tsc_allocate,
    .touch = wc_tsc_touch,
    .invalidate = wc_tsc_invalidate,
    .fill = wc_tsc_fill,
    .miss_chunks = tscp_miss_chunks,
    .can_place = wc_tsc_can_place,
    .place = tscp_place,
    .each_valid = wc_tsc_each_valid,
    .stats = tscp_stats,
    /* No retry memo: the followers' mode is the duel's on SM 0, which can
     * change what a miss fetches (and so can_place) on every SM without any
     * access to this L1. */
    .retry_memo = false,
};

static wc_tagstore *tscp_create(wc_l1_core *core, const wc_config *cfg, const wc_l1_env *env,
                                wc_err *err)
{
    if (!env->shared) {
        wc_errf(err, "tsc-plus L1: no shared block (the engine makes it through shared_create)");
        return NULL;
    }
    tscp_ts *x = calloc(1, sizeof *x);
    if (!x) {
        wc_errf(err, "tsc-plus L1: out of memory");
        return NULL;
    }
    if (wc_tsc_init(&x->t, &tscp_ops, cfg, env, err) < 0) {
        wc_tsc_destroy(&x->t.base);
        return NULL;
    }
    x->sh = env->shared;
    x->sm0 = env->sm == 0;
    x->record = env->record;
    x->record_ctx = env->ctx;
    return &x->t.base;
}

/* Every access learns its set's mode first (the miss path asks for it). */
static wc_outcome tscp_access(wc_l1 *l1, const wc_mem_req *req, uint64_t now, wc_fail_reason *why)
{
    wc_l1_core *c = (wc_l1_core *)l1;
    tscp_ts *x = (tscp_ts *)c->ts;
    x->cur = mode_of(x, wc_index_set(&x->t.index, req->addr));
    wc_outcome o = wc_l1_core_access(l1, req, now, why);
    if (o != WC_RESERVATION_FAIL) x->acc[x->cur]++;
    return o;
}

static int64_t tscp_ctl(wc_l1 *l1, int op, int64_t arg)
{
    tscp_ts *x = (tscp_ts *)((wc_l1_core *)l1)->ts;
    bool in = arg >= 0 && (uint64_t)arg < x->sh->nsets;
    switch (op) {
    case TSCP_CTL_SET_MODE: return in ? mode_of(x, (uint32_t)arg) : -1;
    case TSCP_CTL_SET_ROLE: return in && x->sm0 ? x->sh->role[arg] : in ? ROLE_FOLLOWER : -1;
    case TSCP_CTL_WINNER: return x->sh->winner;
    default: return wc_l1_core_ctl(l1, op, arg);
    }
}

static wc_l1 *tscp_l1_create(const wc_config *cfg, const wc_l1_env *env, wc_err *err)
{
    return wc_l1_core_create(&wc_l1_tscplus, tscp_create, cfg, env, err);
}

const wc_l1_ops wc_l1_tscplus = {
    .name = "tsc-plus",
    .help = "TSC+ (seed 000): TSC with fine/coarse storage modes chosen by set dueling on SM 0",
    .create = tscp_l1_create,
    .access = tscp_access,
    .fill = wc_l1_core_fill,
    .destroy = wc_l1_core_destroy,
    .flush = wc_l1_core_flush,
    .shared_create = tscp_shared_create,
    .shared_destroy = tscp_shared_destroy,
    .ctl = tscp_ctl,
    .stats = wc_l1_core_stats,
    .params = tscp_params,
    .base_params = wc_tsc_params,
};
WC_PLUGIN(l1_org, wc_l1_tscplus, 70);
