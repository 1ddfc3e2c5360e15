/*
 * test_wct.c - the native .wct format (src/trace/wct.c): exact round trips
 * (built-in workload -> Accel-Sim text -> read back -> .wct -> read back
 * equals the workload's own stream, field by field, with every codec),
 * per-lane address lists, kernel skipping, and corrupt / truncated files.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "test_trace_util.h"
#include "trace/formats.h"

#define AS_DIR WC_SHARED_DIR "/data/traces/accelsim"

static int drain_path(const char *path, const wc_kernel_filter *f, tlist *l, wc_err *err)
{
    wc_source *src = wc_trace_open(path, WC_TRACE_AUTO, f, err);
    if (!src) {
        memset(l, 0, sizeof *l);
        return -1;
    }
    int rc = tlist_drain(src, l, err);
    wc_source_destroy(src);
    return rc;
}

static void test_workload_round_trips(void)
{
    const char *specs[] = {"micro/stride:n=4096", "micro/colcopy:h=64",
                           "micro/stream:n=1000,block=96"};
    for (int i = 0; i < 3; i++) {
        char dir[256], as[300], wct[300];
        tmpdir_make(dir, sizeof dir);
        snprintf(as, sizeof as, "%s/as", dir);
        wc_err err = {{0}};
        wc_source *gen = wc_workload_open(specs[i], 1, &err);
        CHECK_EQ(wc_trace_write_accelsim(gen, as, &err), 0);
        wc_source_destroy(gen);
        tlist ref, got;
        gen = wc_workload_open(specs[i], 1, &err);
        CHECK_EQ(tlist_drain(gen, &ref, &err), 0);
        wc_source_destroy(gen);
        CHECK(ref.n > 0);
        for (int codec = 0; codec <= 2; codec++) {
            wc_source *rd = wc_trace_open(as, WC_TRACE_AUTO, NULL, &err);
            snprintf(wct, sizeof wct, "%s/t%d.wct", dir, codec);
            wc_wct_options o = {codec};
            CHECK_EQ(wc_trace_write_wct(rd, wct, &o, &err), 0);
            wc_source_destroy(rd);
            CHECK_EQ(drain_path(wct, NULL, &got, &err), 0);
            CHECK(tlist_same(&ref, &got));
            tlist_free(&got);
        }
        tlist_free(&ref);
        tmpdir_remove(dir);
    }
}

static void test_lists_and_real_traces(void)
{
    /* Lists with gaps, zero masks, immediates, 64-bit addresses: text -> wct -> same. */
    const char *text =
        "-kernel name = lists\n-grid dim = (2,1,1)\n-block dim = (40,1,1)\n-accelsim tracer "
        "version = 5\n#\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 4\n"
        "0010 80000011 1 R1 LDG.E.64 1 R2 8 2 0xffffffffffff0000 -8 65536 3\n"
        "0018 00000000 0 STG.E 2 R1 R2 4 0 0\n"
        "0020 0000001a 1 R3 LDG.E 1 R2 4 1 0x100 4 0\n"
        "0028 ffffffff 0 BAR.SYNC 0 0 0\n"
        "warp = 1\ninsts = 1\n0010 000000ff 1 R1 ATOMG.E.ADD 2 R2 R3 4 0 0x10 0x10 0x10 0x10 0x30 "
        "0x20 0x10 0x0\n"
        "#END_TB\n#BEGIN_TB\nthread block = 1,0,0\nwarp = 1\ninsts = 1\n0010 ffffffff 0 EXIT 0 "
        "0\n#END_TB\n";
    char dir[256], wct[300];
    tmpdir_make(dir, sizeof dir);
    snprintf(wct, sizeof wct, "%s/l.wct", dir);
    wc_err err = {{0}};
    tlist ref, got;
    wc_source *src = open_text(text, WC_TRACE_ACCELSIM, &err);
    CHECK_EQ(tlist_drain(src, &ref, &err), 0);
    wc_source_destroy(src);
    CHECK_EQ(ref.n, 6);
    CHECK(ref.v[0].in.addr[31] == 0xffffffffffff0000ull + 65528);
    src = open_text(text, WC_TRACE_ACCELSIM, &err);
    CHECK_EQ(wc_trace_write_wct(src, wct, NULL, &err), 0);
    wc_source_destroy(src);
    CHECK_EQ(drain_path(wct, NULL, &got, &err), 0);
    CHECK(tlist_same(&ref, &got));
    tlist_free(&ref);
    tlist_free(&got);

    /* Two real kernels in one .wct; the filter skips the first without decoding it. */
    char list[400], real[4096], ma[8400];
    if (!realpath(AS_DIR, real)) {
        CHECK(!"real traces missing");
        return;
    }
    snprintf(list, sizeof list, "%s/kernelslist.g", dir);
    snprintf(ma, sizeof ma,
             "%s/vectoradd-100-32/kernel-1.traceg\n%s/matrixmul-32-32/kernel-1.traceg\n", real,
             real);
    write_file(list, ma);
    src = wc_trace_open(list, WC_TRACE_AUTO, NULL, &err);
    CHECK_EQ(wc_trace_write_wct(src, wct, NULL, &err), 0);
    wc_source_destroy(src);
    CHECK_EQ(drain_path(list, NULL, &ref, &err), 0);
    CHECK_EQ(drain_path(wct, NULL, &got, &err), 0);
    CHECK_EQ(ref.n, 344 + 4416);
    CHECK(tlist_same(&ref, &got));
    tlist_free(&got);
    wc_kernel_filter f = {NULL, "mult_gpu"};
    CHECK_EQ(drain_path(wct, &f, &got, &err), 0);
    CHECK_EQ(got.n, 4416);
    CHECK_EQ(got.nk, 1);
    tlist_free(&got);
    tlist_free(&ref);
    tmpdir_remove(dir);
}

