/*
 * ring.h - a growable ring of fixed-size entries, indexed from its head
 * (q[(head + k) & (cap - 1)], cap a power of two): the crossbars' input
 * queues (mem/xbar.c, mem/localxbar.c) keep their packets in one.  Only the
 * growth is shared; each queue indexes its own typed array inline.
 */
#ifndef WC_UTIL_RING_H
#define WC_UTIL_RING_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Makes room for `len + extra` entries of `size` bytes in the ring *q
 * (capacity *cap, first entry at *head), doubling from 64; the entries are
 * moved to the front in order.  -1 (ring unchanged) when out of memory. */
static inline int wc_ring_reserve(void **q, uint32_t *head, uint32_t *cap, uint32_t len,
                                  uint32_t extra, size_t size)
{
    uint32_t need = len + extra;
    if (need <= *cap) return 0;
    uint32_t c = *cap ? *cap * 2 : 64;
    while (c < need) c *= 2;
    unsigned char *n = malloc((size_t)c * size), *old = *q;
    if (!n) return -1;
    for (uint32_t k = 0; k < len; k++)
        memcpy(n + (size_t)k * size, old + (size_t)((*head + k) & (*cap - 1)) * size, size);
    free(old);
    *q = n;
    *head = 0;
    *cap = c;
    return 0;
}

#endif
