/*
 * leukocyte.c - Rodinia leukocyte (CUDA), seed 001's "LFK": detect white
 * blood cells in the first frame of an intravital video (GICOV_kernel, then
 * dilate_kernel), then track them over the following frames (IMGVF_kernel
 * once per frame).  Facts from Rodinia 3.1's public CUDA source; default
 * command line `leukocyte testfile.avi 10`.
 *
 * Frame: rows x cols = 219 x 640 (the video cropped to rows TOP=110 ..
 * BOTTOM=328), column-major gradients (element (r, c) at c*rows + r).
 *
 * GICOV_kernel<<<cols-44, rows-44>>>: thread (bx, tx) is pixel i = bx+22,
 * j = tx+22; for each of 7 circles (radius 10 + 2k) and 150 sample points
 * (theta = 2*pi*n/150, offsets tX = (int)(cos(theta)*r), tY = (int)(sin(theta)*r)
 * computed in double as the host does) it fetches grad_x and grad_y at
 * (i+tX)*rows + (j+tY), then stores gicov[i*rows + j].
 *
 * dilate_kernel<<<(int)(rows*cols/176.f + 0.5), 176>>>: thread t is
 * i = t % rows, j = t / rows; for el_i, el_j < 25 it fetches
 * img[x*rows + y] (y = i-12+el_i, x = j-12+el_j) when y and x are inside the
 * image and the disc of radius 12 covers (el_i, el_j), and stores
 * dilated[i*cols + j] (a transposed, uncoalesced store; the original has no
 * guard, so threads past rows*cols store past the image as it does).
 *
 * IMGVF_kernel<<<cells, 320>>> per tracked frame: each block owns one cell's
 * 41 x 81 sub-image (rows yc +- 2R, cols xc +- 4R, R = 10), m*n = 3321
 * elements in 11 chunks of 320; it copies the cell's IMGVF (contiguous, cell
 * after cell) into shared memory, iterates the vector-flow update in shared
 * memory reading I[idx] from global memory once per element per iteration,
 * reduces the change in shared memory, and copies IMGVF back.
 *
 * Arrays: 0 grad_x, 1 grad_y, 2 gicov, 3 img (the dilation input), 4 dilated,
 * 5 I (all cells), 6 IMGVF (all cells).
 *
 * Exact: every global access of the detection kernels, and the IMGVF
 * kernel's global accesses per iteration.  Approximated: the texture fetches
 * (tex1Dfetch) are global loads through the L1 here; the number of cells
 * (36) is assumed, as detection on the real video decides it; no cell is
 * clipped at the image border; IMGVF runs a fixed number of iterations
 * (default 20; the original stops at convergence, at most 500); ALU/SFU work
 * and the shared-memory reduction are emitted as counts.
 *
 * shared=0 (seed 004's "unshared" /U, 004_0fcfedff3b0ef5ba.txt section 4,
 * Table 3): IMGVF_kernel works on the cell's IMGVF in global memory (array
 * 6) instead of its shared copy: the copy in and the copy back go; each
 * iteration's 9 neighbour reads are global loads of IMGVF at the element
 * and its N, S, W, E, NE, NW, SE, SW neighbours in the 41 x 81 sub-image
 * (row-major, clamped at its edges as the kernel clamps), the update is
 * stored to IMGVF at the element; the total_diff reduction's scratch is a
 * per-cell global array of 320 (array 7) at the thread's index, its shared
 * accesses one for one global.  The barriers stay.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "workloads/gen.h"

#define LK_NPOINTS       150
#define LK_NCIRCLES      7
#define LK_MAXR          22 /* MAX_RAD + 2 */
#define LK_STREL         25
#define LK_DIL_THREADS   176
#define LK_IMGVF_THREADS 320
#define LK_CELL_M        41
#define LK_CELL_N        81

