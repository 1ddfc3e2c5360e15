/*
 * ccws.c - CCWS's lost-locality detector and locality scoring system for one
 * SM (ccws.h has the rules; ctl_ccws.c connects them to the engine).
 */
#include <stdlib.h>
#include <string.h>

#include "core/controllers/ccws.h"

/* The paper's values are the defaults (002 Table 4; CCWS's own configuration:
 * 16 VTA entries per warp, 8-way, 768 over 48 warps). */
const wc_param_desc wc_ccws_param_schema[] = {
    {.key = "base", .def = 100, .min = 1, .max = 1000000, .help = "base locality score per warp"},
    {.key = "kthrottle",
     .def = 8,
     .min = 1,
     .max = 1000,
     .help = "scales the score a victim tag array hit gives"},
    {.key = "vta_sets", .def = 2, .min = 1, .max = 64, .help = "victim tag array sets per warp"},
    {.key = "vta_ways", .def = 8, .min = 1, .max = 64, .help = "victim tag array ways per set"},
    {.key = "decay",
     .def = 1,
     .min = 0,
     .max = 1000000,
     .help = "points a score above base loses per cycle"},
    {0},
};

void wc_ccws_params_from(const wc_param_values *v, wc_ccws_params *p)
{
    p->base = (uint32_t)wc_param_u(v, "base");
    p->kthrottle = (uint32_t)wc_param_u(v, "kthrottle");
    p->vta_sets = (uint32_t)wc_param_u(v, "vta_sets");
    p->vta_ways = (uint32_t)wc_param_u(v, "vta_ways");
    p->decay = (uint32_t)wc_param_u(v, "decay");
}

void wc_ccws_defaults(wc_ccws_params *p)
{
    wc_param_values v;
    wc_param_parse(&v, wc_ccws_param_schema, "ccws", "", NULL);
    wc_ccws_params_from(&v, p);
}

int wc_ccws_sm_init(wc_ccws_sm *s, const wc_ccws_params *p, unsigned n_slots, unsigned line_log2,
                    wc_err *err)
{
    memset(s, 0, sizeof *s);
    if (n_slots == 0 || n_slots > WC_CCWS_MAX_SLOTS)
        return wc_errf(err, "%u warp slots per SM is outside 1..%u", n_slots, WC_CCWS_MAX_SLOTS);
    s->p = *p;
    s->n_slots = n_slots;
    s->line_log2 = line_log2;
    s->w = malloc(n_slots * sizeof *s->w);
    s->vta = calloc((size_t)n_slots * p->vta_sets * p->vta_ways, sizeof *s->vta);
    if (!s->w || !s->vta) return wc_errf(err, "out of memory");
    for (unsigned i = 0; i < n_slots; i++)
        s->w[i] = (wc_ccws_warp){.who = WC_CCWS_NOBODY, .score = p->base};
    s->eval_at = UINT64_MAX;
    return 0;
}

void wc_ccws_sm_free(wc_ccws_sm *s)
{
    free(s->w);
    free(s->vta);
    s->w = NULL;
    s->vta = NULL;
}

void wc_ccws_kernel_begin(wc_ccws_sm *s, uint64_t insts)
{
    s->hits_kernel = 0;
    s->insts_at_begin = insts;
    s->eval_at = UINT64_MAX;
    s->hot_until = 0;
    /* Its warps are new warps: each slot starts afresh when next touched. */
    for (unsigned i = 0; i < s->n_slots; i++) s->w[i].who = WC_CCWS_NOBODY;
}

static uint64_t *vta_row(const wc_ccws_sm *s, unsigned slot)
{
    return s->vta + (size_t)slot * s->p.vta_sets * s->p.vta_ways;
}

void wc_ccws_sync(wc_ccws_sm *s, unsigned slot, uint64_t who)
{
    wc_ccws_warp *w = &s->w[slot];
    if (w->who == who) return;
    w->who = who;
    w->score = s->p.base;
    w->set_at = 0;
    memset(vta_row(s, slot), 0, (size_t)s->p.vta_sets * s->p.vta_ways * sizeof *s->vta);
    s->eval_at = UINT64_MAX;
}

