/*
 * invertedindex.c - Inverted Index of the Mars MapReduce framework on GPUs
 * (He et al.), seed 002's "IIX" (Table 2, thrashing; the seed adopts it from
 * "MapReduce [16]").  Facts from Mars' public source (MarsLib.cu and the
 * InvertedIndex sample's main.cu and map.cu).
 *
 * The host splits the HTML input into records: from each offset it skips
 * 1024 bytes, then to the end of that line (so a record is a little over
 * 1024 bytes).  Mars runs one record per thread (DEFAULT_NUMTASK 1) in blocks
 * of 256 (DEFAULT_DIMBLOCK), in two map kernels:
 *   MapperCount: thread i loads inputOffsetSizes[i] (int4), then map_count
 *     loads its key's file_buf pointer and its value's block_offset and
 *     block_size, and scans buf[j] for j < block_size, one byte at a time,
 *     through a small state machine that recognises `<a href="URL"`; for
 *     every link EmitInterCount adds to interKeysSizePerTask[i],
 *     interValsSizePerTask[i] and interCountPerTask[i] (3 read-modify-writes).
 *   (prefix sums of the three arrays on the GPU)
 *   Mapper: thread i loads psCounts[i], interOffsetSizes[psCounts[i]],
 *     psKeySizes[i] and psValSizes[i], stores interOffsetSizes[psCounts[i]],
 *     loads its record as above and scans it again; for every link it stores
 *     pKey->url_offset and EmitIntermediate copies the 16-byte key and the
 *     4-byte value byte by byte to interKeys/interVals at this thread's
 *     prefix-sum position, updates keyValOffsets[i], reads curIndex[i] and
 *     psCounts[i] and two interOffsetSizes entries, and writes one of them
 *     and curIndex[i].
 * Lanes read bytes about 1 KB apart, so a warp's byte load touches 32 lines
 * and each thread walks its own lines (intra-thread locality that the 16 KB
 * L1 cannot hold for all warps: thrashing).  Arrays: 0 text, 1 input keys
 * (16 B), 2 input values (12 B), 3 inputOffsetSizes, 4-6 the per-task
 * counts, 7-9 their prefix sums, 10 keyValOffsets, 11 interKeys,
 * 12 interVals, 13 interOffsetSizes, 14 curIndex.
 *
 * Approximated: the text is synthetic: each record has `record` bytes plus
 * a seeded 1..96-byte line end, and each of its 64-byte segments holds a
 * link with probability `links`/100 (default 25, our choice), whose URL
 * starts at offset 17 of the segment; every byte is read once and lanes scan
 * in lockstep (the real URL scan is an inner loop of the linking lanes, and
 * the "href" check re-reads 4 bytes); ALU work is 3 instructions per byte;
 * the __syncthreads() inside EmitIntermediate (divergent code) is not
 * emitted; the prefix sums and the group (sort) stage of the MAP_GROUP
 * workflow are not generated; the input size (`bytes`, default 16 MiB) is
 * ours.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/rng.h"
#include "workloads/gen.h"

#define II_BLOCK    256u
#define II_SEG      64u /* bytes per synthetic segment */
#define II_URL      17u /* offset of a URL in its segment */
#define II_KEY      16u /* sizeof(II_KEY_T) */
#define II_VAL      4u  /* sizeof(int) file id */
#define II_BYTE_ALU 3

typedef struct ii_prog {
    uint64_t records, links_pct, seed;
    uint64_t *off;  /* record offsets, records + 1 entries */
    uint64_t *prev; /* links in earlier records (prefix sum), records + 1 entries */
} ii_prog;

static uint64_t ii_hash(uint64_t seed, uint64_t a, uint64_t b)
{
    uint64_t s = seed ^ (a * 0x9e3779b97f4a7c15ull) ^ (b * 0xc2b2ae3d27d4eb4full);
    return wc_splitmix64(&s);
}

static uint64_t ii_size(const ii_prog *p, uint64_t r)
{
    return p->off[r + 1] - p->off[r];
}

/* Does record r have a link whose URL starts at byte j? */
static bool ii_link(const ii_prog *p, uint64_t r, uint64_t j)
{
    if (j % II_SEG != II_URL || (j / II_SEG + 1) * II_SEG > ii_size(p, r)) return false;
    return ii_hash(p->seed, r, j / II_SEG) % 100 < p->links_pct;
}

/* Lanes of warp w (records tid0..) whose record is longer than j, and
 * those with a link at j. */
static uint32_t ii_scan_mask(const ii_prog *p, uint32_t live, uint64_t tid0, uint64_t j)
{
    uint32_t m = 0;
    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
        if ((live >> l & 1) && ii_size(p, tid0 + l) > j) m |= 1u << l;
    return m;
}