typedef struct lk_ctx {
    uint64_t rows, cols, frames, cells, iterations;
    bool unshared; /* shared=0: leukocyte/U */
    int tx[LK_NCIRCLES * LK_NPOINTS], ty[LK_NCIRCLES * LK_NPOINTS];
    bool strel[LK_STREL][LK_STREL];
    uint64_t dil_blocks;
} lk_ctx;

static void lk_sfu(wc_winst *o, uint64_t pc, uint32_t mask)
{
    wc_gen_alu(o, pc, mask, 3, 2, WC_REG_NONE);
    o->op = WC_OP_SFU;
}

/* Lanes that exist (w->live is a mask: the last warp of a block may be partial). */
static uint32_t live_mask(const wc_gen_warp *w)
{
    return w->live;
}

/* ---- GICOV_kernel ------------------------------------------------------ */

/* Sample point p (circle*150 + n) of lane 0 of warp w: lanes add 4 B each. */
static uint64_t gicov_addr(const lk_ctx *c, const wc_gen_warp *w, int64_t p, unsigned array)
{
    int64_t i = (int64_t)w->bid.x + LK_MAXR, j = (int64_t)w->warp * WC_WARP_SIZE + LK_MAXR;
    int64_t e = (i + c->tx[p]) * (int64_t)c->rows + (j + c->ty[p]);
    return WC_GEN_REGION(array) + (uint64_t)e * 4;
}

static int gicov_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const lk_ctx *c = gk->arg;
    uint32_t m = live_mask(w);
    WC_CO_BEGIN(w);
    for (w->v[0] = 0; w->v[0] < LK_NCIRCLES; w->v[0]++) {
        for (w->v[1] = 0; w->v[1] < LK_NPOINTS; w->v[1]++) {
            w->v[2] = w->v[0] * LK_NPOINTS + w->v[1];
            WC_CO_EMIT(w,
                       wc_gen_mem(o, 0x10, WC_OP_LDG, m, 4, 1, 4, gicov_addr(c, w, w->v[2], 0), 4));
            w->v[2] = w->v[0] * LK_NPOINTS + w->v[1];
            WC_CO_EMIT(w,
                       wc_gen_mem(o, 0x18, WC_OP_LDG, m, 5, 1, 4, gicov_addr(c, w, w->v[2], 1), 4));
            /* p = gx*cos + gy*sin; sum; delta; mean; M2 */
            for (w->v[3] = 0; w->v[3] < 8; w->v[3]++)
                WC_CO_EMIT(w, wc_gen_alu(o, 0x20, m, 6, 4 + (unsigned)(w->v[3] % 2), 6));
        }
        WC_CO_EMIT(w, lk_sfu(o, 0x28, m)); /* mean*mean/var */
        for (w->v[3] = 0; w->v[3] < 4; w->v[3]++) WC_CO_EMIT(w, wc_gen_alu(o, 0x30, m, 7, 6, 3));
    }
    WC_CO_EMIT(
        w, wc_gen_mem(o, 0x38, WC_OP_STG, m, 7, 1, 4,
                      WC_GEN_REGION(2) +
                          ((w->bid.x + LK_MAXR) * c->rows + (uint64_t)w->warp * 32 + LK_MAXR) * 4,
                      4));
    WC_CO_END(w);
}

/* ---- dilate_kernel ----------------------------------------------------- */

/* Lanes fetching structuring-element cell (ei, ej), with their addresses;
 * ej < 0 gives the lanes passing the row guard only. */
static uint32_t dil_lanes(const lk_ctx *c, const wc_gen_warp *w, int64_t ei, int64_t ej,
                          uint64_t *addr)
{
    uint32_t mask = 0, live = live_mask(w);
    int64_t m = (int64_t)c->rows, n = (int64_t)c->cols;
    for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
        if (!(live >> l & 1u)) continue;
        int64_t t = (int64_t)w->bid.x * LK_DIL_THREADS + (int64_t)w->warp * WC_WARP_SIZE + l;
        int64_t i = t % m, j = t / m, y = i - LK_STREL / 2 + ei;
        if (y < 0 || y >= m) continue;
        if (ej < 0) {
            mask |= 1u << l;
            continue;
        }
        int64_t x = j - LK_STREL / 2 + ej;
        if (x < 0 || x >= n || !c->strel[ei][ej]) continue;
        mask |= 1u << l;
        if (addr) addr[l] = WC_GEN_REGION(3) + (uint64_t)(x * m + y) * 4;
    }
    return mask;
}

