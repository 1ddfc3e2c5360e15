/*
 * test_trc.c - the per-thread .trc format of seed 003 (src/trace/trc.c):
 * a hand-made unordered file grouped into warps as the seed describes
 * (warp instruction k = the k-th access of each thread), errors, and the
 * round trip built-in workload -> .trc -> read, compared as per-thread access
 * sequences computed independently from the workload's warp instructions.
 */
#include "check.h"
#include "test_trace_util.h"
#include "trace/formats.h"

#ifdef WC_HAVE_ZLIB
#include <zlib.h>
#endif

static void test_hand_fixture(void)
{
    /* 64 threads per block; lines deliberately out of order across threads. */
    const char *text = "blocksize: 64 1 1\n"
                       "1 0 104 4\n"
                       "33 0 1000 8\n"
                       "0 0 100 4\n"
                       "2 1 300 4\n"
                       "0 1 200 4\n"
                       "130 0 5000 4\n";
    wc_err err = {{0}};
    wc_source *src = open_text(text, WC_TRACE_TRC, &err);
    CHECK(src != NULL);
    tlist l;
    CHECK_EQ(tlist_drain(src, &l, &err), 0);
    wc_source_destroy(src);
    CHECK_EQ(l.k[0].grid.x, 3); /* gid 130 / 64 -> block 2 */
    CHECK_EQ(l.k[0].block.x, 64);
    CHECK_EQ(l.n, 5);
    /* Block 0 warp 0, access 0: lanes 0,1 load (100, 104) then lane 2's store splits off. */
    CHECK_EQ(l.v[0].in.op, WC_OP_LDG);
    CHECK_EQ(l.v[0].in.mask, 0x3);
    CHECK_EQ(l.v[0].in.amode, WC_ADDR_STRIDE);
    CHECK(wc_winst_lane_addr(&l.v[0].in, 1) == 104);
    CHECK_EQ(l.v[1].in.op, WC_OP_STG);
    CHECK_EQ(l.v[1].in.mask, 0x4);
    CHECK(wc_winst_lane_addr(&l.v[1].in, 2) == 300);
    /* Access 1 of thread 0: its store to 200. */
    CHECK_EQ(l.v[2].in.mask, 0x1);
    CHECK_EQ(l.v[2].in.op, WC_OP_STG);
    CHECK(wc_winst_lane_addr(&l.v[2].in, 0) == 200);
    /* Warp 1: thread 33 = lane 1, an 8-byte load. */
    CHECK_EQ(l.v[3].warp, 1);
    CHECK_EQ(l.v[3].in.mask, 0x2);
    CHECK_EQ(l.v[3].in.width, 8);
    CHECK(wc_winst_lane_addr(&l.v[3].in, 1) == 1000);
    /* Block 2: thread 130 = block 2, warp 0, lane 2. */
    CHECK_EQ(l.v[4].block, 2);
    CHECK_EQ(l.v[4].in.mask, 0x4);
    tlist_free(&l);
}

static void expect_error(const char *text, const char *what)
{
    expect_trace_error(text, WC_TRACE_TRC, what);
}

static void test_bad_input(void)
{
    expect_error("", "empty file");
    expect_error("blocksize: 0 1 1\n", "blocksize");
    expect_error("blocksize: 32 1 1\n0 0 100\n",
                 "<memory>:2: expected '<gid> <dir> <address> <size>'");
    expect_error("blocksize: 32 1 1\n0 2 100 4\n", "<memory>:2: out of range");
    expect_error("blocksize: 32 1 1\n0 0 100 4 9\n", "<memory>:2: expected");
    expect_error("blocksize: 32 1 1\n0 0 99999999999999999999999 4\n", "<memory>:2: expected");
    expect_error("blocksize: 32 1 1\n0 0 100 0\n", "out of range");
    expect_error("blocksize: 32 1 1\n0 0 18446744073709551616 4\n", "<memory>:2: expected");
    expect_error("blocksize: 32 1 1\n0 0 100000000000000000000 4\n", "<memory>:2: expected");
    expect_error("blocksize: 32 1 1\n0 0 10 4\n+1 0 100 4\n", "<memory>:3: expected");
    expect_error("blocksize: 32 1 1\n1 -0 100 4\n", "<memory>:2: expected");
    expect_error("blocksize: 32 1 1\n1\v0 100 4\n", "<memory>:2: expected");
    expect_error("blocksize: 32 1 1\n1 0 1234567890x 4\n", "<memory>:2: expected");
    expect_error("blocksize: 32 1 1\n1 0 12345678 4 #c\n", "<memory>:2: expected");
    expect_error("blocksize: 32 1 1\n1 0 5 256\n", "<memory>:2: out of range");
    expect_error("blocksize: 32 1 1\n4294967295 0 5 4\n", "<memory>:2: out of range");
}

