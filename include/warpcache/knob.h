/*
 * knob.h - declared knobs: the per-SM settings a GPU-wide controller may
 * change while a kernel runs (control.h).
 *
 * The part of the simulator that reads a setting declares it, in its own
 * file, with one registration line:
 *
 *     static void apply_limit(const wc_knob_site *s, uint64_t v) { ... }
 *     const wc_knob_desc wc_knob_warp_limit = {.name = "warp_limit", .max = 65536,
 *                                              .help = "...", .apply = apply_limit};
 *     WC_PLUGIN(knob, wc_knob_warp_limit, 40);
 *
 * A controller looks the knob up by name once, when it is created
 * (wc_ctl_knob: an id, or a configuration error naming the controller and
 * the knob), and then sets it per SM by id through its I/O (wc_knob_set).
 * At the period boundary the engine checks the values against the declared
 * range and calls `apply` for every knob whose value changed on an SM, in
 * registry order; the consumer writes the plain field its per-access path
 * reads (a scheduler's window, the L1 organisation's mode), so the hot path
 * never looks a knob up.  A knob that only marks the SM's reads (`req_flag`)
 * needs no hook: while its value is not 0, every read the SM presents carries
 * that request flag (what the L1 core's streaming mode and the L2 bypass of
 * the memory side read).
 *
 * Knobs are listed by `warpcache list knobs`; nothing else names them.
 */
#ifndef WARPCACHE_KNOB_H
#define WARPCACHE_KNOB_H

#include <stdbool.h>
#include <stdint.h>

#include "warpcache/plugin.h"

struct wc_l1;
struct wc_sched;

/* What an apply hook may touch: the parts of one SM that read knobs. */
typedef struct wc_knob_site {
    unsigned sm;            /* the SM's index */
    uint64_t now;           /* the cycle from which the value holds */
    struct wc_l1 *l1;       /* its L1 (warpcache/cache.h) */
    struct wc_sched *sched; /* [n_sched]: its warp schedulers (src/core/sched.h) */
    unsigned n_sched;
} wc_knob_site;

typedef struct wc_knob_desc {
    const char *name;     /* what controllers look it up by */
    const char *consumer; /* who reads it, for `list knobs` ("L1 core", ...) */
    const char *help;     /* one line: what a value does */
    uint64_t min, max;    /* the values a controller may set (a bool: 0..1) */
    /* The value before any controller set it, from the configuration
     * (NULL: 0).  Every SM starts a run with it. */
    uint64_t (*initial)(const struct wc_config *cfg);
    /* Optional: applies value v (changed since the last boundary) to one
     * SM from s->now on. */
    void (*apply)(const wc_knob_site *s, uint64_t v);
    /* Optional: while the value is not 0, the SM's reads carry this
     * request flag (WC_REQ_*, warpcache/cache.h). */
    uint32_t req_flag;
} wc_knob_desc;

/* A knob's id: its index in the registry (wc_knob_list). */
typedef unsigned wc_knob_id;

const wc_knob_desc *const *wc_knob_list(size_t *count);
/* The id of the knob named `name`, or -1. */
int wc_knob_find(const char *name);

#endif