static void dil_fetch(wc_winst *o, const lk_ctx *c, const wc_gen_warp *w, int64_t ei, int64_t ej)
{
    uint64_t addr[WC_WARP_SIZE];
    uint32_t mask = dil_lanes(c, w, ei, ej, addr);
    wc_gen_mem_list(o, 0x50, WC_OP_LDG, mask, 4, 1, 4);
    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
        if (mask >> l & 1u) o->addr[l] = addr[l];
}

static void dil_store(wc_winst *o, const lk_ctx *c, const wc_gen_warp *w)
{
    uint32_t mask = live_mask(w);
    wc_gen_mem_list(o, 0x60, WC_OP_STG, mask, 5, 1, 4);
    for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
        uint64_t t = w->bid.x * LK_DIL_THREADS + (uint64_t)w->warp * WC_WARP_SIZE + l;
        if (mask >> l & 1u)
            o->addr[l] = WC_GEN_REGION(4) + ((t % c->rows) * c->cols + t / c->rows) * 4;
    }
}

static int dilate_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const lk_ctx *c = gk->arg;
    WC_CO_BEGIN(w);
    for (w->v[0] = 0; w->v[0] < LK_STREL; w->v[0]++) {
        if (!dil_lanes(c, w, w->v[0], -1, NULL)) continue;
        for (w->v[1] = 0; w->v[1] < LK_STREL; w->v[1]++) {
            if (!dil_lanes(c, w, w->v[0], w->v[1], NULL)) continue;
            WC_CO_EMIT(w, dil_fetch(o, c, w, w->v[0], w->v[1]));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x58, dil_lanes(c, w, w->v[0], w->v[1], NULL), 5, 4, 5));
        }
    }
    WC_CO_EMIT(w, dil_store(o, c, w));
    WC_CO_END(w);
}

/* ---- IMGVF_kernel ------------------------------------------------------ */

/* Lanes of warp w whose element idx = tid + chunk*320 is inside the cell. */
static uint32_t imgvf_mask(const wc_gen_warp *w, int64_t chunk)
{
    uint64_t first = (uint64_t)chunk * LK_IMGVF_THREADS + (uint64_t)w->warp * WC_WARP_SIZE;
    return wc_gen_mask_below(first, LK_CELL_M * LK_CELL_N);
}

static uint64_t imgvf_addr(const wc_gen_warp *w, int64_t chunk, unsigned array)
{
    uint64_t idx = (uint64_t)chunk * LK_IMGVF_THREADS + (uint64_t)w->warp * WC_WARP_SIZE;
    return WC_GEN_REGION(array) + (w->bid.x * LK_CELL_M * LK_CELL_N + idx) * 4;
}

#define LK_CHUNKS ((LK_CELL_M * LK_CELL_N + LK_IMGVF_THREADS - 1) / LK_IMGVF_THREADS)

/* /U: neighbour k (0 the element, then N, S, W, E, NE, NW, SE, SW) of each
 * lane's element in the row-major 41 x 81 sub-image, clamped at its edges. */
static void imgvf_u_nbr(wc_winst *o, const wc_gen_warp *w, int64_t chunk, uint32_t mask, int k)
{
    static const int8_t di[9] = {0, -1, 1, 0, 0, -1, -1, 1, 1};
    static const int8_t dj[9] = {0, 0, 0, -1, 1, 1, -1, 1, -1};
    wc_gen_mem_list(o, 0xa0, WC_OP_LDG, mask, 5, 1, 4);
    for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
        int64_t idx = chunk * LK_IMGVF_THREADS + (int64_t)w->warp * WC_WARP_SIZE + l;
        int64_t i = idx / LK_CELL_N + di[k], j = idx % LK_CELL_N + dj[k];
        i = i < 0 ? 0 : i >= LK_CELL_M ? LK_CELL_M - 1 : i;
        j = j < 0 ? 0 : j >= LK_CELL_N ? LK_CELL_N - 1 : j;
        o->addr[l] = WC_GEN_REGION(6) +
                     (w->bid.x * LK_CELL_M * LK_CELL_N + (uint64_t)(i * LK_CELL_N + j)) * 4;
    }
}