/* The set of line_addr in slot's VTA, and the value stored for it. */
static uint64_t *vta_set(const wc_ccws_sm *s, unsigned slot, uint64_t line_addr, uint64_t *key)
{
    uint64_t line = line_addr >> s->line_log2;
    *key = line + 1;
    return vta_row(s, slot) + (line % s->p.vta_sets) * s->p.vta_ways;
}

/* Removes entry i of a set, moving the older ones up (the last becomes empty). */
static void set_remove(uint64_t *set, unsigned ways, unsigned i)
{
    memmove(&set[i], &set[i + 1], (ways - i - 1) * sizeof *set);
    set[ways - 1] = 0;
}

void wc_ccws_vta_insert(wc_ccws_sm *s, unsigned slot, uint64_t line_addr)
{
    uint64_t key;
    uint64_t *set = vta_set(s, slot, line_addr, &key);
    unsigned ways = s->p.vta_ways;
    for (unsigned i = 0; i < ways; i++)
        if (set[i] == key) {
            set_remove(set, ways, i); /* re-inserted: becomes the most recent */
            break;
        }
    /* The least recent (last) entry falls out. */
    memmove(&set[1], &set[0], (ways - 1) * sizeof *set);
    set[0] = key;
    s->vta_inserts++;
}

bool wc_ccws_vta_probe(wc_ccws_sm *s, unsigned slot, uint64_t line_addr)
{
    uint64_t key;
    uint64_t *set = vta_set(s, slot, line_addr, &key);
    for (unsigned i = 0; i < s->p.vta_ways && set[i]; i++)
        if (set[i] == key) {
            set_remove(set, s->p.vta_ways, i);
            return true;
        }
    return false;
}

uint32_t wc_ccws_score(const wc_ccws_sm *s, unsigned slot, uint64_t now)
{
    const wc_ccws_warp *w = &s->w[slot];
    if (w->score <= s->p.base) return w->score;
    uint64_t lost = (now > w->set_at ? now - w->set_at : 0) * s->p.decay;
    return lost >= w->score - s->p.base ? s->p.base : w->score - (uint32_t)lost;
}

void wc_ccws_set_score(wc_ccws_sm *s, unsigned slot, uint32_t score, uint64_t now)
{
    wc_ccws_warp *w = &s->w[slot];
    w->score = score;
    w->set_at = now;
    s->eval_at = UINT64_MAX;
    if (score <= s->p.base) return;
    /* The score is back at base after ceil((score - base) / decay) cycles. */
    uint64_t until =
        s->p.decay ? now + (score - s->p.base + s->p.decay - 1) / s->p.decay : UINT64_MAX;
    if (until > s->hot_until) s->hot_until = until;
}

/* CCWS's configuration adds hits/insts x K x cutoff to the score and caps
 * the result at the same amount (K for both), then raises it to base: the
 * score becomes max(base, hits/insts x K x cutoff). */
uint32_t wc_ccws_lost_locality(wc_ccws_sm *s, unsigned slot, uint64_t now, unsigned n_live,
                               uint64_t insts)
{
    s->vta_hits++;
    s->hits_kernel++;
    uint64_t done = insts > s->insts_at_begin ? insts - s->insts_at_begin : 1;
    double cutoff = (double)n_live * s->p.base;
    double v = (double)s->hits_kernel / (double)done * s->p.kthrottle * cutoff;
    uint32_t score = v >= 4e9 ? 4000000000u : (uint32_t)v;
    if (score < s->p.base) score = s->p.base;
    wc_ccws_set_score(s, slot, score, now);
    return score;
}

/* The cycle a score set to `score` at set_at is back at base (never before
 * set_at + 1: only scores above base are asked). */
static uint64_t base_again_at(const wc_ccws_sm *s, const wc_ccws_warp *w)
{
    uint64_t above = w->score - s->p.base, d = s->p.decay;
    return w->set_at + (above + d - 1) / d; /* wc_ccws_score: base once lost >= above */
}

/* now + 1 + floor(excess / rate), saturating. */
static uint64_t after_decay(uint64_t now, uint64_t excess, uint64_t rate)
{
    uint64_t q = excess / rate;
    return q >= UINT64_MAX - now - 1 ? UINT64_MAX : now + 1 + q;
}

