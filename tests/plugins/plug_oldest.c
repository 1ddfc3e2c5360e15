/*
 * plug_oldest.c - a test plug-in (tests/cli_plugins.sh): the warp scheduler
 * "plug_oldest" issues the oldest ready warp of its window every cycle
 * (no greedy preference, unlike gto).  It exists to show that a scheduler is
 * one file (make PLUGINS=tests/plugins/plug_oldest.c).
 */
#include "core/sched.h"

static int oldest_pick(wc_sched *s, wc_ready_fn ready, void *ctx)
{
    unsigned n = wc_sched_window(s);
    wc_scan sc = wc_scan_begin(s);
    int pick = -1;
    for (unsigned wi = 0; pick < 0 && wi * 64 < n; wi++)
        for (uint64_t m = wc_scan_word(s, &sc, wi, n); m; m &= m - 1) {
            unsigned w = s->warps[wi * 64 + (unsigned)__builtin_ctzll(m)];
            if (wc_scan_try(&sc, w, ready, ctx)) {
                pick = (int)w;
                break;
            }
        }
    if (pick >= 0) s->last = pick;
    wc_scan_end(s, &sc);
    return pick;
}

const wc_sched_ops plug_sched_oldest = {
    .name = "plug_oldest",
    .help = "test plug-in: the oldest ready warp",
    .pick = oldest_pick,
};
WC_PLUGIN(scheduler, plug_sched_oldest, 1000);