/* /U: the reduction scratch at the thread's index (array 7, 320 per cell). */
static void imgvf_u_scratch(wc_winst *o, const wc_gen_warp *w, uint64_t pc, wc_opclass op)
{
    wc_gen_mem(
        o, pc, op, 0xffffffffu, op == WC_OP_LDG ? 5 : 6, 1, 4,
        WC_GEN_REGION(7) + (w->bid.x * LK_IMGVF_THREADS + (uint64_t)w->warp * WC_WARP_SIZE) * 4, 4);
}

/* IMGVF_kernel/U: as imgvf_next, on IMGVF in global memory. */
static int imgvf_u_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const lk_ctx *c = gk->arg;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_bar(o, 0x98));
    for (w->v[1] = 0; w->v[1] < (int64_t)c->iterations; w->v[1]++) {
        for (w->v[0] = 0; w->v[0] < LK_CHUNKS; w->v[0]++) {
            w->v[2] = imgvf_mask(w, w->v[0]);
            if (w->v[2]) {
                for (w->v[3] = 0; w->v[3] < 9; w->v[3]++)
                    WC_CO_EMIT(w, imgvf_u_nbr(o, w, w->v[0], (uint32_t)w->v[2], (int)w->v[3]));
                for (w->v[3] = 0; w->v[3] < 8; w->v[3]++) {
                    WC_CO_EMIT(w, lk_sfu(o, 0xa8, (uint32_t)w->v[2]));
                    WC_CO_EMIT(w, wc_gen_alu(o, 0xb0, (uint32_t)w->v[2], 6, 5, 3));
                }
                WC_CO_EMIT(w, wc_gen_mem(o, 0xb8, WC_OP_LDG, (uint32_t)w->v[2], 7, 1, 4,
                                         imgvf_addr(w, w->v[0], 5), 4));
                WC_CO_EMIT(w, wc_gen_alu(o, 0xc0, (uint32_t)w->v[2], 6, 6, 7));
                WC_CO_EMIT(w, wc_gen_mem(o, 0xc8, WC_OP_STG, (uint32_t)w->v[2], 6, 1, 4,
                                         imgvf_addr(w, w->v[0], 6), 4));
            }
            WC_CO_EMIT(w, wc_gen_bar(o, 0xd0));
        }
        WC_CO_EMIT(w, imgvf_u_scratch(o, w, 0xd8, WC_OP_STG));
        WC_CO_EMIT(w, wc_gen_bar(o, 0xe0));
        for (w->v[3] = 0; w->v[3] < 9; w->v[3]++) {
            WC_CO_EMIT(w, imgvf_u_scratch(o, w, 0xe8, WC_OP_LDG));
            WC_CO_EMIT(w, imgvf_u_scratch(o, w, 0xf0, WC_OP_STG));
            WC_CO_EMIT(w, wc_gen_bar(o, 0xf8));
        }
        WC_CO_EMIT(w, wc_gen_bar(o, 0x100));
    }
    WC_CO_END(w);
}

