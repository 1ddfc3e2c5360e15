/*
 * pbypass_profile.h - the reference-count profile of seed 001's
 * Profiled-BYPASS (../shared/papers/001_94c1440347ca7d61.txt, section 5):
 * a profiling run counts, for every L1 line, how often each SM's L1 was
 * asked for it (the "local", intra-SM count) and how often any SM was (the
 * "global", kernel-wide count), per kernel launch; a second run bypasses the
 * lines whose count is under a threshold (the "profiled-bypass" L1
 * organisation, profiled_bypass.c).  `warpcache oracle profiled-bypass`
 * (src/cli/cmd_oracle.c) runs both passes and searches the threshold; the
 * second pass hands the profile over with wc_sim_set_l1_data.
 *
 * Recording is an L1 listener (on_access) added to the profiling run's
 * wc_sim; nothing else of that run changes, so it is also the baseline run.
 * The profile is read-only once recorded: the runs of the second pass share
 * one profile across threads.  Entries are unlimited, as in the paper.
 */
#ifndef WC_CACHE_PBYPASS_PROFILE_H
#define WC_CACHE_PBYPASS_PROFILE_H

#include "warpcache/cache.h"

typedef struct wc_pbypass_profile wc_pbypass_profile;

/* The three filters of section 5.  LOCAL: SM s caches line L of kernel k
 * when its own count of (k, L) reaches the threshold.  GLOBAL: when the
 * kernel-wide count does.  LOCAL_GLOBAL: the SM's own count when the SM
 * asked for the line in the profiling run, else the kernel-wide count (the
 * block that reused it there may run on this SM now: the paper's reason for
 * combining them). */
enum { WC_PB_LOCAL = 0, WC_PB_GLOBAL = 1, WC_PB_LOCAL_GLOBAL = 2, WC_PB__FILTERS };

/* "local", "global", "local+global". */
const char *wc_pbypass_filter_name(int filter);

wc_pbypass_profile *wc_pbypass_profile_create(void);
void wc_pbypass_profile_destroy(wc_pbypass_profile *p);

/* Counts one read of line `line` by SM `sm` in kernel launch `kernel`
 * (local and global count).  -1 when out of memory (the profile is then
 * incomplete: wc_pbypass_profile_failed says so). */
int wc_pbypass_profile_count(wc_pbypass_profile *p, uint32_t kernel, unsigned sm, uint64_t line);
bool wc_pbypass_profile_failed(const wc_pbypass_profile *p);

/* The counts recorded for (kernel, sm, line) and (kernel, line); 0 if none. */
uint32_t wc_pbypass_local(const wc_pbypass_profile *p, uint32_t kernel, unsigned sm, uint64_t line);
uint32_t wc_pbypass_global(const wc_pbypass_profile *p, uint32_t kernel, uint64_t line);
/* Distinct (kernel, line) pairs recorded. */
uint64_t wc_pbypass_lines(const wc_pbypass_profile *p);

/* Whether a read of `line` by SM `sm` in `kernel` bypasses the L1: its count
 * under `filter` is below `threshold`. */
bool wc_pbypass_decide(const wc_pbypass_profile *p, int filter, unsigned threshold, uint32_t kernel,
                       unsigned sm, uint64_t line);

/* A listener that records every accepted read (reservation fails are
 * retried and counted once; writes and atomics are not counted) of every
 * SM's L1 into p.  Add it with wc_sim_add_l1_listener. */
wc_l1_listener wc_pbypass_recorder(wc_pbypass_profile *p);

#endif