/* Block sizes and grids that cannot be meant (issue 16's reproducers). */
static void test_impossible_shapes(void)
{
    /* "-1" once read as 2^64-1 per field; (2^64-1)^2 wrapped to a product of 1. */
    expect_error("blocksize: -1 -1 1\n0 0 4096 4\n", "<memory>:1: expected 'blocksize: BX BY BZ'");
    /* 2^32 x 2^32 wrapped to 0 threads per block (a division by zero later). */
    expect_error("blocksize: 4294967296 4294967296 1\n0 0 4096 4\n", "<memory>:1: expected");
    expect_error("blocksize: 65536 2 1\n0 0 4096 4\n", "<memory>:1: expected");
    expect_error("blocksize: 32 1\n", "<memory>:1: expected");
    expect_error("blocksize: 32 1 1 1\n", "<memory>:1: expected");
    /* gid 2^32-2 with 1 thread per block: a 1-D grid of 2^32-1 blocks > 2^31-1. */
    expect_error("blocksize: 1 1 1\n0 0 8 4\n4294967294 0 4096 4\n",
                 "<memory>:3: gid 4294967294 with 1 threads per block implies a 1-D grid of "
                 "4294967295 blocks");
    /* Legal for CUDA but 2^31-1 blocks for 2 accesses: refused as not meant. */
    expect_error("blocksize: 1 1 1\n2147483646 0 4096 4\n0 0 8 4\n",
                 "<memory>:2: gid 2147483646 implies 2147483647 blocks of which only 2 have an "
                 "access");
    /* The limit's edges: 2^20 blocks, almost all empty, still read (1048576 =
     * TRC_EMPTY_BLOCKS_FREE); one more, with 1/16 of them used, too. */
    wc_err err = {{0}};
    wc_source *src = open_text("blocksize: 1 1 1\n1048575 0 8 4\n", WC_TRACE_TRC, &err);
    wc_kernel k;
    CHECK_EQ(src->ops->next_kernel(src, &k, &err), 1);
    CHECK_EQ(k.grid.x, 1048576);
    wc_source_destroy(src);
    expect_error("blocksize: 1 1 1\n1048576 0 8 4\n", "implies 1048577 blocks of which only 1");
}

/* The same accesses with dense gids (counting sort) and sparse gids (radix
 * sort: maxgid far above 4 records per thread id); expectations by hand. */
static void check_gid_layout(uint32_t base_gid)
{
    char text[256];
    /* Threads base+16, base+17 of a 32-thread block, and thread 1 of block 0. */
    snprintf(text, sizeof text, "blocksize: 32 1 1\n%u 0 8 4\n%u 0 4 4\n1 1 100 4\n%u 1 12 4\n",
             base_gid + 17, base_gid + 16, base_gid + 17);
    wc_err err = {{0}};
    wc_source *src = open_text(text, WC_TRACE_TRC, &err);
    CHECK(src != NULL);
    tlist l;
    CHECK_EQ(tlist_drain(src, &l, &err), 0);
    wc_source_destroy(src);
    CHECK_EQ(l.k[0].grid.x, base_gid / 32 + 1);
    CHECK_EQ(l.n, 3);
    CHECK_EQ(l.v[0].block, 0);
    CHECK_EQ(l.v[0].in.op, WC_OP_STG);
    CHECK_EQ(l.v[0].in.mask, 0x2);
    CHECK(wc_winst_lane_addr(&l.v[0].in, 1) == 100);
    /* Access 0 of lanes 16 and 17: 4 and 8 (a stride of 4), then lane 17's store. */
    CHECK_EQ(l.v[1].block, base_gid / 32);
    CHECK_EQ(l.v[1].in.op, WC_OP_LDG);
    CHECK_EQ(l.v[1].in.mask, 0x30000);
    CHECK(wc_winst_lane_addr(&l.v[1].in, 16) == 4);
    CHECK(wc_winst_lane_addr(&l.v[1].in, 17) == 8);
    CHECK_EQ(l.v[2].in.op, WC_OP_STG);
    CHECK_EQ(l.v[2].in.mask, 0x20000);
    CHECK(wc_winst_lane_addr(&l.v[2].in, 17) == 12);
    tlist_free(&l);
}