static int imgvf_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const lk_ctx *c = gk->arg;
    uint32_t m;
    WC_CO_BEGIN(w);
    for (w->v[0] = 0; w->v[0] < LK_CHUNKS; w->v[0]++) {
        m = imgvf_mask(w, w->v[0]);
        if (!m) continue;
        WC_CO_EMIT(w, wc_gen_mem(o, 0x80, WC_OP_LDG, m, 4, 1, 4, imgvf_addr(w, w->v[0], 6), 4));
        m = imgvf_mask(w, w->v[0]);
        WC_CO_EMIT(w, wc_gen_mem(o, 0x88, WC_OP_STS, m, 4, WC_REG_NONE, 4, 0, 4));
    }
    WC_CO_EMIT(w, wc_gen_bar(o, 0x90));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x98));
    for (w->v[1] = 0; w->v[1] < (int64_t)c->iterations; w->v[1]++) {
        for (w->v[0] = 0; w->v[0] < LK_CHUNKS; w->v[0]++) {
            w->v[2] = imgvf_mask(w, w->v[0]);
            if (w->v[2]) {
                /* 9 neighbour reads, 8 heavisides (atan: SFU), the update */
                for (w->v[3] = 0; w->v[3] < 9; w->v[3]++)
                    WC_CO_EMIT(w, wc_gen_mem(o, 0xa0, WC_OP_LDS, (uint32_t)w->v[2], 5, WC_REG_NONE,
                                             4, 0, 4));
                for (w->v[3] = 0; w->v[3] < 8; w->v[3]++) {
                    WC_CO_EMIT(w, lk_sfu(o, 0xa8, (uint32_t)w->v[2]));
                    WC_CO_EMIT(w, wc_gen_alu(o, 0xb0, (uint32_t)w->v[2], 6, 5, 3));
                }
                WC_CO_EMIT(w, wc_gen_mem(o, 0xb8, WC_OP_LDG, (uint32_t)w->v[2], 7, 1, 4,
                                         imgvf_addr(w, w->v[0], 5), 4));
                WC_CO_EMIT(w, wc_gen_alu(o, 0xc0, (uint32_t)w->v[2], 6, 6, 7));
                WC_CO_EMIT(
                    w, wc_gen_mem(o, 0xc8, WC_OP_STS, (uint32_t)w->v[2], 6, WC_REG_NONE, 4, 0, 4));
            }
            WC_CO_EMIT(w, wc_gen_bar(o, 0xd0));
        }
        /* total_diff reduction over 320 threads: 9 halving steps */
        WC_CO_EMIT(w, wc_gen_mem(o, 0xd8, WC_OP_STS, 0xffffffffu, 6, WC_REG_NONE, 4, 0, 4));
        WC_CO_EMIT(w, wc_gen_bar(o, 0xe0));
        for (w->v[3] = 0; w->v[3] < 9; w->v[3]++) {
            WC_CO_EMIT(w, wc_gen_mem(o, 0xe8, WC_OP_LDS, 0xffffffffu, 5, WC_REG_NONE, 4, 0, 4));
            WC_CO_EMIT(w, wc_gen_mem(o, 0xf0, WC_OP_STS, 0xffffffffu, 5, WC_REG_NONE, 4, 0, 4));
            WC_CO_EMIT(w, wc_gen_bar(o, 0xf8));
        }
        WC_CO_EMIT(w, wc_gen_bar(o, 0x100));
    }
    for (w->v[0] = 0; w->v[0] < LK_CHUNKS; w->v[0]++) {
        m = imgvf_mask(w, w->v[0]);
        if (!m) continue;
        WC_CO_EMIT(w, wc_gen_mem(o, 0x108, WC_OP_LDS, m, 4, WC_REG_NONE, 4, 0, 4));
        m = imgvf_mask(w, w->v[0]);
        WC_CO_EMIT(w, wc_gen_mem(o, 0x110, WC_OP_STG, m, 4, 1, 4, imgvf_addr(w, w->v[0], 6), 4));
    }
    WC_CO_END(w);
}

/* ---- program ----------------------------------------------------------- */

