/*
 * l1_impl.h - what the L1 organisations export besides their registration
 * (tests name some of them directly).  Private to src/cache/.
 */
#ifndef WC_CACHE_L1_IMPL_H
#define WC_CACHE_L1_IMPL_H

#include "warpcache/cache.h"

extern const wc_l1_ops wc_l1_conventional, wc_l1_dl1d_static, wc_l1_ball;
extern const wc_l1_ops wc_l1_profiled_bypass; /* seed 001, run by `oracle profiled-bypass` */
extern const wc_l1_ops wc_l1_tsc, wc_l1_dsc, wc_l1_tscplus; /* seed 000 */

/* For tests (decoupled_l1d.c): the RC and data way (-1: none) of line `tag`
 * in a dl1d-static L1; false when its tag store holds no entry for it. */
bool wc_dl1d_entry(const wc_l1 *l1, uint64_t tag, unsigned *rc, int *pos);

#endif