static void test_dense_and_sparse_gids(void)
{
    check_gid_layout(992);    /* 1010 threads for 4 records: dense */
    check_gid_layout(199968); /* 200000 threads for 4 records: sparse */
}

/* Field syntax: blanks are spaces and tabs (any number, also trailing),
 * leading zeros are fine, values up to 2^64 - 1 (more than 19 digits too). */
/* A header alone: one empty block, no instructions. */
static void test_no_accesses(void)
{
    wc_err err = {{0}};
    wc_source *src = open_text("blocksize: 1 74 1\n", WC_TRACE_TRC, &err);
    CHECK(src != NULL);
    tlist l;
    CHECK_EQ(tlist_drain(src, &l, &err), 0);
    wc_source_destroy(src);
    CHECK_EQ(l.nk, 1);
    CHECK_EQ(l.k[0].grid.x, 1);
    CHECK_EQ(l.n, 0);
    tlist_free(&l);
}

static void test_field_syntax(void)
{
    const char *text = "blocksize: 32 1 1\n"
                       "\t 0000000000000000000000001 \t00 "
                       "0000000000000000000018446744073709551615\t4 \t\n"
                       "2 1 12345678901234567 255\r\n";
    wc_err err = {{0}};
    wc_source *src = open_text(text, WC_TRACE_TRC, &err);
    CHECK(src != NULL);
    tlist l;
    CHECK_EQ(tlist_drain(src, &l, &err), 0);
    wc_source_destroy(src);
    CHECK_EQ(l.n, 2);
    CHECK_EQ(l.v[0].in.mask, 0x2);
    CHECK(wc_winst_lane_addr(&l.v[0].in, 1) == UINT64_MAX);
    CHECK_EQ(l.v[0].in.width, 4);
    CHECK_EQ(l.v[1].in.mask, 0x4);
    CHECK_EQ(l.v[1].in.op, WC_OP_STG);
    CHECK(wc_winst_lane_addr(&l.v[1].in, 2) == 12345678901234567ull);
    CHECK_EQ(l.v[1].in.width, 255);
    tlist_free(&l);
}

/* Per-thread access lists of a source, derived from warp instructions by the
 * definition gid = block * threads_per_block + warp * 32 + lane. */
typedef struct acc {
    uint64_t gid, seq, addr;
    unsigned dir, size;
} acc;