static int lk_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    lk_ctx *c = ctx;
    if (idx >= 2 + c->frames) return 0;
    out->arg = c;
    out->k.regs_per_thread = 32;
    if (idx == 0) {
        snprintf(out->k.name, sizeof out->k.name, "GICOV_kernel");
        out->k.grid = (wc_dim3){(uint32_t)(c->cols - 2 * LK_MAXR), 1, 1};
        out->k.block = (wc_dim3){(uint32_t)(c->rows - 2 * LK_MAXR), 1, 1};
        out->next = gicov_next;
    } else if (idx == 1) {
        snprintf(out->k.name, sizeof out->k.name, "dilate_kernel");
        out->k.grid = (wc_dim3){(uint32_t)c->dil_blocks, 1, 1};
        out->k.block = (wc_dim3){LK_DIL_THREADS, 1, 1};
        out->next = dilate_next;
    } else {
        snprintf(out->k.name, sizeof out->k.name, "IMGVF_kernel");
        out->k.grid = (wc_dim3){(uint32_t)c->cells, 1, 1};
        out->k.block = (wc_dim3){LK_IMGVF_THREADS, 1, 1};
        out->k.shmem_bytes = c->unshared ? 0 : (LK_CELL_M * LK_CELL_N + LK_IMGVF_THREADS + 1) * 4;
        out->next = c->unshared ? imgvf_u_next : imgvf_next;
    }
    return 1;
}

/* The host's stencil tables (find_ellipse.c), in the same double arithmetic. */
static void lk_tables(lk_ctx *c)
{
    for (int k = 0; k < LK_NCIRCLES; k++) {
        double rad = 10.0 + 2.0 * k;
        for (int n = 0; n < LK_NPOINTS; n++) {
            double theta = (double)n * 2.0 * M_PI / (double)LK_NPOINTS;
            c->tx[k * LK_NPOINTS + n] = (int)(cos(theta) * rad);
            c->ty[k * LK_NPOINTS + n] = (int)(sin(theta) * rad);
        }
    }
    for (int i = 0; i < LK_STREL; i++)
        for (int j = 0; j < LK_STREL; j++)
            c->strel[i][j] = sqrtf((float)((i - 12) * (i - 12) + (j - 12) * (j - 12))) <= 12.0f;
}

static wc_source *open_leukocyte(wc_params *p, uint64_t seed, wc_err *err)
{
    lk_ctx *c = calloc(1, sizeof *c);
    uint64_t shared = 1;
    if (!c) {
        wc_errf(err, "leukocyte: out of memory");
        return NULL;
    }
    /* rows - 44 threads per GICOV block: at most 1024 */
    if (wc_params_u64(p, "rows", 219, 2 * LK_MAXR + 1, 2 * LK_MAXR + 1024, &c->rows, err) < 0 ||
        wc_params_u64(p, "cols", 640, 2 * LK_MAXR + 1, 1u << 16, &c->cols, err) < 0 ||
        wc_params_u64(p, "frames", 10, 0, 10000, &c->frames, err) < 0 ||
        wc_params_u64(p, "cells", 36, 1, 1u << 16, &c->cells, err) < 0 ||
        wc_params_u64(p, "iterations", 20, 1, 500, &c->iterations, err) < 0 ||
        wc_params_u64(p, "shared", 1, 0, 1, &shared, err) < 0) {
        free(c);
        return NULL;
    }
    c->unshared = shared == 0;
    lk_tables(c);
    c->dil_blocks = (uint64_t)((float)(c->rows * c->cols) / (float)LK_DIL_THREADS + 0.5f);
    wc_gen_program prog = {.ctx = c, .kernel = lk_kernel, .destroy = free};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_rodinia_leukocyte = {
    .name = "rodinia/leukocyte",
    .suite = "rodinia",
    .kernels = "GICOV_kernel, dilate_kernel, IMGVF_kernel x frames",
    .size = "rows=219 cols=640 frames=10 cells=36 iterations=20",
    .classes = "001:CI",
    .help = "Rodinia leukocyte (seed 001 LFK); rows, cols (cropped frame), frames (tracked), "
            "cells, iterations (IMGVF iterations per frame), shared (0: seed 004's unshared /U, "
            "IMGVF in global memory)",
    .open = open_leukocyte,
};
WC_PLUGIN(workload, wc_wl_rodinia_leukocyte, 440);
