/*
 * l1_impl.h - the L1 organisations the registry (l1_registry.c) lists.
 * Private to src/cache/.
 */
#ifndef WC_CACHE_L1_IMPL_H
#define WC_CACHE_L1_IMPL_H

#include "warpcache/cache.h"

extern const wc_l1_ops wc_l1_conventional;

#endif
