/*
 * sched_lrr.c - loose round-robin: start after the warp that issued last and
 * take the first ready one (seed 004's baseline).
 */
#include "core/sched.h"

/* First ready open warp at positions [from, to). */
static int scan_range(wc_sched *s, wc_scan *sc, unsigned from, unsigned to, wc_ready_fn ready,
                      void *ctx)
{
    for (unsigned wi = from / 64; wi * 64 < to; wi++) {
        uint64_t m = wc_scan_word(s, sc, wi, to);
        if (wi == from / 64) m &= ~0ull << (from & 63);
        for (; m; m &= m - 1) {
            unsigned w = s->warps[wi * 64 + (unsigned)__builtin_ctzll(m)];
            if (wc_scan_try(sc, w, ready, ctx)) return (int)w;
        }
    }
    return -1;
}

static int lrr_pick(wc_sched *s, wc_ready_fn ready, void *ctx)
{
    unsigned n = wc_sched_window(s);
    if (!n) return -1;
    unsigned start = 0;
    if (s->last >= 0 && s->pos_of[s->last] < n) start = s->pos_of[s->last] + 1u;
    wc_scan sc = wc_scan_begin(s);
    int pick = start < n ? scan_range(s, &sc, start, n, ready, ctx) : -1;
    if (pick < 0) pick = scan_range(s, &sc, 0, start < n ? start : n, ready, ctx);
    if (pick >= 0) s->last = pick;
    wc_scan_end(s, &sc);
    return pick;
}

const wc_sched_ops wc_sched_lrr = {
    .name = "lrr",
    .help = "loose round-robin",
    .pick = lrr_pick,
};
WC_PLUGIN(scheduler, wc_sched_lrr, 10);