static uint32_t ii_link_mask(const ii_prog *p, uint32_t live, uint64_t tid0, uint64_t j)
{
    uint32_t m = 0;
    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
        if ((live >> l & 1) && ii_link(p, tid0 + l, j)) m |= 1u << l;
    return m;
}

/* The threads of this warp that have a record (index < records). */
static uint32_t ii_live(const ii_prog *p, const wc_gen_warp *w, uint64_t tid0)
{
    return w->live & wc_gen_mask_below(tid0, p->records);
}

static uint64_t ii_max_size(const ii_prog *p, uint32_t live, uint64_t tid0)
{
    uint64_t n = 0;
    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
        if ((live >> l & 1) && ii_size(p, tid0 + l) > n) n = ii_size(p, tid0 + l);
    return n;
}

/* A per-lane load or store of `width` bytes at base + (tid0 + l) * stride. */
static void ii_lane(wc_winst *o, uint64_t pc, wc_opclass op, uint32_t m, unsigned width,
                    unsigned array, uint64_t tid0, uint64_t stride, uint64_t off)
{
    wc_gen_mem(o, pc, op, m, 2, 1, width, WC_GEN_REGION(array) + tid0 * stride + off,
               (int64_t)stride);
}

/* buf[j] of every lane's record: one byte, lanes at their record offsets. */
static void ii_byte(wc_winst *o, const ii_prog *p, uint32_t m, uint64_t tid0, uint64_t j)
{
    wc_gen_mem_list(o, 0x40, WC_OP_LDG, m, 3, 2, 1);
    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
        if (m >> l & 1) o->addr[l] = WC_GEN_REGION(0) + p->off[tid0 + l] + j;
}

/* Byte k of this thread's output key (k < 16) or value (array 12) at its
 * prefix-sum position: link number n of record r. */
static void ii_out(wc_winst *o, const ii_prog *p, uint64_t pc, wc_opclass op, uint32_t m,
                   uint64_t tid0, uint64_t j, unsigned array, uint64_t k)
{
    uint64_t size = array == 11 ? II_KEY : II_VAL;
    wc_gen_mem_list(o, pc, op, m, 3, 2, 1);
    for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
        if (!(m >> l & 1)) continue;
        uint64_t r = tid0 + l, n = 0;
        for (uint64_t s = 0; s < j / II_SEG; s++) n += ii_link(p, r, s * II_SEG + II_URL);
        o->addr[l] = WC_GEN_REGION(array) + (p->prev[r] + n) * size + k;
    }
}

static int ii_count_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const ii_prog *p = gk->arg;
    uint64_t tid0 = w->block_id * II_BLOCK + (uint64_t)w->warp * WC_WARP_SIZE;
    uint32_t live = ii_live(p, w, tid0);
    /* v[0] byte j, v[1] counter, v[2] scan mask, v[3] link mask */
    WC_CO_BEGIN(w);
    if (!live) return 0; /* index*recordsPerTask >= recordNum: return */
    WC_CO_EMIT(w, ii_lane(o, 0x08, WC_OP_LDG, live, 16, 3, tid0, 16, 0));
    WC_CO_EMIT(w, ii_lane(o, 0x10, WC_OP_LDG, live, 8, 1, tid0, II_KEY, 0)); /* file_buf */
    WC_CO_EMIT(w, ii_lane(o, 0x18, WC_OP_LDG, live, 4, 2, tid0, 12, 0));     /* block_offset */
    WC_CO_EMIT(w, ii_lane(o, 0x20, WC_OP_LDG, live, 4, 2, tid0, 12, 4));     /* block_size */
    for (w->v[0] = 0; w->v[0] < (int64_t)ii_max_size(p, live, tid0); w->v[0]++) {
        w->v[2] = ii_scan_mask(p, live, tid0, (uint64_t)w->v[0]);
        WC_CO_EMIT(w, ii_byte(o, p, (uint32_t)w->v[2], tid0, (uint64_t)w->v[0]));
        for (w->v[1] = 0; w->v[1] < II_BYTE_ALU; w->v[1]++)
            WC_CO_EMIT(w, wc_gen_alu(o, 0x48, (uint32_t)w->v[2], 4, 3, 4));
        w->v[3] = ii_link_mask(p, live, tid0, (uint64_t)w->v[0]);
        if (w->v[3])
            for (w->v[1] = 0; w->v[1] < 3; w->v[1]++) { /* EmitInterCount */
                WC_CO_EMIT(w, ii_lane(o, 0x50, WC_OP_LDG, (uint32_t)w->v[3], 4,
                                      4 + (unsigned)w->v[1], tid0, 4, 0));
                WC_CO_EMIT(w, ii_lane(o, 0x58, WC_OP_STG, (uint32_t)w->v[3], 4,
                                      4 + (unsigned)w->v[1], tid0, 4, 0));
            }
    }
    WC_CO_END(w);
}

