/*
 * sched_gto.c - greedy-then-oldest: keep issuing from the warp that issued
 * last while it can; otherwise the oldest ready warp (the seeds' baseline in
 * 000, 001 and 002).
 */
#include "core/sched.h"

static int gto_pick(wc_sched *s, wc_ready_fn ready, void *ctx)
{
    unsigned n = wc_sched_window(s);
    wc_scan sc = wc_scan_begin(s);
    int pick = -1;
    if (s->last >= 0 && s->pos_of[s->last] < n && wc_scan_try(&sc, (unsigned)s->last, ready, ctx))
        pick = s->last;
    for (unsigned wi = 0; pick < 0 && wi * 64 < n; wi++)
        for (uint64_t m = wc_scan_word(s, &sc, wi, n); m && pick < 0; m &= m - 1) {
            unsigned w = s->warps[wi * 64 + (unsigned)__builtin_ctzll(m)];
            if ((int)w != s->last && wc_scan_try(&sc, w, ready, ctx)) pick = s->last = (int)w;
        }
    wc_scan_end(s, &sc);
    return pick;
}

const wc_sched_ops wc_sched_gto = {
    .name = "gto",
    .help = "greedy-then-oldest",
    .pick = gto_pick,
};
WC_PLUGIN(scheduler, wc_sched_gto, 20);
