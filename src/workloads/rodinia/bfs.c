/*
 * bfs.c - Rodinia bfs (CUDA) as an address generator that really traverses
 * its graph.  Facts from ../shared/specs/workloads.md (Rodinia, bfs).
 *
 * Input: a seeded graph built like Rodinia's graphgen (graph1MW_6): for each
 * node i in order, 2-4 edges (count drawn uniformly), each to a uniformly
 * drawn node j, stored both ways (i->j appended to i's list, j->i to j's),
 * adjacency lists in insertion order, source node 0.  RNG draws, in order:
 * r = wc_rng_seed(seed ^ 0x626673); per node: 2 + below(r, 3); per edge:
 * below(r, nodes).  (Edge weights are not drawn: bfs ignores them.)
 *
 * Launches alternate Kernel and Kernel2 (blocks of 512, or one block of n
 * threads for n <= 512) until a Kernel2 finds no updated node, exactly as the
 * host loop does.  The program state (mask, updating, visited) evolves
 * between launches: a launch's instructions depend only on the state before
 * it, so the effects of launch i are applied when launch i+1 is requested.
 *
 * Arrays: 0 nodes {int starting, int no_of_edges} (8 B), 1 edges (int),
 * 2 mask, 3 updating, 4 visited (bool, 1 B), 5 cost (int), 6 over (bool).
 * Registers: r1 mask/updating, r2 starting, r3 degree, r4 edge id,
 * r5 visited, r6 cost, r7 tid/address, r8 loop counter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/rng.h"
#include "workloads/gen.h"

#define BFS_NODES   WC_GEN_REGION(0)
#define BFS_EDGES   WC_GEN_REGION(1)
#define BFS_MASK    WC_GEN_REGION(2)
#define BFS_UPD     WC_GEN_REGION(3)
#define BFS_VISITED WC_GEN_REGION(4)
#define BFS_COST    WC_GEN_REGION(5)
#define BFS_OVER    WC_GEN_REGION(6)

typedef struct bfs_ctx {
    uint64_t n, nedges;
    uint32_t *start, *deg, *edges;
    uint8_t *mask, *upd, *visited;
    uint32_t applied; /* launches whose effects are in the state */
    bool done;
    uint32_t block;
} bfs_ctx;

static void bfs_destroy(void *ctx)
{
    bfs_ctx *c = ctx;
    free(c->start);
    free(c->deg);
    free(c->edges);
    free(c->mask);
    free(c->upd);
    free(c->visited);
    free(c);
}

static int bfs_build(bfs_ctx *c, uint64_t seed, wc_err *err)
{
    uint64_t n = c->n, r = wc_rng_seed(seed ^ 0x626673ull);
    uint32_t *pa = malloc(n * 4 * 2 * sizeof *pa);
    c->start = calloc(n + 1, sizeof *c->start);
    c->deg = calloc(n, sizeof *c->deg);
    c->mask = calloc(n, 1);
    c->upd = calloc(n, 1);
    c->visited = calloc(n, 1);
    if (!pa || !c->start || !c->deg || !c->mask || !c->upd || !c->visited) {
        free(pa);
        return wc_errf(err, "bfs: out of memory");
    }
    uint64_t np = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t ne = 2 + wc_rng_below(&r, 3);
        for (uint64_t e = 0; e < ne; e++) {
            uint32_t j = (uint32_t)wc_rng_below(&r, n);
            pa[2 * np] = (uint32_t)i;
            pa[2 * np + 1] = j;
            np++;
            c->deg[i]++;
            c->deg[j]++;
        }
    }
    c->nedges = 2 * np;
    c->edges = malloc(c->nedges * sizeof *c->edges);
    uint32_t *fill = calloc(n, sizeof *fill);
    if (!c->edges || !fill) {
        free(pa);
        free(fill);
        return wc_errf(err, "bfs: out of memory");
    }
    for (uint64_t i = 0; i < n; i++) c->start[i + 1] = c->start[i] + c->deg[i];
    /* graphgen appends i->j then j->i as each edge is drawn */
    for (uint64_t p = 0; p < np; p++) {
        uint32_t a = pa[2 * p], b = pa[2 * p + 1];
        c->edges[c->start[a] + fill[a]++] = b;
        c->edges[c->start[b] + fill[b]++] = a;
    }
    free(pa);
    free(fill);
    c->mask[0] = 1;
    c->visited[0] = 1;
    return 0;
}