static int cmp_acc(const void *a, const void *b)
{
    const acc *x = a, *y = b;
    if (x->gid != y->gid) return x->gid < y->gid ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static acc *thread_accesses(wc_source *src, size_t *n)
{
    wc_err err = {{0}};
    tlist l;
    if (tlist_drain(src, &l, &err) < 0) return NULL;
    acc *v = NULL;
    size_t cap = 0;
    *n = 0;
    uint32_t tpb = wc_kernel_threads_per_block(&l.k[0]);
    for (size_t i = 0; i < l.n; i++) {
        const wc_winst *in = &l.v[i].in;
        if (!wc_op_is_gmem(in->op)) continue;
        for (unsigned lane = 0; lane < 32; lane++) {
            if (!(in->mask >> lane & 1)) continue;
            if (*n == cap) v = realloc(v, (cap = cap ? cap * 2 : 1024) * sizeof *v);
            acc *a = &v[(*n)++];
            a->gid = l.v[i].block * tpb + l.v[i].warp * 32 + lane;
            a->seq = i;
            a->addr = wc_winst_lane_addr(in, lane);
            a->dir = wc_op_is_store(in->op);
            a->size = in->width;
        }
    }
    tlist_free(&l);
    qsort(v, *n, sizeof *v, cmp_acc);
    return v;
}

/* A line of a .trc file with its gid and position, for a stable sort. */
typedef struct tline {
    const char *text;
    unsigned long long gid;
    size_t pos;
} tline;

static int cmp_tline(const void *a, const void *b)
{
    const tline *x = a, *y = b;
    if (x->gid != y->gid) return x->gid < y->gid ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* The file's access lines stably sorted by gid (header first): the same
 * per-thread sequences, so the same instructions (read without a sort). */
static char *sorted_by_gid(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)len + 1), *out = malloc((size_t)len + 2);
    size_t got = fread(buf, 1, (size_t)len, f);
    fclose(f);
    buf[got] = 0;
    size_t n = 0, cap = 1024;
    tline *v = malloc(cap * sizeof *v);
    char *save = NULL, *header = strtok_r(buf, "\n", &save);
    for (char *p = strtok_r(NULL, "\n", &save); p; p = strtok_r(NULL, "\n", &save)) {
        if (n == cap) v = realloc(v, (cap *= 2) * sizeof *v);
        v[n] = (tline){p, strtoull(p, NULL, 10), n};
        n++;
    }
    qsort(v, n, sizeof *v, cmp_tline);
    size_t o = (size_t)sprintf(out, "%s\n", header);
    for (size_t i = 0; i < n; i++) o += (size_t)sprintf(out + o, "%s\n", v[i].text);
    free(v);
    free(buf);
    return out;
}

static void check_sorted_copy_same(const char *path)
{
    wc_err err = {{0}};
    tlist a, b;
    wc_source *src = wc_trace_open(path, WC_TRACE_TRC, NULL, &err);
    CHECK(src != NULL);
    CHECK_EQ(tlist_drain(src, &a, &err), 0);
    wc_source_destroy(src);
    char *text = sorted_by_gid(path);
    CHECK(text != NULL);
    src = open_text(text, WC_TRACE_TRC, &err);
    CHECK(src != NULL);
    CHECK_EQ(tlist_drain(src, &b, &err), 0);
    wc_source_destroy(src);
    b.k[0].id = a.k[0].id; /* names and ids come from the path, not the text */
    snprintf(b.k[0].name, sizeof b.k[0].name, "%s", a.k[0].name);
    CHECK(tlist_same(&a, &b));
    free(text);
    tlist_free(&a);
    tlist_free(&b);
}

static void test_round_trip(void)
{
    const char *specs[] = {"micro/stride:n=4096", "micro/colcopy:h=64,store=1",
                           "micro/stream:n=1000,block=96"};
    for (int i = 0; i < 3; i++) {
        char dir[256], prefix[300], first[320];
        tmpdir_make(dir, sizeof dir);
        snprintf(prefix, sizeof prefix, "%s/wl", dir);
        snprintf(first, sizeof first, "%s/wl_00.trc", dir);
        wc_err err = {{0}};
        wc_source *gen = wc_workload_open(specs[i], 1, &err);
        CHECK_EQ(wc_trace_write_trc(gen, prefix, &err), 0);
        wc_source_destroy(gen);
        size_t na, nb;
        gen = wc_workload_open(specs[i], 1, &err);
        acc *a = thread_accesses(gen, &na);
        wc_source_destroy(gen);
        wc_source *rd = wc_trace_open(first, WC_TRACE_AUTO, NULL, &err);
        CHECK(rd != NULL);
        acc *b = rd ? thread_accesses(rd, &nb) : NULL;
        wc_source_destroy(rd);
        CHECK(a && b);
        CHECK(na > 0);
        CHECK_EQ(na, nb);
        size_t bad = 0;
        for (size_t j = 0; a && b && j < na && j < nb; j++)
            bad += a[j].gid != b[j].gid || a[j].addr != b[j].addr || a[j].dir != b[j].dir ||
                   a[j].size != b[j].size;
        CHECK_EQ(bad, 0);
        free(a);
        free(b);
        check_sorted_copy_same(first);
        /* The folder alone is enough to find the series. */
        rd = wc_trace_open(dir, WC_TRACE_AUTO, NULL, &err);
        CHECK(rd != NULL);
        wc_source_destroy(rd);
        tmpdir_remove(dir);
    }
}