/* interOffsetSizes[psCounts[i] + delta] for every lane (a gather). */
static void ii_ios(wc_winst *o, const ii_prog *p, uint64_t pc, wc_opclass op, uint32_t m,
                   uint64_t tid0, uint64_t j, int64_t delta)
{
    wc_gen_mem_list(o, pc, op, m, 5, 2, 16);
    for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
        if (!(m >> l & 1)) continue;
        uint64_t r = tid0 + l, n = 0;
        for (uint64_t s = 0; s < j / II_SEG; s++) n += ii_link(p, r, s * II_SEG + II_URL);
        int64_t e = (int64_t)(p->prev[r] + n) + delta;
        o->addr[l] = WC_GEN_REGION(13) + (uint64_t)(e < 0 ? 0 : e) * 16;
    }
}

static int ii_map_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const ii_prog *p = gk->arg;
    uint64_t tid0 = w->block_id * II_BLOCK + (uint64_t)w->warp * WC_WARP_SIZE;
    uint32_t live = ii_live(p, w, tid0);
    WC_CO_BEGIN(w);
    if (!live) return 0;
    WC_CO_EMIT(w, ii_lane(o, 0x08, WC_OP_LDG, live, 4, 9, tid0, 4, 0)); /* psCounts[i] */
    WC_CO_EMIT(w, ii_ios(o, p, 0x10, WC_OP_LDG, live, tid0, 0, 0));
    WC_CO_EMIT(w, ii_lane(o, 0x18, WC_OP_LDG, live, 4, 7, tid0, 4, 0)); /* psKeySizes[i] */
    WC_CO_EMIT(w, ii_lane(o, 0x20, WC_OP_LDG, live, 4, 8, tid0, 4, 0)); /* psValSizes[i] */
    WC_CO_EMIT(w, ii_ios(o, p, 0x28, WC_OP_STG, live, tid0, 0, 0));
    WC_CO_EMIT(w, ii_lane(o, 0x30, WC_OP_LDG, live, 16, 3, tid0, 16, 0));
    WC_CO_EMIT(w, ii_lane(o, 0x38, WC_OP_LDG, live, 8, 1, tid0, II_KEY, 0));
    WC_CO_EMIT(w, ii_lane(o, 0x3c, WC_OP_LDG, live, 4, 2, tid0, 12, 0));
    WC_CO_EMIT(w, ii_lane(o, 0x3e, WC_OP_LDG, live, 4, 2, tid0, 12, 4));
    for (w->v[0] = 0; w->v[0] < (int64_t)ii_max_size(p, live, tid0); w->v[0]++) {
        w->v[2] = ii_scan_mask(p, live, tid0, (uint64_t)w->v[0]);
        WC_CO_EMIT(w, ii_byte(o, p, (uint32_t)w->v[2], tid0, (uint64_t)w->v[0]));
        for (w->v[1] = 0; w->v[1] < II_BYTE_ALU; w->v[1]++)
            WC_CO_EMIT(w, wc_gen_alu(o, 0x48, (uint32_t)w->v[2], 4, 3, 4));
        w->v[3] = ii_link_mask(p, live, tid0, (uint64_t)w->v[0]);
        if (w->v[3]) {
            /* pKey->url_offset = j + block_offset */
            WC_CO_EMIT(w, ii_lane(o, 0x50, WC_OP_STG, (uint32_t)w->v[3], 4, 1, tid0, II_KEY, 8));
            WC_CO_EMIT(w, ii_lane(o, 0x58, WC_OP_LDG, (uint32_t)w->v[3], 8, 10, tid0, 8, 0));
            WC_CO_EMIT(w, ii_lane(o, 0x60, WC_OP_LDG, (uint32_t)w->v[3], 4, 7, tid0, 4, 0));
            WC_CO_EMIT(w, ii_lane(o, 0x68, WC_OP_LDG, (uint32_t)w->v[3], 4, 8, tid0, 4, 0));
            for (w->v[1] = 0; w->v[1] < II_KEY; w->v[1]++) {
                WC_CO_EMIT(w, ii_lane(o, 0x70, WC_OP_LDG, (uint32_t)w->v[3], 1, 1, tid0, II_KEY,
                                      (uint64_t)w->v[1]));
                WC_CO_EMIT(w, ii_out(o, p, 0x78, WC_OP_STG, (uint32_t)w->v[3], tid0,
                                     (uint64_t)w->v[0], 11, (uint64_t)w->v[1]));
            }
            for (w->v[1] = 0; w->v[1] < II_VAL; w->v[1]++) {
                WC_CO_EMIT(w, ii_lane(o, 0x80, WC_OP_LDG, (uint32_t)w->v[3], 1, 2, tid0, 12,
                                      8 + (uint64_t)w->v[1])); /* &pVal->file_id */
                WC_CO_EMIT(w, ii_out(o, p, 0x88, WC_OP_STG, (uint32_t)w->v[3], tid0,
                                     (uint64_t)w->v[0], 12, (uint64_t)w->v[1]));
            }
            WC_CO_EMIT(w, ii_lane(o, 0x90, WC_OP_STG, (uint32_t)w->v[3], 8, 10, tid0, 8, 0));
            WC_CO_EMIT(w, ii_lane(o, 0x98, WC_OP_LDG, (uint32_t)w->v[3], 4, 14, tid0, 4, 0));
            WC_CO_EMIT(w, ii_lane(o, 0xa0, WC_OP_LDG, (uint32_t)w->v[3], 4, 9, tid0, 4, 0));
            WC_CO_EMIT(
                w, ii_ios(o, p, 0xa8, WC_OP_LDG, (uint32_t)w->v[3], tid0, (uint64_t)w->v[0], 0));
            WC_CO_EMIT(
                w, ii_ios(o, p, 0xb0, WC_OP_LDG, (uint32_t)w->v[3], tid0, (uint64_t)w->v[0], -1));
            WC_CO_EMIT(
                w, ii_ios(o, p, 0xb8, WC_OP_STG, (uint32_t)w->v[3], tid0, (uint64_t)w->v[0], 0));
            WC_CO_EMIT(w, ii_lane(o, 0xc0, WC_OP_STG, (uint32_t)w->v[3], 4, 14, tid0, 4, 0));
        }
    }
    WC_CO_END(w);
}