static inline uint32_t bfs_lanes(const uint8_t *flag, uint64_t tid0, uint64_t n)
{
    uint32_t m = 0;
    for (unsigned l = 0; l < WC_WARP_SIZE && tid0 + l < n; l++)
        if (flag[tid0 + l]) m |= 1u << l;
    return m;
}

/* Lanes of `act` whose degree exceeds k. */
static inline uint32_t bfs_edge_lanes(const bfs_ctx *c, uint64_t tid0, uint32_t act, uint64_t k)
{
    uint32_t m = 0;
    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
        if ((act >> l & 1u) && c->deg[tid0 + l] > k) m |= 1u << l;
    return m;
}

static int bfs_kernel1_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const bfs_ctx *c = gk->arg;
    uint64_t tid0 = w->block_id * c->block + w->warp * WC_WARP_SIZE;
    uint32_t live = wc_gen_mask_below(tid0, c->n);
    uint32_t act = (uint32_t)w->v[3], em, nv; /* frontier lanes, found after the mask load */
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 7, WC_REG_NONE, WC_REG_NONE));
    if (!live) break;
    WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, live, 1, 7, 1, BFS_MASK + tid0, 1));
    WC_CO_EMIT(w, wc_gen_alu(o, 0x18, live, WC_REG_NONE, 1, WC_REG_NONE));
    w->v[3] = act = bfs_lanes(c->mask, tid0, c->n);
    if (!act) break;
    WC_CO_EMIT(w, wc_gen_mem(o, 0x20, WC_OP_STG, act, WC_REG_NONE, 7, 1, BFS_MASK + tid0, 1));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x28, WC_OP_LDG, act, 2, 7, 4, BFS_NODES + tid0 * 8, 8));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x30, WC_OP_LDG, act, 3, 7, 4, BFS_NODES + tid0 * 8 + 4, 8));
    w->v[1] = 0;
    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
        if ((act >> l & 1u) && c->deg[tid0 + l] > w->v[1]) w->v[1] = c->deg[tid0 + l];
    for (w->v[0] = 0; w->v[0] < w->v[1]; w->v[0]++) {
        em = bfs_edge_lanes(c, tid0, act, (uint64_t)w->v[0]);
        WC_CO_EMIT(w, wc_gen_alu(o, 0x38, act, 8, 8, 3));
        em = bfs_edge_lanes(c, tid0, act, (uint64_t)w->v[0]);
        WC_CO_EMIT(w, {
            wc_gen_mem_list(o, 0x40, WC_OP_LDG, em, 4, 2, 4);
            for (unsigned l = 0; l < WC_WARP_SIZE; l++)
                if (em >> l & 1u) o->addr[l] = BFS_EDGES + (c->start[tid0 + l] + w->v[0]) * 4ull;
        });
        em = bfs_edge_lanes(c, tid0, act, (uint64_t)w->v[0]);
        WC_CO_EMIT(w, {
            wc_gen_mem_list(o, 0x48, WC_OP_LDG, em, 5, 4, 1);
            for (unsigned l = 0; l < WC_WARP_SIZE; l++)
                if (em >> l & 1u) o->addr[l] = BFS_VISITED + c->edges[c->start[tid0 + l] + w->v[0]];
        });
        em = bfs_edge_lanes(c, tid0, act, (uint64_t)w->v[0]);
        WC_CO_EMIT(w, wc_gen_alu(o, 0x50, em, WC_REG_NONE, 5, WC_REG_NONE));
        em = bfs_edge_lanes(c, tid0, act, (uint64_t)w->v[0]);
        nv = 0;
        for (unsigned l = 0; l < WC_WARP_SIZE; l++)
            if ((em >> l & 1u) && !c->visited[c->edges[c->start[tid0 + l] + w->v[0]]])
                nv |= 1u << l;
        w->v[2] = nv;
        if (!w->v[2]) continue;
        WC_CO_EMIT(
            w, wc_gen_mem(o, 0x58, WC_OP_LDG, (uint32_t)w->v[2], 6, 7, 4, BFS_COST + tid0 * 4, 4));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x60, (uint32_t)w->v[2], 6, 6, WC_REG_NONE));
        WC_CO_EMIT(w, {
            wc_gen_mem_list(o, 0x68, WC_OP_STG, (uint32_t)w->v[2], 6, 4, 4);
            for (unsigned l = 0; l < WC_WARP_SIZE; l++)
                if (w->v[2] >> l & 1)
                    o->addr[l] = BFS_COST + c->edges[c->start[tid0 + l] + w->v[0]] * 4ull;
        });
        WC_CO_EMIT(w, {
            wc_gen_mem_list(o, 0x70, WC_OP_STG, (uint32_t)w->v[2], WC_REG_NONE, 4, 1);
            for (unsigned l = 0; l < WC_WARP_SIZE; l++)
                if (w->v[2] >> l & 1) o->addr[l] = BFS_UPD + c->edges[c->start[tid0 + l] + w->v[0]];
        });
    }
    WC_CO_END(w);
}