/* Drains a .trc source reading `lr`, at most max_records accesses per
 * kernel; -1 with the message in err. */
static int drain_trc(wc_lreader *lr, uint64_t max_records, wc_err *err)
{
    if (!lr) return -1;
    wc_source *src = wc_trc_open_lreader(lr, err);
    if (!src) return -1;
    wc_trc_set_max_records(src, max_records);
    tlist l;
    int rc = tlist_drain(src, &l, err);
    tlist_free(&l);
    wc_source_destroy(src);
    return rc;
}

/* A kernel's accesses are held whole, so they are bounded (2^27, 2.5 GiB;
 * docs/traces.md "Limits"; it was 2^32, 80 GiB).  A gzip file of the same
 * access repeated, here 101 lines against a lowered bound of 100. */
static void test_records_limit(void)
{
#ifdef WC_HAVE_ZLIB
    char text[4096];
    size_t n = (size_t)snprintf(text, sizeof text, "blocksize: 32 1 1\n");
    for (int i = 0; i < 101; i++) n += (size_t)snprintf(text + n, sizeof text - n, "0 0 4096 4\n");
    unsigned char gz[4096];
    z_stream z;
    memset(&z, 0, sizeof z);
    CHECK_EQ(deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    z.next_in = (unsigned char *)text;
    z.avail_in = (uInt)n;
    z.next_out = gz;
    z.avail_out = sizeof gz;
    CHECK_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
    size_t len = sizeof gz - z.avail_out;
    deflateEnd(&z);
    CHECK(len < 100);
    wc_err err = {{0}};
    CHECK_EQ(drain_trc(wc_lreader_open_mem("k.trc.gz", gz, len, &err), 101, &err), 0);
    CHECK_EQ(drain_trc(wc_lreader_open_mem("k.trc.gz", gz, len, &err), 100, &err), -1);
    CHECK_STR(err.msg, "k.trc.gz:102: more than 100 accesses in one kernel (a limit of "
                       "warpcache's, docs/traces.md)");
#else
    fprintf(stderr, "skipping: warpcache built without zlib\n");
#endif
}

/* The expansion bound (compress.h, 8192:1 past the first GiB) through the
 * .trc reader, real values: 1.3 GiB of comment lines after one access, 43 KB
 * of zstd, was read to its end (exit 0). */
static void test_compression_bomb(void)
{
#ifdef WC_HAVE_ZSTD
    size_t len = 0;
    unsigned char *bomb = zstd_comment_bomb("blocksize: 32 1 1\n0 0 4096 4\n", 160, &len);
    CHECK(bomb != NULL);
    if (!bomb) return;
    wc_err err = {{0}};
    CHECK_EQ(drain_trc(wc_lreader_open_mem("k.trc.zst", bomb, len, &err), 1u << 27, &err), -1);
    /* Lines 3.. are 1 MiB each: the first GiB ends in line 2 + 1024 (or the
     * next, as the bound is checked per decoded piece). */
    CHECK(strncmp(err.msg, "k.trc.zst:1026: ", 16) == 0 ||
          strncmp(err.msg, "k.trc.zst:1027: ", 16) == 0);
    CHECK(strstr(err.msg, "more than 8192 times the compressed size") != NULL);
    free(bomb);
#else
    fprintf(stderr, "skipping: warpcache built without libzstd\n");
#endif
}

int main(void)
{
    RUN(test_hand_fixture);
    RUN(test_bad_input);
    RUN(test_impossible_shapes);
    RUN(test_dense_and_sparse_gids);
    RUN(test_field_syntax);
    RUN(test_no_accesses);
    RUN(test_round_trip);
    RUN(test_records_limit);
    RUN(test_compression_bomb);
    return check_summary("trc");
}
