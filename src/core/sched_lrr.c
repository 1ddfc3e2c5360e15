/*
 * sched_lrr.c - loose round-robin: start after the warp that issued last and
 * take the first ready one (seed 004's baseline).
 */
#include "core/sched.h"

static int lrr_pick(wc_sched *s, wc_ready_fn ready, void *ctx)
{
    unsigned n = wc_sched_window(s);
    if (!n) return -1;
    unsigned start = 0;
    if (s->last >= 0)
        for (unsigned i = 0; i < n; i++)
            if (s->warps[i] == s->last) {
                start = i + 1;
                break;
            }
    wc_scan sc = wc_scan_begin(s);
    int pick = -1;
    for (unsigned k = 0; pick < 0 && k < n; k++) {
        unsigned w = s->warps[(start + k) % n];
        if (wc_scan_try(&sc, w, ready, ctx)) pick = s->last = (int)w;
    }
    wc_scan_end(s, &sc);
    return pick;
}

const wc_sched_ops wc_sched_lrr = {
    .name = "lrr",
    .help = "loose round-robin",
    .pick = lrr_pick,
};
