/*
 * repl_ship.c - SHiP, the signature-based hit predictor (Wu et al., MICRO
 * 2011), with PC signatures (SHiP-PC), on top of SRRIP's 2-bit RRPVs; the
 * data-store replacement seed 001 (../shared/papers/001_94c1440347ca7d61.txt,
 * design sweep "LRU vs RRIP vs SHiP") compares against.  warpcache letter 'S'.
 *
 * Each line remembers the signature of the instruction that brought it in
 * (a hash of the PC, ship_sig_bits wide) and whether it was hit since (the
 * outcome bit).  A table of saturating counters (SHCT, 2^ship_sig_bits
 * entries of ship_ctr_bits) learns per signature whether its lines are
 * re-referenced: a hit increments the line's signature counter, the eviction
 * of a line never hit decrements it.  A new line is inserted with RRPV 3
 * ("distant": first to go) when its signature's counter is 0, else with
 * RRPV 2 as SRRIP does; a hit sets RRPV 0.  Victim selection is SRRIP's.
 * Counters start at ship_ctr_init (1: an unknown PC is treated as SRRIP
 * would treat it until its lines are seen dying).
 *
 * wc_line.repl: bits 0-1 RRPV, bit 2 outcome, bits 32-63 signature.  One
 * SHCT per cache instance (per SM for the L1s).
 */
#include <stdlib.h>

#include "cache/repl_impl.h"
#include "warpcache/params.h"

#define RRPV_MAX    3u
#define RRPV_INSERT 2u
#define RRPV_MASK   3ull
#define OUTCOME     4ull
#define SIG_SHIFT   32

static const wc_param_desc ship_params[] = {
    {.key = "ship_sig_bits",
     .def = 14,
     .min = 1,
     .max = 20,
     .help = "SHiP: signature bits (PC hash); the SHCT has 2^bits counters"},
    {.key = "ship_ctr_bits",
     .def = 3,
     .min = 1,
     .max = 8,
     .help = "SHiP: bits of each SHCT saturating counter"},
    {.key = "ship_ctr_init",
     .def = 1,
     .min = 0,
     .max = 255,
     .help = "SHiP: initial SHCT counter value (clamped to the maximum)"},
    {0},
};

typedef struct ship {
    unsigned sig_bits;
    uint8_t ctr_max;
    uint8_t *shct;
    uint64_t inserts, distant; /* lines inserted, of which predicted dead (RRPV 3) */
} ship;

static void *ship_create(uint32_t sets, uint32_t ways, const wc_config *cfg, wc_err *err)
{
    ship *s = calloc(1, sizeof *s);
    if (!s) {
        wc_errf(err, "SHiP: out of memory");
        return NULL;
    }
    s->sig_bits = (unsigned)wc_cfg_param(cfg, ship_params, "ship_sig_bits");
    s->ctr_max = (uint8_t)((1u << wc_cfg_param(cfg, ship_params, "ship_ctr_bits")) - 1);
    uint64_t init = wc_cfg_param(cfg, ship_params, "ship_ctr_init");
    s->shct = malloc((size_t)1 << s->sig_bits);
    if (!s->shct) {
        wc_errf(err, "SHiP: out of memory for 2^%u counters", s->sig_bits);
        free(s);
        return NULL;
    }
    for (size_t i = 0; i < (size_t)1 << s->sig_bits; i++)
        s->shct[i] = (uint8_t)(init < s->ctr_max ? init : s->ctr_max);
    return s;
}

static void ship_destroy(void *st)
{
    ship *s = st;
    if (s) free(s->shct);
    free(s);
}

/* Fibonacci hashing of the PC: its top sig_bits bits. */
static inline uint32_t signature(const ship *s, const wc_repl_ctx *ctx)
{
    uint64_t pc = ctx && ctx->req ? ctx->req->pc : 0;
    return (uint32_t)((pc * 0x9e3779b97f4a7c15ull) >> (64 - s->sig_bits));
}

static inline uint32_t line_sig(const wc_line *l)
{
    return (uint32_t)(l->repl >> SIG_SHIFT);
}

static void ship_hit(void *st, wc_line *set, uint32_t assoc, uint32_t way, uint64_t stamp,
                     const wc_repl_ctx *ctx)
{
    ship *s = st;
    wc_line *l = &set[way];
    uint8_t *c = &s->shct[line_sig(l)];
    if (*c < s->ctr_max) (*c)++;
    l->repl = (l->repl & ~RRPV_MASK) | OUTCOME; /* RRPV 0, reused */
}

static void ship_insert(void *st, wc_line *set, uint32_t assoc, uint32_t way, uint64_t stamp,
                        const wc_repl_ctx *ctx)
{
    ship *s = st;
    uint32_t sig = signature(s, ctx);
    uint64_t rrpv = s->shct[sig] == 0 ? RRPV_MAX : RRPV_INSERT;
    s->inserts++;
    s->distant += rrpv == RRPV_MAX;
    set[way].repl = ((uint64_t)sig << SIG_SHIFT) | rrpv;
}

static void ship_evict(void *st, wc_line *set, uint32_t assoc, uint32_t way)
{
    ship *s = st;
    const wc_line *l = &set[way];
    uint8_t *c = &s->shct[line_sig(l)];
    if (!(l->repl & OUTCOME) && *c > 0) (*c)--;
}

/* SRRIP's victim on the RRPV bits: the first non-reserved way at RRPV 3,
 * after ageing the set just enough for one to exist. */
static int ship_victim(void *st, wc_line *set, uint32_t assoc, uint64_t *rng,
                       const wc_repl_ctx *ctx)
{
    bool any = false;
    uint64_t oldest = 0;
    for (uint32_t w = 0; w < assoc; w++) {
        if (set[w].state == WC_LINE_RESERVED) continue;
        uint64_t r = set[w].repl & RRPV_MASK;
        if (r >= RRPV_MAX) return (int)w;
        if (r > oldest) oldest = r;
        any = true;
    }
    if (!any) return -1;
    uint64_t age = RRPV_MAX - oldest;
    int victim = -1;
    for (uint32_t w = 0; w < assoc; w++) {
        uint64_t r = (set[w].repl & RRPV_MASK) + age;
        if (r > RRPV_MAX) r = RRPV_MAX;
        set[w].repl = (set[w].repl & ~RRPV_MASK) | r;
        if (victim < 0 && set[w].state != WC_LINE_RESERVED && r == RRPV_MAX) victim = (int)w;
    }
    return victim;
}

static void ship_stats(const void *st, void (*emit)(void *ctx, const char *name, double v),
                       void *ctx)
{
    const ship *s = st;
    emit(ctx, "ship.inserts", (double)s->inserts);
    emit(ctx, "ship.distant_inserts", (double)s->distant);
}

/* For tests: the SHCT counter a PC maps to. */
unsigned wc_repl_ship_counter(const void *st, uint64_t pc)
{
    const ship *s = st;
    wc_mem_req r = {.pc = pc};
    wc_repl_ctx ctx = {&r, 0};
    return s->shct[signature(s, &ctx)];
}

const wc_repl_ops wc_repl_ship = {
    .name = "ship",
    .letter = 'S',
    .help = "SHiP-PC: SRRIP whose insertion learns, per PC signature, lines never re-used",
    .params = ship_params,
    .create = ship_create,
    .destroy = ship_destroy,
    .on_hit = ship_hit,
    .on_insert = ship_insert,
    .victim = ship_victim,
    .on_evict = ship_evict,
    .stats = ship_stats,
};
WC_PLUGIN(repl, wc_repl_ship, 50);