/*
 * The first cycle after now at which the same live warps, with no score set
 * and no slot's warp replaced, could give another list.  Between the cycles
 * at which a warp above base decays to it, every warp above base loses
 * `decay` a cycle, so their order stays and a sum of k of them falls by
 * k x decay a cycle, while warps at base stay at base.  The list is taken
 * while the running sum is below the cutoff, so with `sum` >= cutoff where
 * it stopped, it changes first when that sum falls below the cutoff (one
 * more warp is taken); if it never reached the cutoff every live warp is in
 * it and stays. Taken warps above base: k_hot; all of them when the list
 * reaches into the warps at base.
 */
static uint64_t list_stable_until(const wc_ccws_sm *s, uint64_t first_base, unsigned k_hot,
                                  uint64_t sum, uint64_t cutoff, uint64_t now)
{
    if (!s->p.decay || sum < cutoff || !k_hot) return first_base;
    uint64_t change = after_decay(now, sum - cutoff, (uint64_t)k_hot * s->p.decay);
    return change < first_base ? change : first_base;
}

/* Scores never fall below base, so the order is: the warps above base by
 * score (few: sorted here), then every warp at base by slot (bit order). */
unsigned wc_ccws_evaluate(wc_ccws_sm *s, const uint64_t *live, uint64_t now)
{
    struct {
        uint32_t score;
        uint16_t slot;
    } hot[WC_CCWS_MAX_SLOTS];
    unsigned n = 0, n_hot = 0;
    uint64_t rest[WC_CCWS_WORDS];     /* live warps at base */
    uint64_t first_base = UINT64_MAX; /* the first cycle a warp above base is at base */
    for (unsigned wi = 0; wi < WC_CCWS_WORDS; wi++) {
        rest[wi] = live[wi];
        n += wc_popcount32((uint32_t)live[wi]) + wc_popcount32((uint32_t)(live[wi] >> 32));
        for (uint64_t m = live[wi]; m; m &= m - 1) {
            unsigned slot = wi * 64 + (unsigned)__builtin_ctzll(m);
            if (slot >= s->n_slots) break;
            uint32_t sc = s->w[slot].score > s->p.base ? wc_ccws_score(s, slot, now) : s->p.base;
            if (sc <= s->p.base) continue;
            if (s->p.decay) {
                uint64_t at = base_again_at(s, &s->w[slot]);
                if (at < first_base) first_base = at;
            }
            rest[wi] &= ~(1ull << (slot & 63));
            unsigned j = n_hot++; /* insertion: highest first; slots ascend, so ties stay */
            for (; j > 0 && hot[j - 1].score < sc; j--) hot[j] = hot[j - 1];
            hot[j].score = sc;
            hot[j].slot = (uint16_t)slot;
        }
    }
    memset(s->allowed, 0, sizeof s->allowed);
    uint64_t cutoff = (uint64_t)n * s->p.base, sum = 0;
    unsigned taken = 0;
    for (unsigned i = 0; i < n_hot && sum < cutoff; i++, taken++) {
        s->allowed[hot[i].slot >> 6] |= 1ull << (hot[i].slot & 63);
        sum += hot[i].score;
    }
    unsigned k_hot = taken;
    for (unsigned wi = 0; wi < WC_CCWS_WORDS && sum < cutoff; wi++)
        for (uint64_t m = rest[wi]; m && sum < cutoff; m &= m - 1, taken++) {
            s->allowed[wi] |= m & -m;
            sum += s->p.base;
        }
    s->eval_at = now;
    memcpy(s->eval_live, live, sizeof s->eval_live);
    s->eval_until = list_stable_until(s, first_base, k_hot, sum, cutoff, now);
    return taken;
}

void wc_ccws_refresh(wc_ccws_sm *s, const uint64_t *live, uint64_t now)
{
    if (s->eval_at != UINT64_MAX && now < s->eval_until &&
        !memcmp(live, s->eval_live, sizeof s->eval_live)) {
        s->eval_at = now;
        return;
    }
    wc_ccws_evaluate(s, live, now);
}
