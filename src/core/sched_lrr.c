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
    for (unsigned k = 0; k < n; k++) {
        unsigned w = s->warps[(start + k) % n];
        if (wc_sched_can_issue(s, w, ready, ctx)) return s->last = (int)w;
    }
    return -1;
}

const wc_sched_ops wc_sched_lrr = {
    .name = "lrr",
    .help = "loose round-robin",
    .pick = lrr_pick,
};