static int ii_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    const ii_prog *p = ctx;
    if (idx > 1) return 0;
    out->arg = p;
    out->k.block = (wc_dim3){II_BLOCK, 1, 1};
    out->k.grid = (wc_dim3){(uint32_t)((p->records + II_BLOCK - 1) / II_BLOCK), 1, 1};
    out->k.regs_per_thread = 16;
    snprintf(out->k.name, sizeof out->k.name, idx == 0 ? "MapperCount" : "Mapper");
    out->k.shmem_bytes = idx == 0 ? 0 : II_BLOCK * 4 * 5;
    out->next = idx == 0 ? ii_count_next : ii_map_next;
    return 1;
}

static void ii_destroy(void *ctx)
{
    ii_prog *p = ctx;
    free(p->off);
    free(p->prev);
    free(p);
}

static wc_source *open_invertedindex(wc_params *p, uint64_t seed, wc_err *err)
{
    uint64_t bytes, record, links;
    if (wc_params_u64(p, "bytes", 16u << 20, 64, 1ull << 31, &bytes, err) < 0 ||
        wc_params_u64(p, "record", 1024, 64, 1u << 16, &record, err) < 0 ||
        wc_params_u64(p, "links", 25, 0, 100, &links, err) < 0)
        return NULL;
    ii_prog *h = calloc(1, sizeof *h);
    /* records: each is `record` bytes plus a 1..96-byte line end, the last
     * one whatever remains */
    uint64_t n = bytes / record + 1;
    if (h) {
        h->off = malloc((n + 1) * sizeof *h->off);
        h->prev = malloc((n + 1) * sizeof *h->prev);
    }
    if (!h || !h->off || !h->prev) {
        if (h) ii_destroy(h);
        wc_errf(err, "invertedindex: out of memory");
        return NULL;
    }
    h->seed = wc_rng_seed(seed ^ 0x696978);
    h->links_pct = links;
    uint64_t at = 0, r = 0, rs = h->seed;
    while (at < bytes) {
        h->off[r++] = at;
        at += record + 1 + wc_rng_below(&rs, 96);
    }
    h->records = r;
    h->off[r] = bytes;
    h->prev[0] = 0;
    for (uint64_t i = 0; i < r; i++) {
        uint64_t k = 0;
        for (uint64_t j = II_URL; j < ii_size(h, i); j += II_SEG) k += ii_link(h, i, j);
        h->prev[i + 1] = h->prev[i] + k;
    }
    wc_gen_program prog = {.ctx = h, .kernel = ii_kernel, .destroy = ii_destroy};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_mars_invertedindex = {
    .name = "mars/invertedindex",
    .suite = "mars",
    .kernels = "MapperCount, Mapper",
    .size = "bytes=16777216 (synthetic HTML) record=1024 links=25",
    .classes = "002:thrashing",
    .help = "Mars MapReduce InvertedIndex (seed 002 IIX): one ~1 KB text record per thread, "
            "scanned byte by byte for links; bytes, record (host split size), links (% of 64-B "
            "segments with a link)",
    .open = open_invertedindex,
};
WC_PLUGIN(workload, wc_wl_mars_invertedindex, 650);
