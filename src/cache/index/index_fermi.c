/*
 * index_fermi.c - the Fermi L1 set-index hash (GPGPU-Sim sif 'H'), as measured
 * on a GTX470 by seed 003 (../shared/papers/003_ffafd1cb931cbd21.txt) and
 * written down in ../shared/specs/formats.md, "Set-index functions":
 *
 *   set[4:0] = L[4:0] XOR (addr13, addr14, addr15, addr17, addr19)
 *   set[5]   = addr12                      (64 sets only)
 *
 * where L = addr >> log2(line) (addr[11:7] for the measured 128 B lines).  The
 * upper bits are absolute address bits, as measured; only 32 and 64 sets exist.
 */
#include "cache/index_impl.h"

/* (addr13, addr14, addr15, addr17, addr19) as bits 0..4: bits 13-15 move
 * together, then 17 and 19 each into place (one shift and mask per run). */
static uint32_t fermi_upper(uint64_t addr)
{
    return (uint32_t)(((addr >> 13) & 0x7) | ((addr >> 14) & 0x8) | ((addr >> 15) & 0x10));
}

static uint32_t fermi32_set(const wc_index *ix, uint64_t addr)
{
    return ((uint32_t)(addr >> ix->line_log2) & 31u) ^ fermi_upper(addr);
}

static uint32_t fermi64_set(const wc_index *ix, uint64_t addr)
{
    return fermi32_set(ix, addr) | (uint32_t)((addr >> 12) & 1) << 5;
}

static int wc_index_fermi_init(wc_index *ix, uint32_t nsets, uint32_t line_bytes, uint32_t poly,
                               wc_err *err)
{
    if (nsets != 32 && nsets != 64)
        return wc_errf(err, "fermi set index: %u sets (the Fermi hash exists for 32 or 64 sets)",
                       nsets);
    if (wc_index_base_init(ix, "fermi", nsets, line_bytes, err) < 0) return -1;
    ix->fn = nsets == 32 ? fermi32_set : fermi64_set;
    return 0;
}

const wc_index_desc wc_index_fermi = {"fermi", 'H', wc_index_fermi_init};
WC_PLUGIN(index, wc_index_fermi, 20);
