/*
 * wl_pull.h - helpers the PolyBench and seed micro-benchmark workload tests
 * share: pull every instruction of a workload through the wc_source ops and
 * count launches and memory instructions, fetch the n-th memory instruction of
 * one warp, and check it against hand-derived fields.
 */
#ifndef WC_TEST_WL_PULL_H
#define WC_TEST_WL_PULL_H

#include "check.h"
#include "warpcache/workloads.h"

typedef struct wl_counts {
    uint64_t launches, ldg, stg, lds, sts, bar, alu, sfu, insts;
    uint64_t empty_masks; /* instructions issued with no active lane (must stay 0) */
} wl_counts;

/* Opens `spec`, runs every launch, block and warp to completion. */
static inline int wl_pull_all(const char *spec, wl_counts *c)
{
    wc_err err;
    memset(c, 0, sizeof *c);
    wc_source *src = wc_workload_open(spec, 1, &err);
    if (!src) {
        fprintf(stderr, "%s: %s\n", spec, err.msg);
        return -1;
    }
    wc_kernel k;
    wc_winst in;
    int rc;
    while ((rc = src->ops->next_kernel(src, &k, &err)) == 1) {
        c->launches++;
        uint64_t nb = wc_dim3_count(k.grid);
        uint32_t nw = wc_kernel_warps_per_block(&k);
        for (uint64_t b = 0; b < nb; b++) {
            void *blk;
            if (src->ops->open_block(src, b, &blk, &err) != 1) {
                wc_source_destroy(src);
                return -1;
            }
            for (uint32_t w = 0; w < nw; w++) {
                while ((rc = src->ops->next_inst(src, blk, w, &in, &err)) == 1) {
                    c->insts++;
                    if (!in.mask) c->empty_masks++;
                    switch (in.op) {
                    case WC_OP_LDG: c->ldg++; break;
                    case WC_OP_STG: c->stg++; break;
                    case WC_OP_LDS: c->lds++; break;
                    case WC_OP_STS: c->sts++; break;
                    case WC_OP_BAR: c->bar++; break;
                    case WC_OP_SFU: c->sfu++; break;
                    default: c->alu++; break;
                    }
                }
                if (rc < 0) {
                    fprintf(stderr, "%s: %s\n", spec, err.msg);
                    src->ops->close_block(src, blk);
                    wc_source_destroy(src);
                    return -1;
                }
            }
            src->ops->close_block(src, blk);
        }
    }
    wc_source_destroy(src);
    return rc < 0 ? -1 : 0;
}

/* The nth (0-based) LDG/STG of warp `warp` of block `block` of launch
 * `launch` (0-based); 0 on success.  `k` receives the launch. */
static inline int wl_nth_mem(const char *spec, uint32_t launch, uint64_t block, uint32_t warp,
                             uint64_t nth, wc_winst *out, wc_kernel *k)
{
    wc_err err;
    wc_source *src = wc_workload_open(spec, 1, &err);
    if (!src) {
        fprintf(stderr, "%s: %s\n", spec, err.msg);
        return -1;
    }
    int found = -1;
    for (uint32_t l = 0; l <= launch; l++)
        if (src->ops->next_kernel(src, k, &err) != 1) goto done;
    void *blk;
    if (src->ops->open_block(src, block, &blk, &err) != 1) goto done;
    uint64_t seen = 0;
    while (src->ops->next_inst(src, blk, warp, out, &err) == 1) {
        if (out->op != WC_OP_LDG && out->op != WC_OP_STG) continue;
        if (seen++ == nth) {
            found = 0;
            break;
        }
    }
    src->ops->close_block(src, blk);
done:
    wc_source_destroy(src);
    if (found)
        fprintf(stderr, "%s: launch %u block %llu warp %u mem %llu not found\n", spec, launch,
                (unsigned long long)block, warp, (unsigned long long)nth);
    return found;
}

/* Checks one memory instruction: op, base, stride, mask. */
#define CHECK_MEM(spec, launch, block, warp, nth, op_, base_, stride_, mask_)                      \
    do {                                                                                           \
        wc_winst in_;                                                                              \
        wc_kernel k_;                                                                              \
        CHECK(wl_nth_mem(spec, launch, block, warp, nth, &in_, &k_) == 0);                         \
        CHECK_EQ(in_.op, op_);                                                                     \
        CHECK_EQ(wc_winst_lane_addr(&in_, 0), (base_));                                            \
        CHECK_EQ(wc_winst_lane_addr(&in_, 1) - wc_winst_lane_addr(&in_, 0), (stride_));            \
        CHECK_EQ(in_.mask, (mask_));                                                               \
        CHECK_EQ(in_.width, 4);                                                                    \
    } while (0)

#define BASE0 0x10000000ull

/* First 4 KiB boundary at or after `end`. */
static inline uint64_t next_base(uint64_t base, uint64_t bytes)
{
    return (base + bytes + 4095) / 4096 * 4096;
}

#endif
