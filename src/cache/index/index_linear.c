/*
 * index_linear.c - the linear set index (GPGPU-Sim sif 'L'): the low bits of
 * the line address, L mod S.  See ../shared/specs/formats.md,
 * "Set-index functions".
 */
#include "cache/index_impl.h"

static uint32_t linear_set(const wc_index *ix, uint64_t addr)
{
    return (uint32_t)(addr >> ix->line_log2) & (ix->nsets - 1);
}

static int wc_index_linear_init(wc_index *ix, uint32_t nsets, uint32_t line_bytes, uint32_t poly,
                                wc_err *err)
{
    if (wc_index_check_pow2_sets("linear", nsets, err) < 0) return -1;
    if (wc_index_base_init(ix, "linear", nsets, line_bytes, err) < 0) return -1;
    ix->fn = linear_set;
    return 0;
}

const wc_index_desc wc_index_linear = {"linear", 'L', wc_index_linear_init};
WC_PLUGIN(index, wc_index_linear, 10);
