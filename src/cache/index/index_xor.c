/*
 * index_xor.c - the bitwise-xor set index (GPGPU-Sim sif 'X'): the low log2(S)
 * bits of the line address XOR the next log2(S) bits,
 * (L mod S) XOR ((L / S) mod S).  See ../shared/specs/formats.md,
 * "Set-index functions".
 */
#include "cache/index_impl.h"

static uint32_t xor_set(const wc_index *ix, uint64_t addr)
{
    uint64_t line = addr >> ix->line_log2;
    uint32_t mask = ix->nsets - 1;
    /* poly holds log2(S) here: the shift to the second field (no division). */
    return (uint32_t)(line ^ (line >> ix->poly)) & mask;
}

static int wc_index_xor_init(wc_index *ix, uint32_t nsets, uint32_t line_bytes, uint32_t poly,
                             wc_err *err)
{
    if (wc_index_check_pow2_sets("xor", nsets, err) < 0) return -1;
    if (wc_index_base_init(ix, "xor", nsets, line_bytes, err) < 0) return -1;
    ix->poly = wc_log2(nsets);
    ix->fn = xor_set;
    return 0;
}

const wc_index_desc wc_index_xor = {"xor", 'X', wc_index_xor_init};
WC_PLUGIN(index, wc_index_xor, 40);