static int bfs_kernel2_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const bfs_ctx *c = gk->arg;
    uint64_t tid0 = w->block_id * c->block + w->warp * WC_WARP_SIZE;
    uint32_t live = wc_gen_mask_below(tid0, c->n);
    uint32_t act = bfs_lanes(c->upd, tid0, c->n);
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 7, WC_REG_NONE, WC_REG_NONE));
    if (!live) break;
    WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, live, 1, 7, 1, BFS_UPD + tid0, 1));
    WC_CO_EMIT(w, wc_gen_alu(o, 0x18, live, WC_REG_NONE, 1, WC_REG_NONE));
    if (!act) break;
    WC_CO_EMIT(w, wc_gen_mem(o, 0x20, WC_OP_STG, act, WC_REG_NONE, 7, 1, BFS_MASK + tid0, 1));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x28, WC_OP_STG, act, WC_REG_NONE, 7, 1, BFS_VISITED + tid0, 1));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x30, WC_OP_STG, act, WC_REG_NONE, WC_REG_NONE, 1, BFS_OVER, 0));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x38, WC_OP_STG, act, WC_REG_NONE, 7, 1, BFS_UPD + tid0, 1));
    WC_CO_END(w);
}

/* Effect of Kernel: the frontier is consumed, unvisited neighbours marked. */
static void bfs_apply_kernel1(bfs_ctx *c)
{
    for (uint64_t t = 0; t < c->n; t++) {
        if (!c->mask[t]) continue;
        c->mask[t] = 0;
        for (uint32_t e = c->start[t]; e < c->start[t + 1]; e++)
            if (!c->visited[c->edges[e]]) c->upd[c->edges[e]] = 1;
    }
}

/* Effect of Kernel2: updated nodes become the frontier; false if none. */
static bool bfs_apply_kernel2(bfs_ctx *c)
{
    bool over = false;
    for (uint64_t t = 0; t < c->n; t++) {
        if (!c->upd[t]) continue;
        c->mask[t] = c->visited[t] = 1;
        c->upd[t] = 0;
        over = true;
    }
    return over;
}

static int bfs_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    bfs_ctx *c = ctx;
    while (!c->done && c->applied < idx) {
        if (c->applied % 2 == 0)
            bfs_apply_kernel1(c);
        else if (!bfs_apply_kernel2(c))
            c->done = true;
        c->applied++;
    }
    if (c->done) return 0;
    out->arg = c;
    out->k.block = (wc_dim3){c->block, 1, 1};
    out->k.grid = (wc_dim3){(uint32_t)((c->n + c->block - 1) / c->block), 1, 1};
    out->k.regs_per_thread = 16;
    snprintf(out->k.name, sizeof out->k.name, idx % 2 ? "Kernel2" : "Kernel");
    out->next = idx % 2 ? bfs_kernel2_next : bfs_kernel1_next;
    return 1;
}

static wc_source *open_bfs(wc_params *p, uint64_t seed, wc_err *err)
{
    bfs_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        wc_errf(err, "bfs: out of memory");
        return NULL;
    }
    if (wc_params_u64(p, "nodes", 1000000, 1, 1u << 25, &c->n, err) < 0 ||
        bfs_build(c, seed, err) < 0) {
        bfs_destroy(c);
        return NULL;
    }
    c->block = c->n > 512 ? 512 : (uint32_t)c->n;
    wc_gen_program prog = {.ctx = c, .kernel = bfs_kernel, .destroy = bfs_destroy};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_rodinia_bfs = {
    .name = "rodinia/bfs",
    .suite = "rodinia",
    .kernels = "Kernel, Kernel2 alternating until no update",
    .size = "nodes=1000000 (graph1MW_6-like, 2-4 random undirected edges per node)",
    .classes = "000:CLN 002:thrashing",
    .help = "Rodinia bfs from node 0 over a seeded graphgen-style graph; nodes",
    .open = open_bfs,
};
WC_PLUGIN(workload, wc_wl_rodinia_bfs, 310);
