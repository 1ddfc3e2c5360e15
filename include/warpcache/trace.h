/*
 * trace.h - the in-memory model of a GPU program as warpcache sees it, and the
 * `wc_source_ops` seam through which every producer of instructions (trace
 * readers, built-in workload generators) feeds the simulator and the
 * reuse-distance model.
 *
 * A source is pulled, never materialised: the engine asks for the next kernel
 * launch, opens thread blocks as it dispatches them (in increasing linear
 * block id, x fastest), and pulls one warp instruction at a time per warp.
 * Memory use is therefore bounded by what the source needs per open block.
 */
#ifndef WARPCACHE_TRACE_H
#define WARPCACHE_TRACE_H

#include "warpcache/common.h"

#define WC_WARP_SIZE 32
#define WC_MAX_DST   2
#define WC_MAX_SRC   6
#define WC_REG_NONE  0xffffu

/* Operation classes.  Order matters only for the stats tables. */
typedef enum wc_opclass {
    WC_OP_ALU = 0, /* integer / fp pipeline */
    WC_OP_SFU,     /* special-function unit (longer latency) */
    WC_OP_LDG,     /* global load (also texture/constant-through-L1 loads) */
    WC_OP_STG,     /* global store */
    WC_OP_LDL,     /* local load (register spills, per-thread stack) */
    WC_OP_STL,     /* local store */
    WC_OP_LDS,     /* shared-memory load (does not touch L1D) */
    WC_OP_STS,     /* shared-memory store */
    WC_OP_ATOM,    /* global atomic / reduction: performed at L2 */
    WC_OP_BAR,     /* block-wide barrier (__syncthreads) */
    WC_OP_EXIT,    /* warp finished (optional: end of stream means the same) */
    WC_OP__COUNT
} wc_opclass;

const char *wc_opclass_name(wc_opclass op);

static inline bool wc_op_is_mem(unsigned op)
{
    return op >= WC_OP_LDG && op <= WC_OP_ATOM;
}
/* Goes through the L1 data cache / memory system (not shared memory). */
static inline bool wc_op_is_gmem(unsigned op)
{
    return (op >= WC_OP_LDG && op <= WC_OP_STL) || op == WC_OP_ATOM;
}
static inline bool wc_op_is_load(unsigned op)
{
    return op == WC_OP_LDG || op == WC_OP_LDL || op == WC_OP_LDS || op == WC_OP_ATOM;
}
static inline bool wc_op_is_store(unsigned op)
{
    return op == WC_OP_STG || op == WC_OP_STL || op == WC_OP_STS;
}

/* How per-lane addresses are stored. */
enum wc_addr_mode {
    WC_ADDR_NONE = 0, /* not a memory instruction */
    WC_ADDR_STRIDE,   /* lane l (lane index, 0..31) = base + l * stride */
    WC_ADDR_LIST      /* lane l = addr[l], meaningful for active lanes only */
};

/* Instruction flags. */
enum {
    WC_INST_NO_L1_ALLOC = 1u << 0, /* .STRONG.GPU loads, atomics: never allocate in L1 */
    WC_INST_VOLATILE = 1u << 1
};

/* One dynamic warp instruction. */
typedef struct wc_winst {
    uint64_t pc;
    uint32_t mask; /* active (and predicated-on) lanes */
    uint8_t op;    /* wc_opclass */
    uint8_t width; /* bytes per lane for memory ops (1,2,4,8,16), 0 otherwise */
    uint8_t flags; /* WC_INST_* */
    uint8_t amode; /* wc_addr_mode */
    uint8_t ndst, nsrc;
    uint16_t dst[WC_MAX_DST];
    uint16_t src[WC_MAX_SRC];
    uint64_t base;               /* WC_ADDR_STRIDE */
    int64_t stride;              /* WC_ADDR_STRIDE */
    uint64_t addr[WC_WARP_SIZE]; /* WC_ADDR_LIST, indexed by lane */
} wc_winst;

/* Address of lane l of a memory instruction (any mode).  The stride product
 * is taken modulo 2^64 (unsigned): a corrupt trace's stride near 2^63 must
 * wrap like the address arithmetic, not overflow a signed multiply. */
static inline uint64_t wc_winst_lane_addr(const wc_winst *in, unsigned lane)
{
    return in->amode == WC_ADDR_STRIDE ? in->base + (uint64_t)lane * (uint64_t)in->stride
                                       : in->addr[lane];
}

/* Resets an instruction to an ALU op with no registers and a full mask. */
void wc_winst_clear(wc_winst *in);

/* A kernel launch. */
typedef struct wc_kernel {
    char name[256];
    uint32_t id; /* 1-based launch number within the source */
    wc_dim3 grid, block;
    uint32_t shmem_bytes;     /* static + dynamic shared memory per block */
    uint32_t regs_per_thread; /* 0 = unknown (not an occupancy limit) */
} wc_kernel;

/* Threads per block, saturated at UINT32_MAX (a corrupt trace may claim more). */
static inline uint32_t wc_kernel_threads_per_block(const wc_kernel *k)
{
    uint64_t n = wc_dim3_count(k->block);
    return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}
static inline uint32_t wc_kernel_warps_per_block(const wc_kernel *k)
{
    return (uint32_t)(((uint64_t)wc_kernel_threads_per_block(k) + WC_WARP_SIZE - 1) / WC_WARP_SIZE);
}

typedef struct wc_source wc_source;

/*
 * The source seam.  Return conventions: 1 = produced something, 0 = end,
 * -1 = error (err filled with "file:line: reason").
 */
typedef struct wc_source_ops {
    const char *name;
    /* Next kernel launch in program order. */
    int (*next_kernel)(wc_source *src, wc_kernel *k, wc_err *err);
    /* Opens block `block_id` (linear, x fastest) of the current kernel.  Blocks
     * are opened in increasing id order; several may be open at once. */
    int (*open_block)(wc_source *src, uint64_t block_id, void **block, wc_err *err);
    /* Next instruction of warp `warp` (0-based in the block). 0 = warp done. */
    int (*next_inst)(wc_source *src, void *block, uint32_t warp, wc_winst *out, wc_err *err);
    void (*close_block)(wc_source *src, void *block);
    void (*destroy)(wc_source *src);
} wc_source_ops;

/* Every source embeds this as its first member. */
struct wc_source {
    const wc_source_ops *ops;
};

static inline void wc_source_destroy(wc_source *src)
{
    if (src) src->ops->destroy(src);
}

#endif
