/*
 * plugin.h - how a plug-in registers itself: one line in its own file.
 *
 *     const wc_controller_ops wc_ctl_swl = {...};
 *     WC_PLUGIN(controller, wc_ctl_swl, 20);
 *
 * The line must start at the beginning of a line of a library source (or of
 * a file named in `make PLUGINS="a.c b.c"`).  scripts/gen_registry.sh reads
 * these lines when the library is built and writes $(BUILD)/gen/registry.c:
 * one array per family, which the family's registry (l1_registry.c, repl.c,
 * control.c, ...) reads with WC_PLUGIN_LIST.  No list of plug-ins is kept by
 * hand anywhere, and the registry is plain data: nothing depends on the linker
 * keeping an object nobody references (a static library drops those).
 *
 * The third argument orders the family's list (`warpcache list ...`, help
 * strings, `config --options`): smaller first, ties by symbol name.  The
 * built-in plug-ins use multiples of 10 in the order they always had; a new
 * one picks any number (out-of-tree plug-ins: 1000 and up lists them last).
 *
 * In C the line is an extern declaration of the ops table with the family's
 * type, so a plug-in registered under the wrong family does not compile.
 */
#ifndef WARPCACHE_PLUGIN_H
#define WARPCACHE_PLUGIN_H

#include <stddef.h>

/* The families and the type of their entries, one line each: the generator
 * takes the list of families from these lines.  Struct tags, so that the
 * generated file needs no private header. */
#define WC_PLUGIN_TYPE_l1_org     struct wc_l1_ops         /* warpcache/cache.h, -l1_org */
#define WC_PLUGIN_TYPE_repl       struct wc_repl_ops       /* warpcache/cache.h, cache geometry */
#define WC_PLUGIN_TYPE_index      struct wc_index_desc     /* warpcache/cache.h, set index */
#define WC_PLUGIN_TYPE_scheduler  struct wc_sched_ops      /* src/core/sched.h */
#define WC_PLUGIN_TYPE_stage      struct wc_mstage_ops     /* warpcache/stage.h, -mem_stage */
#define WC_PLUGIN_TYPE_controller struct wc_controller_ops /* warpcache/control.h */
#define WC_PLUGIN_TYPE_analysis   struct wc_analysis_ops   /* warpcache/analysis.h, -analysis */
#define WC_PLUGIN_TYPE_workload   struct wc_workload       /* warpcache/workloads.h */
#define WC_PLUGIN_TYPE_knob       struct wc_knob_desc  /* warpcache/knob.h, controllers' knobs */
#define WC_PLUGIN_TYPE_stats      struct wc_stat_group /* warpcache/statreg.h, counters */

/* Registers `sym` in `family` at position `order` (see above). */
#define WC_PLUGIN(family, sym, order) extern const WC_PLUGIN_TYPE_##family sym

/* A registry's view of its family: the entries in order, then NULL. */
#define WC_PLUGIN_LIST(family)                                                                     \
    extern const WC_PLUGIN_TYPE_##family *const wc_plugins_##family[];                             \
    extern const size_t wc_plugins_##family##_n

#endif