static long file_size(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

static void test_corrupt_files(void)
{
    char dir[256], wct[300], bad[300];
    tmpdir_make(dir, sizeof dir);
    snprintf(wct, sizeof wct, "%s/s.wct", dir);
    snprintf(bad, sizeof bad, "%s/bad.wct", dir);
    wc_err err = {{0}};
    wc_source *gen = wc_workload_open("micro/stream:n=20000", 1, &err);
    wc_wct_options o = {0}; /* uncompressed: a flipped byte must be caught by the checksum */
    CHECK_EQ(wc_trace_write_wct(gen, wct, &o, &err), 0);
    wc_source_destroy(gen);
    long n = file_size(wct);
    CHECK(n > 1000);
    FILE *in = fopen(wct, "rb");
    unsigned char *buf = malloc((size_t)n);
    CHECK_EQ(fread(buf, 1, (size_t)n, in), n);
    fclose(in);
    tlist l;
    /* A flipped byte in the middle of the data. */
    buf[n / 2] ^= 0x10;
    FILE *out = fopen(bad, "wb");
    fwrite(buf, 1, (size_t)n, out);
    fclose(out);
    CHECK_EQ(drain_path(bad, NULL, &l, &err), -1);
    CHECK(strstr(err.msg, "checksum mismatch") != NULL || strstr(err.msg, "corrupt") != NULL);
    tlist_free(&l);
    buf[n / 2] ^= 0x10;
    /* Truncated: every prefix fails cleanly (sampled). */
    for (long cut = 0; cut < n; cut += n / 37 + 1) {
        out = fopen(bad, "wb");
        fwrite(buf, 1, (size_t)cut, out);
        fclose(out);
        err.msg[0] = 0;
        CHECK_EQ(drain_path(bad, NULL, &l, &err), -1);
        CHECK(err.msg[0] != 0);
        tlist_free(&l);
    }
    /* Not a .wct at all. */
    wc_source *s = wc_trace_open_mem("WCTRACE\0\x07\0\0\0\0\0\0\0", 16, WC_TRACE_WCT, &err);
    CHECK(s == NULL);
    CHECK(strstr(err.msg, "version 7") != NULL);
    s = wc_trace_open_mem("hello world, not a trace", 24, WC_TRACE_WCT, &err);
    CHECK(s == NULL);
    CHECK(strstr(err.msg, "bad magic") != NULL);
    /* The intact file still reads. */
    s = wc_trace_open_mem(buf, (size_t)n, WC_TRACE_WCT, &err);
    CHECK(s != NULL);
    CHECK_EQ(tlist_drain(s, &l, &err), 0);
    CHECK_EQ(l.n, 3 * 79 * 8); /* 79 blocks of 8 warps, 3 instructions each (micro.c) */
    tlist_free(&l);
    wc_source_destroy(s);
    free(buf);
    tmpdir_remove(dir);
}

/* Reads a whole file into a new buffer; *n = its size. */
static unsigned char *slurp(const char *path, long *n)
{
    *n = file_size(path);
    FILE *f = fopen(path, "rb");
    unsigned char *buf = *n > 0 && f ? malloc((size_t)*n) : NULL;
    if (buf && fread(buf, 1, (size_t)*n, f) != (size_t)*n) {
        free(buf);
        buf = NULL;
    }
    if (f) fclose(f);
    return buf;
}

/* Offset of the first chunk with this 4-letter tag: the file header is 16
 * bytes, a chunk header 24 (stored length at +12), then the payload. */
static long find_chunk(const unsigned char *buf, long n, const char *tag)
{
    long off = 16;
    while (off + 24 <= n) {
        if (!memcmp(buf + off, tag, 4)) return off;
        uint32_t stored = (uint32_t)buf[off + 12] | (uint32_t)buf[off + 13] << 8 |
                          (uint32_t)buf[off + 14] << 16 | (uint32_t)buf[off + 15] << 24;
        off += 24 + (long)stored;
    }
    return -1;
}

/* Expects reading the in-memory file to fail with one of two messages. */
static void expect_read_error(const unsigned char *buf, long n, const char *a, const char *b)
{
    wc_err err = {{0}};
    tlist l = {0};
    wc_source *s = wc_trace_open_mem(buf, (size_t)n, WC_TRACE_WCT, &err);
    int rc = s ? tlist_drain(s, &l, &err) : -1;
    wc_source_destroy(s);
    tlist_free(&l);
    CHECK_EQ(rc, -1);
    CHECK(strstr(err.msg, a) != NULL || strstr(err.msg, b) != NULL);
}

static void test_kend_checked(void)
{
    char dir[256], a[300], b[300];
    tmpdir_make(dir, sizeof dir);
    snprintf(a, sizeof a, "%s/a.wct", dir);
    snprintf(b, sizeof b, "%s/b.wct", dir);
    wc_err err = {{0}};
    wc_wct_options o = {0};
    /* 300 elements, 64 threads per block: 5 blocks; 320: also 5 blocks, 384: 6. */
    wc_source *gen = wc_workload_open("micro/stream:n=300,block=64", 1, &err);
    CHECK_EQ(wc_trace_write_wct(gen, a, &o, &err), 0);
    wc_source_destroy(gen);
    gen = wc_workload_open("micro/stream:n=384,block=64", 1, &err);
    CHECK_EQ(wc_trace_write_wct(gen, b, &o, &err), 0);
    wc_source_destroy(gen);
    long n, nb;
    unsigned char *buf = slurp(a, &n), *other = slurp(b, &nb);
    CHECK(buf != NULL && other != NULL);
    if (!buf || !other) return;
    long k = find_chunk(buf, n, "KEND"), kb = find_chunk(other, nb, "KEND");
    CHECK(k > 0 && kb > 0);
    long len = 24 + (long)buf[k + 12]; /* payload: 2 short varints */
    /* Every bit of every byte of the KEND chunk (header and payload) flipped
     * alone must be caught: the checksum covers the payload and is seeded
     * with tag, codec and length; the other header bytes are checked. */
    unsigned caught = 0;
    for (long i = k; i < k + len; i++)
        for (int bit = 0; bit < 8; bit++) {
            buf[i] ^= (unsigned char)(1u << bit);
            expect_read_error(buf, n, "checksum mismatch", "corrupt");
            buf[i] ^= (unsigned char)(1u << bit);
            caught++;
        }
    CHECK_EQ(caught, 8 * len);
    /* A well-formed KEND of another kernel (6 blocks: 384 / 64) with a valid
     * checksum (the hash is over the chunk, not its position): counts disagree. */
    CHECK_EQ(len, 24 + (long)other[kb + 12]);
    if (len == 24 + (long)other[kb + 12]) {
        memcpy(buf + k, other + kb, (size_t)len);
        expect_read_error(buf, n, "end record counts 6 blocks, its grid has 5", "?");
    }
    free(buf);
    free(other);
    tmpdir_remove(dir);
}

/* Sets a little-endian u32 at p. */
static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

/* A chunk's claimed sizes are checked before anything is allocated or read
 * (so before its checksum): at most 64 MiB decompressed (was 1 GiB: a 33 KB
 * file of zstd runs made every reader fill 1 GiB), and no more than its
 * codec can expand the stored bytes (zlib 1032:1, zstd 32768:1).  The
 * header's reserved word must be 0.  Every message names the file. */
static void test_chunk_bounds(void)
{
    char dir[256], a[300];
    tmpdir_make(dir, sizeof dir);
    snprintf(a, sizeof a, "%s/a.wct", dir);
    wc_err err = {{0}};
    wc_wct_options o = {0};
    wc_source *gen = wc_workload_open("micro/stream:n=300,block=64", 1, &err);
    CHECK_EQ(wc_trace_write_wct(gen, a, &o, &err), 0);
    wc_source_destroy(gen);
    long n;
    unsigned char *buf = slurp(a, &n);
    CHECK(buf != NULL);
    if (!buf) return;
    long b = find_chunk(buf, n, "BLCK");
    CHECK(b > 0);
    unsigned char hdr[24];
    memcpy(hdr, buf + b, 24);
    uint32_t stored = (uint32_t)hdr[12] | (uint32_t)hdr[13] << 8 | (uint32_t)hdr[14] << 16;
    CHECK(stored > 100 && stored < 1000); /* the 5 blocks of 2 warps, uncompressed */
    /* 1 GiB claimed (raw = stored, codec none): over the cap. */
    put32(buf + b + 8, 1u << 30);
    put32(buf + b + 12, 1u << 30);
    expect_read_error(buf, n, "larger than a .wct chunk may be (64 MiB", "?");
    /* 64 MiB + 1 from zstd: over the cap by one byte. */
    buf[b + 4] = 2;
    put32(buf + b + 8, (64u << 20) + 1);
    put32(buf + b + 12, 4096);
    expect_read_error(buf, n, "chunk of 67108865 bytes (4096 stored) is larger", "?");
    /* 40 MiB from a few hundred stored bytes: more than zstd can give. */
    put32(buf + b + 8, 40u << 20);
    put32(buf + b + 12, stored);
    expect_read_error(buf, n, "more than zstd can expand (32768:1", "?");
    /* 2 MB from them is within zstd's reach but not zlib's. */
    buf[b + 4] = 1;
    put32(buf + b + 8, 2000000);
    expect_read_error(buf, n, "more than zlib can expand (1032:1", "?");
    memcpy(buf + b, hdr, 24);
    /* The reserved word of the file header. */
    buf[12] = 1;
    expect_read_error(buf, n, "reserved word is 0x00000001, not 0", "?");
    buf[12] = 0;
    tlist l = {0};
    wc_source *s = wc_trace_open_mem(buf, (size_t)n, WC_TRACE_WCT, &err);
    CHECK(s != NULL && tlist_drain(s, &l, &err) == 0); /* restored: reads */
    wc_source_destroy(s);
    tlist_free(&l);
    free(buf);
    tmpdir_remove(dir);
}

/* A path that is not a regular file is refused before it is opened: a pipe
 * blocked the reader, /dev/zero made it read forever. */
static void test_not_regular(void)
{
    char dir[256], fifo[300];
    tmpdir_make(dir, sizeof dir);
    snprintf(fifo, sizeof fifo, "%s/p.wct", dir);
    CHECK_EQ(mkfifo(fifo, 0600), 0);
    wc_err err = {{0}};
    const char *paths[] = {fifo, "/dev/zero", "/dev/null"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        err.msg[0] = 0;
        wc_source *s = wc_trace_open(paths[i], WC_TRACE_AUTO, NULL, &err);
        CHECK(s == NULL);
        wc_source_destroy(s);
        CHECK(strstr(err.msg, "not a regular file") != NULL);
        CHECK(strncmp(err.msg, paths[i], strlen(paths[i])) == 0);
    }
    unlink(fifo);
    tmpdir_remove(dir);
}

/* The launch-shape check every reader applies (formats.h): each dimension is
 * bounded before a product is formed.  Block (2^32-1)^3 wraps a 64-bit
 * product; (2^16)^2 x 1 is 2^32 threads; grid (2^31-1) x 65535 is ~1.4e14. */
static void test_shape_limits(void)
{
    wc_dim3 b32 = {32, 1, 1}, g1 = {1, 1, 1};
    CHECK_EQ(wc_trace_shape_fault(g1, b32), WC_SHAPE_OK);
    CHECK_EQ(wc_trace_shape_fault((wc_dim3){2147483647, 2, 1}, b32), WC_SHAPE_OK); /* 2^32-2 */
    CHECK_EQ(wc_trace_shape_fault((wc_dim3){2147483647, 3, 1}, b32), WC_SHAPE_GRID_BLOCKS);
    CHECK_EQ(wc_trace_shape_fault((wc_dim3){2147483648u, 1, 1}, b32), WC_SHAPE_GRID_DIM);
    CHECK_EQ(wc_trace_shape_fault((wc_dim3){1, 65536, 1}, b32), WC_SHAPE_GRID_DIM);
    CHECK_EQ(wc_trace_shape_fault((wc_dim3){4294967295u, 4294967295u, 4294967295u}, b32),
             WC_SHAPE_GRID_DIM);
    CHECK_EQ(wc_trace_shape_fault((wc_dim3){0, 1, 1}, b32), WC_SHAPE_GRID_ZERO);
    CHECK_EQ(wc_trace_shape_fault(g1, (wc_dim3){4294967295u, 4294967295u, 4294967295u}),
             WC_SHAPE_BLOCK);
    CHECK_EQ(wc_trace_shape_fault(g1, (wc_dim3){65536, 65536, 1}), WC_SHAPE_BLOCK);
    CHECK_EQ(wc_trace_shape_fault(g1, (wc_dim3){65536, 1, 1}), WC_SHAPE_OK);
    CHECK_EQ(wc_trace_shape_fault(g1, (wc_dim3){1, 1, 0}), WC_SHAPE_BLOCK);
}

int main(void)
{
    RUN(test_workload_round_trips);
    RUN(test_lists_and_real_traces);
    RUN(test_corrupt_files);
    RUN(test_kend_checked);
    RUN(test_chunk_bounds);
    RUN(test_not_regular);
    RUN(test_shape_limits);
    return check_summary("wct");
}
