/*
 * test_accelsim.c - the Accel-Sim / NVBit trace reader and writer
 * (src/trace/accelsim.c): the two real GTX 1080 traces in
 * ../shared/data/traces/accelsim (counts from their stats.csv and README,
 * addresses read by hand from the file lines), small fixtures for what the
 * real files lack (mode 2, immediates, lineinfo, zero masks, versions,
 * compression), bad input, and kernel selection.
 */
#include "check.h"
#include "test_trace_util.h"
#include "tiny_gpu.h"
#include "trace/formats.h"
#include "warpcache/sim.h"

#define AS_DIR WC_SHARED_DIR "/data/traces/accelsim"

static const char HDR[] = "-kernel name = _Z4testPi\n-kernel id = 1\n-grid dim = (2,1,1)\n"
                          "-block dim = (64,1,1)\n-shmem = 0\n-nregs = 16\n"
                          "-shmem base_addr = 0x00007f0000000000\n"
                          "-local mem base_addr = 0x00007e0000000000\n";

/* Builds a one-kernel trace: header + version/lineinfo lines + one block of two warps. */
static wc_source *fixture(char *buf, size_t cap, int version, int lineinfo, const char *w0, int n0,
                          wc_err *err)
{
    snprintf(
        buf, cap,
        "%s-accelsim tracer version = %d\n-enable lineinfo = %d\n\n#traces format = x\n\n"
        "#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = %d\n%s\nwarp = 1\ninsts = 0\n\n"
        "#END_TB\n",
        HDR, version, lineinfo, n0, w0);
    return open_text(buf, WC_TRACE_ACCELSIM, err);
}

/* Reads the first instruction of warp 0, block 0 of a fixture. */
static int first_inst(wc_source *src, wc_winst *in, wc_err *err)
{
    wc_kernel k;
    void *b;
    if (src->ops->next_kernel(src, &k, err) != 1) return -1;
    if (src->ops->open_block(src, 0, &b, err) != 1) return -1;
    int rc = src->ops->next_inst(src, b, 0, in, err);
    src->ops->close_block(src, b);
    return rc;
}

static void test_vectoradd_counts(void)
{
    wc_err err = {{0}};
    wc_source *src = wc_trace_open(AS_DIR "/vectoradd-100-32", WC_TRACE_AUTO, NULL, &err);
    CHECK(src != NULL);
    if (!src) {
        fprintf(stderr, "%s\n", err.msg);
        return;
    }
    tlist l;
    CHECK_EQ(tlist_drain(src, &l, &err), 0);
    CHECK_EQ(l.nk, 1);
    CHECK_STR(l.k[0].name, "_Z6vecAddIfEvPT_S1_S1_i");
    CHECK_EQ(l.k[0].block.x, 1024);
    CHECK_EQ(l.k[0].grid.x, 1);
    CHECK_EQ(l.k[0].regs_per_thread, 8);
    CHECK_EQ(l.n, 344); /* stats.csv: total_insts 344 */
    unsigned warps_seen = 0, ldg = 0, stg = 0;
    for (size_t i = 0; i < l.n; i++) {
        if (i == 0 || l.v[i].warp != l.v[i - 1].warp) warps_seen++;
        ldg += l.v[i].in.op == WC_OP_LDG;
        stg += l.v[i].in.op == WC_OP_STG;
    }
    CHECK_EQ(warps_seen, 32);
    /* 100 elements: warps 0..3 each load a and b and store c (README). */
    CHECK_EQ(ldg, 8);
    CHECK_EQ(stg, 4);
    /* Hand-read lines of warp 0: line 9 "0058 00000000 0 EXIT 0 0" */
    CHECK_EQ(l.v[8].in.op, WC_OP_EXIT);
    CHECK_EQ(l.v[8].in.mask, 0);
    /* "0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0": R255 (zero register) omitted. */
    CHECK_EQ(l.v[3].in.pc, 0x28);
    CHECK_EQ(l.v[3].in.nsrc, 1);
    CHECK_EQ(l.v[3].in.src[0], 0);
    CHECK_EQ(l.v[3].in.dst[0], 3);
    /* "0098 ffffffff 1 R4 LDG.E.CG 1 R4 4 1 0x7f2b2d500000 4" */
    const wc_winst *ld = &l.v[14].in;
    CHECK_EQ(ld->op, WC_OP_LDG);
    CHECK_EQ(ld->pc, 0x98);
    CHECK_EQ(ld->amode, WC_ADDR_STRIDE);
    CHECK_EQ(ld->width, 4);
    CHECK(wc_winst_lane_addr(ld, 0) == 0x7f2b2d500000ull);
    CHECK(wc_winst_lane_addr(ld, 31) == 0x7f2b2d500000ull + 31 * 4);
    CHECK_EQ(ld->flags, 0);
    /* "00d8 ffffffff 0 STG.E 2 R6 R0 4 1 0x7f2b2d500400 4" */
    const wc_winst *st = &l.v[20].in;
    CHECK_EQ(st->op, WC_OP_STG);
    CHECK_EQ(st->ndst, 0);
    CHECK_EQ(st->nsrc, 2);
    CHECK_EQ(st->src[0], 6);
    CHECK_EQ(st->src[1], 0);
    CHECK(wc_winst_lane_addr(st, 5) == 0x7f2b2d500414ull);
    /* Warp 3, "0098 0000000f 1 R4 LDG.E.CG 1 R4 4 1 0x7f2b2d500180 4": partial mask. */
    size_t w3 = 3 * 23 + 14;
    CHECK_EQ(l.v[w3].warp, 3);
    CHECK_EQ(l.v[w3].in.mask, 0xf);
    CHECK(wc_winst_lane_addr(&l.v[w3].in, 3) == 0x7f2b2d50018cull);
    tlist_free(&l);
    wc_source_destroy(src);
}

static void test_matrixmul_counts(void)
{
    wc_err err = {{0}};
    wc_source *src =
        wc_trace_open(AS_DIR "/matrixmul-32-32/kernelslist.g", WC_TRACE_AUTO, NULL, &err);
    CHECK(src != NULL);
    if (!src) return;
    tlist l;
    CHECK_EQ(tlist_drain(src, &l, &err), 0);
    CHECK_EQ(l.n, 32 * 138); /* README: 32 warps x 138 instructions */
    CHECK_EQ(l.k[0].shmem_bytes, 8192);
    unsigned ldg = 0, stg = 0, sts = 0, lds4 = 0, lds16 = 0, per_warp[32] = {0};
    for (size_t i = 0; i < l.n; i++) {
        const wc_winst *in = &l.v[i].in;
        per_warp[l.v[i].warp]++;
        ldg += in->op == WC_OP_LDG;
        stg += in->op == WC_OP_STG;
        sts += in->op == WC_OP_STS;
        lds4 += in->op == WC_OP_LDS && in->width == 4;
        lds16 += in->op == WC_OP_LDS && in->width == 16;
    }
    CHECK_EQ(ldg, 64);
    CHECK_EQ(stg, 32);
    CHECK_EQ(sts, 64);
    CHECK_EQ(lds4, 1024);
    CHECK_EQ(lds16, 256);
    for (int w = 0; w < 32; w++) CHECK_EQ(per_warp[w], 138);
    /* Warp 5: "0008 ffffffff 1 R1 MOV 0 0" first; "0208 ffffffff 1 R25 LDG.E 1 R8 4 1
     * 0x7fb02d700280 4"; its only store "0590 ... STG.E 2 R18 R11 4 1 0x7fb02d702280 4";
     * "0038 ffffffff 1 R11 MOV 1 R255 0" has no source register left. */
    CHECK_EQ(l.v[5 * 138].in.pc, 0x8);
    CHECK_EQ(l.v[5 * 138].in.op, WC_OP_ALU);
    CHECK_EQ(l.v[5 * 138 + 5].in.pc, 0x38);
    CHECK_EQ(l.v[5 * 138 + 5].in.nsrc, 0);
    unsigned found = 0;
    for (size_t i = 5 * 138; i < 6 * 138; i++) {
        const wc_winst *in = &l.v[i].in;
        if (in->pc == 0x208) {
            found++;
            CHECK_EQ(in->op, WC_OP_LDG);
            CHECK_EQ(in->dst[0], 25);
            CHECK_EQ(in->src[0], 8);
            CHECK(wc_winst_lane_addr(in, 2) == 0x7fb02d700288ull);
        }
        if (in->op == WC_OP_STG) {
            found++;
            CHECK_EQ(in->pc, 0x590);
            CHECK(wc_winst_lane_addr(in, 0) == 0x7fb02d702280ull);
        }
    }
    CHECK_EQ(found, 2);
    /* Warp 0, "0278 ffffffff 1 R12 LDS.U.128 1 R2 16 1 0x0 0": stride 0, 16 bytes. */
    found = 0;
    for (size_t i = 0; i < 138; i++) {
        const wc_winst *s16 = &l.v[i].in;
        if (s16->pc != 0x278) continue;
        found++;
        CHECK_EQ(s16->op, WC_OP_LDS);
        CHECK_EQ(s16->width, 16);
        CHECK_EQ(s16->amode, WC_ADDR_STRIDE);
        CHECK_EQ(s16->stride, 0);
        CHECK_EQ(s16->dst[0], 12);
    }
    CHECK(found >= 1);
    tlist_free(&l);
    wc_source_destroy(src);
}

static void test_mode2_deltas_and_immediate(void)
{
    char buf[4096];
    wc_err err = {{0}};
    /* 4 active lanes (0,1,4,5): base then 3 deltas, then an immediate 77 (v5). */
    wc_source *src = fixture(buf, sizeof buf, 5, 0,
                             "0010 00000033 1 R1 LDG.E.64 1 R2 8 2 0x1000 8 -16 400 77", 1, &err);
    wc_winst in;
    CHECK_EQ(first_inst(src, &in, &err), 1);
    CHECK_EQ(in.amode, WC_ADDR_LIST);
    CHECK_EQ(in.width, 8);
    CHECK(in.addr[0] == 0x1000);
    CHECK(in.addr[1] == 0x1008);
    CHECK(in.addr[4] == 0x0ff8);
    CHECK(in.addr[5] == 0x0ff8 + 400);
    wc_source_destroy(src);
    /* One active lane: "2 0x<addr>" then the immediate. */
    src = fixture(buf, sizeof buf, 5, 0, "0010 00000100 0 STG.E.U8 2 R2 R3 1 2 0x2005 12", 1, &err);
    CHECK_EQ(first_inst(src, &in, &err), 1);
    CHECK_EQ(in.op, WC_OP_STG);
    CHECK_EQ(in.width, 1);
    CHECK(wc_winst_lane_addr(&in, 8) == 0x2005);
    wc_source_destroy(src);
    /* Base+stride with a trailing immediate: the immediate is not the stride. */
    src = fixture(buf, sizeof buf, 4, 0, "0010 ffffffff 1 R1 LDG.E 1 R2 4 1 0x3000 4 99", 1, &err);
    CHECK_EQ(first_inst(src, &in, &err), 1);
    CHECK_EQ(in.stride, 4);
    wc_source_destroy(src);
}

static void test_mode1_gapped_mask_expands(void)
{
    char buf[4096];
    wc_err err = {{0}};
    /* Mask lanes 1,3,4: Accel-Sim ranks them 0,1,2 -> 0x100, 0x104, 0x108. */
    wc_source *src =
        fixture(buf, sizeof buf, 4, 0, "0010 0000001a 1 R1 LDG.E 1 R2 4 1 0x100 4", 1, &err);
    wc_winst in;
    CHECK_EQ(first_inst(src, &in, &err), 1);
    CHECK_EQ(in.amode, WC_ADDR_LIST);
    CHECK(in.addr[1] == 0x100);
    CHECK(in.addr[3] == 0x104);
    CHECK(in.addr[4] == 0x108);
    wc_source_destroy(src);
    /* Same gapped mask, stride 0: stays a stride. */
    src = fixture(buf, sizeof buf, 4, 0, "0010 0000001a 1 R1 LDG.E 1 R2 4 1 0x100 0", 1, &err);
    CHECK_EQ(first_inst(src, &in, &err), 1);
    CHECK_EQ(in.amode, WC_ADDR_STRIDE);
    CHECK(wc_winst_lane_addr(&in, 4) == 0x100);
    wc_source_destroy(src);
    /* Mode 0 lists one address per active lane in lane order. */
    src = fixture(buf, sizeof buf, 4, 0, "0010 00000005 1 R1 LDG.E 1 R2 4 0 0x500 0x400", 1, &err);
    CHECK_EQ(first_inst(src, &in, &err), 1);
    CHECK(in.addr[0] == 0x500);
    CHECK(in.addr[2] == 0x400);
    wc_source_destroy(src);
}

static void test_lineinfo_zero_mask_v3(void)
{
    char buf[4096];
    wc_err err = {{0}};
    wc_source *src =
        fixture(buf, sizeof buf, 4, 1, "17 0040 ffffffff 1 R7 MUFU.EX2 1 R7 0", 1, &err);
    wc_winst in;
    CHECK_EQ(first_inst(src, &in, &err), 1);
    CHECK_EQ(in.pc, 0x40);
    CHECK_EQ(in.op, WC_OP_SFU);
    wc_source_destroy(src);
    /* Zero mask memory instruction: no addresses. */
    src = fixture(buf, sizeof buf, 3, 0, "0040 00000000 0 STG.E 2 R1 R2 4 0", 1, &err);
    CHECK_EQ(first_inst(src, &in, &err), 1);
    CHECK_EQ(in.op, WC_OP_STG);
    CHECK_EQ(in.mask, 0);
    wc_source_destroy(src);
    /* Generic LD classified by the header's windows; STRONG.GPU; atomics. */
    src = fixture(buf, sizeof buf, 4, 0,
                  "0040 00000001 1 R1 LD.E.64.STRONG.GPU 1 R2 8 0 0x7f0000000040", 1, &err);
    CHECK_EQ(first_inst(src, &in, &err), 1);
    CHECK_EQ(in.op, WC_OP_LDS);
    CHECK_EQ(in.flags & WC_INST_NO_L1_ALLOC, WC_INST_NO_L1_ALLOC);
    wc_source_destroy(src);
    src = fixture(buf, sizeof buf, 4, 0, "0040 00000001 1 R1 ST.E 2 R2 R3 4 0 0x7e0000000100", 1,
                  &err);
    CHECK_EQ(first_inst(src, &in, &err), 1);
    CHECK_EQ(in.op, WC_OP_STL);
    wc_source_destroy(src);
    src =
        fixture(buf, sizeof buf, 4, 0, "0040 00000001 1 R1 RED.E.ADD 2 R2 R3 4 0 0x9000", 1, &err);
    CHECK_EQ(first_inst(src, &in, &err), 1);
    CHECK_EQ(in.op, WC_OP_ATOM);
    CHECK_EQ(in.flags, WC_INST_NO_L1_ALLOC);
    wc_source_destroy(src);
    src = fixture(buf, sizeof buf, 4, 0, "0040 00000001 1 R1 LDG.E.U16 1 R2 4 0 0x9000", 1, &err);
    CHECK_EQ(first_inst(src, &in, &err), 1);
    CHECK_EQ(in.width, 2); /* the opcode modifier wins over mem_width */
    wc_source_destroy(src);
}

/* Expects opening + reading the fixture to fail with a message containing `what`. */
static void expect_error(const char *text, const char *what)
{
    expect_trace_error(text, WC_TRACE_ACCELSIM, what);
}

static void test_bad_input(void)
{
    char buf[4096];
#define BODY(v, lines, n)                                                                          \
    (snprintf(buf, sizeof buf,                                                                     \
              "%s-accelsim tracer version = %d\n#x\n#BEGIN_TB\nthread block = 0,0,0\nwarp = "      \
              "0\ninsts = %s\n%s\n#END_TB\n",                                                      \
              HDR, v, n, lines),                                                                   \
     buf)
    expect_error(
        BODY(4, "0010 ffffffff 0 IADD 0 0\n0018 ffffffff 0 IADD 0 0\n0020 ffffffff 0 IADD 0 0",
             "5"),
        "<memory>:18: expected instruction 4 of 5 of warp 0, found #END_TB");
    expect_error(BODY(4, "0010 00000007 1 R1 LDG.E 1 R2 4 0 0x10 0x20", "1"),
                 "expected one 0x address");
    expect_error(BODY(4, "0010 00000003 1 R1 LDG.E 1 R2 4 2 0x10", "1"),
                 "one delta per active lane");
    expect_error(BODY(4, "0010 00000001 1 R1 LDG.E 1 R2 4 7 0x10", "1"), "address mode 0, 1 or 2");
    expect_error(BODY(4, "0010 00000001 1 R1 LDG.E 1 R2 4 0 0x10 0x20", "1"),
                 "more addresses than active");
    expect_error(BODY(4, "0010 ffffffff 99999999999999999999 R1 IADD 0 0", "1"), "dest_num");
    expect_error(BODY(4, "0 0 0 0 0010 ffffffff 0 IADD 0 0", "1"), "1.2-style");
    expect_error(BODY(2, "0010 ffffffff 0 IADD 0 0", "1"), "not supported");
    expect_error(BODY(4, "0010 ffffffff 0 IADD 0 0", "99999999999"), "insts = <n>");
    expect_error(
        "-kernel name = x\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n#\n#BEGIN_TB\nthread "
        "block = 0,0,0\nwarp = 0\ninsts = 1\n0010 ffffffff 0 IADD 0 0\n",
        "truncated thread block");
    expect_error("\x01\x02garbage\xff\n", "header line");
    expect_error(
        "-kernel name = x\n-grid dim = (2,1,1)\n-block dim = (32,1,1)\n#\n#BEGIN_TB\nthread "
        "block = 1,0,0\n#END_TB\n#BEGIN_TB\nthread block = 0,0,0\n#END_TB\n",
        "increasing linear block id");
    expect_error(
        "-kernel name = x\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n#\n#BEGIN_TB\nthread "
        "block = 0,0,0\nwarp = 1\ninsts = 0\n#END_TB\n",
        "warp 1 out of range");
#undef BODY
}

/* Exact messages for malformed tokens: what the format strings in accelsim.c
 * say for each token kind (line 15 is the instruction line of BODY). */
static void test_token_errors_exact(void)
{
    char buf[4096];
    static const struct {
        const char *line, *msg;
    } cases[] = {
        {"001g ffffffff 0 IADD 0 0", "<memory>:15: expected hex PC, found '001g'"},
        {"0010 fffffff 0 IADD 0 0",
         "<memory>:15: expected an 8-hex-digit active mask, found 'fffffff' (1.2-style lines "
         "'tb_x tb_y tb_z warpid PC mask ...' are not supported)"},
        {"0010 ffffffff 2 R1 Rx IADD 0 0", "<memory>:15: expected register R<n>, found 'Rx'"},
        {"0010 ffffffff 1 R65535 IADD 0 0", "<memory>:15: expected register R<n>, found 'R65535'"},
        {"0010 ffffffff 65 IADD 0 0", "<memory>:15: expected dest_num (0..64), found '65'"},
        {"0010 ffffffff 0 IADD -1 0", "<memory>:15: expected src_num (0..64), found '-1'"},
        {"0010 ffffffff 0 IADD 1", "<memory>:15: expected source register, found end of line"},
        {"0010 ffffffff 0 LDG.E 0 4097 1 0x10 4",
         "<memory>:15: expected mem_width (bytes), found '4097'"},
        {"0010 ffffffff 0 LDG.E 0 4 1 0X10 4",
         "<memory>:15: expected 0x<hex> base address, found '0X10'"},
        {"0010 ffffffff 0 LDG.E 0 4 1 0x1ffffffffffffffff 4",
         "<memory>:15: expected 0x<hex> base address, found '0x1ffffffffffffffff'"},
        {"0010 ffffffff 0 LDG.E 0 4 1 0x10", "<memory>:15: expected stride, found end of line"},
        {"0010 ffffffff 0 LDG.E 0 4 1 0x10 +-4",
         "<memory>:15: expected signed decimal stride, found '+-4'"},
        {"0010 00000003 0 LDG.E 0 4 2 0x10 9223372036854775808",
         "<memory>:15: expected signed decimal address delta, found '9223372036854775808'"},
        {"0010 00000001 0 LDG.E 0 4 0 16", "<memory>:15: expected 0x<hex> address, found '16'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(buf, sizeof buf,
                 "%s-accelsim tracer version = 4\n#x\n#BEGIN_TB\nthread block = 0,0,0\nwarp = "
                 "0\ninsts = 1\n%s\n#END_TB\n",
                 HDR, cases[i].line);
        wc_err err = {{0}};
        wc_source *src = open_text(buf, WC_TRACE_ACCELSIM, &err);
        CHECK(src != NULL);
        if (!src) continue;
        tlist l;
        CHECK_EQ(tlist_drain(src, &l, &err), -1);
        tlist_free(&l);
        wc_source_destroy(src);
        if (strcmp(err.msg, cases[i].msg)) fprintf(stderr, "got '%s'\n", err.msg);
        CHECK(strcmp(err.msg, cases[i].msg) == 0);
    }
    /* The extreme values that do fit. */
    snprintf(buf, sizeof buf,
             "%s-accelsim tracer version = 4\n#x\n#BEGIN_TB\nthread block = 0,0,0\nwarp = "
             "0\ninsts = 1\n0010 00000003 1 R65534 LDG.E 0 4 2 0xffffffffffffffff "
             "-9223372036854775808\n#END_TB\n",
             HDR);
    wc_err err = {{0}};
    wc_source *src = open_text(buf, WC_TRACE_ACCELSIM, &err);
    wc_winst in;
    CHECK(src && first_inst(src, &in, &err) == 1);
    CHECK_EQ(in.dst[0], 65534);
    CHECK_EQ(in.addr[0], UINT64_MAX);
    CHECK_EQ(in.addr[1], UINT64_MAX - (1ull << 63));
    wc_source_destroy(src);
}

/* One instruction line in a version-4 block; 1 and *in on success, else -1
 * with err's message. */
static int parse_one(const char *line, wc_winst *in, wc_err *err)
{
    char buf[4096];
    snprintf(buf, sizeof buf,
             "%s-accelsim tracer version = 4\n#x\n#BEGIN_TB\nthread block = 0,0,0\nwarp = "
             "0\ninsts = 1\n%s\n#END_TB\n",
             HDR, line);
    wc_source *src = open_text(buf, WC_TRACE_ACCELSIM, err);
    int rc = src ? first_inst(src, in, err) : -1;
    wc_source_destroy(src);
    return rc;
}

/* Number tokens longer than 16 hex / 19 decimal digits: the reader's fast
 * digit loop hands these to the checked one, which must accept leading zeros
 * (the value decides, not the length) and reject what does not fit 64 bits. */
static void test_long_digit_runs(void)
{
    wc_winst in;
    wc_err err = {{0}};
    /* 22 hex digits worth 0x10; 24 decimal digits worth 1; 20-digit INT64_MIN. */
    CHECK_EQ(parse_one("0x0000000000000000000010 00000001 000000000000000000000001 R3 LDG.E 0 4 "
                       "1 0x0000000000000000000000abc -09223372036854775808",
                       &in, &err),
             1);
    CHECK_EQ(in.pc, 0x10);
    CHECK_EQ(in.ndst, 1);
    CHECK_EQ(in.dst[0], 3);
    CHECK_EQ(in.base, 0xabc); /* mode 1 with a full mask: a stride access */
    CHECK_EQ(in.stride, INT64_MIN);
    /* 16 hex digits fit exactly; 17 significant ones do not. */
    CHECK_EQ(parse_one("ffffffffffffffff ffffffff 0 IADD 0 0", &in, &err), 1);
    CHECK_EQ(in.pc, UINT64_MAX);
    static const struct {
        const char *line, *msg;
    } bad[] = {
        {"10000000000000000 ffffffff 0 IADD 0 0",
         "<memory>:15: expected hex PC, found '10000000000000000'"},
        {"0x00000000000000000000000000001g ffffffff 0 IADD 0 0",
         "<memory>:15: expected hex PC, found '0x00000000000000000000000000001g'"},
        {"0010 ffffffff 18446744073709551616 IADD 0 0",
         "<memory>:15: expected dest_num (0..64), found '18446744073709551616'"},
        {"0010 ffffffff 0 IADD 000000000000000000000000065 0",
         "<memory>:15: expected src_num (0..64), found '000000000000000000000000065'"},
        {"0010 ffffffff 0 LDG.E 0 4 1 0x10 -9223372036854775809",
         "<memory>:15: expected signed decimal stride, found '-9223372036854775809'"},
        {"0010 ffffffff 1 R000000000000000000065535 IADD 0 0",
         "<memory>:15: expected register R<n>, found 'R000000000000000000065535'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        wc_err e = {{0}};
        CHECK_EQ(parse_one(bad[i].line, &in, &e), -1);
        if (strcmp(e.msg, bad[i].msg)) fprintf(stderr, "got '%s'\n", e.msg);
        CHECK(strcmp(e.msg, bad[i].msg) == 0);
    }
}

/* Every opcode name the reader knows, and near misses of them, with the
 * operation the format's documentation gives (docs/traces.md): the name is
 * what stands before the first '.', and modifiers set the width. */
static void test_opcode_names(void)
{
    static const struct {
        const char *opcode;
        int op;
        unsigned width;
    } cases[] = {
        {"LDG.E", WC_OP_LDG, 4},
        {"LDG", WC_OP_LDG, 4},
        {"TEX.B", WC_OP_LDG, 4},
        {"TLD.LZ", WC_OP_LDG, 4},
        {"TLD4.R", WC_OP_LDG, 4},
        {"LDGSTS.E", WC_OP_LDG, 4},
        {"STG.E.64", WC_OP_STG, 8},
        {"ATOM.E.ADD", WC_OP_ATOM, 4},
        {"ATOMG.E", WC_OP_ATOM, 4},
        {"RED.E.ADD", WC_OP_ATOM, 4},
        {"LDL.128", WC_OP_LDL, 16},
        {"STL.U16", WC_OP_STL, 2},
        {"LDS.S8", WC_OP_LDS, 1},
        {"LDSM.16", WC_OP_LDS, 4},
        {"ATOMS.ADD", WC_OP_LDS, 4},
        {"STS.32", WC_OP_STS, 4},
        {"LD.E", WC_OP_LDG, 4},
        {"ST.E", WC_OP_STG, 4},
        /* near misses: ALU, so their addresses are dropped */
        {"LDGX", WC_OP_ALU, 0},
        {"L", WC_OP_ALU, 0},
        {"LDGSTSX", WC_OP_ALU, 0},
        {"TEXS", WC_OP_ALU, 0},
        {"ATOMX", WC_OP_ALU, 0},
        {"S", WC_OP_ALU, 0},
        {"XLDG.E", WC_OP_ALU, 0},
        {"LDC.E", WC_OP_ALU, 0},
        {"ldg.E", WC_OP_ALU, 0},
    };
    char line[256];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        wc_winst in;
        wc_err err = {{0}};
        snprintf(line, sizeof line, "0010 ffffffff 0 %s 0 4 1 0x1000 4", cases[i].opcode);
        CHECK_EQ(parse_one(line, &in, &err), 1);
        if (in.op != cases[i].op || in.width != cases[i].width)
            fprintf(stderr, "%s: op %d width %u\n", cases[i].opcode, in.op, in.width);
        CHECK_EQ(in.op, cases[i].op);
        CHECK_EQ(in.width, cases[i].width);
    }
    /* Names without addresses. */
    static const struct {
        const char *opcode;
        int op;
    } plain[] = {{"BAR.SYNC", WC_OP_BAR}, {"BAR", WC_OP_BAR},    {"EXIT", WC_OP_EXIT},
                 {"MUFU.RCP", WC_OP_SFU}, {"MUFUX", WC_OP_ALU},  {"BARX", WC_OP_ALU},
                 {"EXIT.X", WC_OP_EXIT},  {"IADD3.X", WC_OP_ALU}};
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
        wc_winst in;
        wc_err err = {{0}};
        snprintf(line, sizeof line, "0010 ffffffff 0 %s 0 0", plain[i].opcode);
        CHECK_EQ(parse_one(line, &in, &err), 1);
        CHECK_EQ(in.op, plain[i].op);
    }
}

/* A ~1.5 MB trace with CRLF endings and lines of varying length, so that lines
 * straddle the reader's buffer refills at many offsets; every instruction must
 * come back as generated. */
static void test_long_input_buffer_boundaries(void)
{
    enum { N = 20000 };
    size_t cap = 2u << 20, len = 0;
    char *buf = malloc(cap);
    CHECK(buf != NULL);
    if (!buf) return;
    len += (size_t)snprintf(buf, cap,
                            "-kernel name = big\r\n-grid dim = (1,1,1)\r\n-block dim = "
                            "(32,1,1)\r\n-accelsim tracer version = 4\r\n\r\n#BEGIN_TB\r\n"
                            "thread block = 0,0,0\r\nwarp = 0\r\ninsts = %d\r\n",
                            N);
    for (int i = 0; i < N; i++) {
        unsigned long long base = 0x100000ull + 4096ull * (unsigned)i;
        if (i % 3 == 2) /* gapped mask, mode 2: lanes 0, 2, 5 at base, +8, +8 + i */
            len += (size_t)snprintf(buf + len, cap - len,
                                    "%04x 00000025 1 R%d LDG.E.64 1 R2 8 2 0x%llx 8 %d \r\n",
                                    0x10 + 8 * i, i % 200, base, i);
        else /* full mask, mode 1; padding of i % 37 blanks varies the line length */
            len += (size_t)snprintf(buf + len, cap - len,
                                    "%04x ffffffff 0 STG.E 2 R1 R2 4 1 0x%llx 4%*s\r\n",
                                    0x10 + 8 * i, base, i % 37, "");
    }
    len += (size_t)snprintf(buf + len, cap - len, "#END_TB\r\n");
    CHECK(len < cap - 1);
    wc_err err = {{0}};
    wc_source *src = open_text(buf, WC_TRACE_ACCELSIM, &err);
    tlist l = {0};
    CHECK(src && tlist_drain(src, &l, &err) == 0);
    CHECK_EQ(l.n, (size_t)N);
    int bad = 0;
    for (size_t i = 0; i < l.n && i < N; i++) {
        const wc_winst *in = &l.v[i].in;
        uint64_t base = 0x100000ull + 4096ull * i;
        bool ok = in->pc == 0x10 + 8 * i;
        if (i % 3 == 2)
            ok = ok && in->op == WC_OP_LDG && in->mask == 0x25 && in->width == 8 && in->ndst == 1 &&
                 in->dst[0] == i % 200 && in->amode == WC_ADDR_LIST && in->addr[0] == base &&
                 in->addr[2] == base + 8 && in->addr[5] == base + 8 + i;
        else
            ok = ok && in->op == WC_OP_STG && in->mask == 0xffffffffu && in->width == 4 &&
                 in->nsrc == 2 && in->amode == WC_ADDR_STRIDE && in->base == base &&
                 in->stride == 4;
        bad += !ok;
    }
    CHECK_EQ(bad, 0);
    tlist_free(&l);
    wc_source_destroy(src);
    free(buf);
}

static void test_missing_kernel_file_and_gap(void)
{
    char dir[256], path[512];
    tmpdir_make(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/kernelslist.g", dir);
    write_file(path, "MemcpyHtoD,0x1000,64\nkernel-1.traceg\nkernel-2.traceg\n");
    snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
    /* Grid of 3 blocks, only block 2 present: blocks 0 and 1 are empty. */
    write_file(path,
               "-kernel name = gap\n-kernel id = 1\n-grid dim = (3,1,1)\n-block dim = (32,1,1)\n"
               "#\n#BEGIN_TB\nthread block = 2,0,0\nwarp = 0\ninsts = 1\n0010 ffffffff 0 IADD 0 "
               "0\n#END_TB\n");
    wc_err err = {{0}};
    wc_source *src = wc_trace_open(dir, WC_TRACE_AUTO, NULL, &err);
    CHECK(src != NULL);
    tlist l;
    CHECK_EQ(tlist_drain(src, &l, &err), -1);
    CHECK_EQ(l.n, 1);
    CHECK_EQ(l.v[0].block, 2);
    CHECK(strstr(err.msg, "kernelslist.g:3: kernel file") != NULL);
    CHECK(strstr(err.msg, "kernel-2.traceg") != NULL);
    tlist_free(&l);
    wc_source_destroy(src);
    tmpdir_remove(dir);
}

static int count_insts(const char *path, const wc_kernel_filter *f, uint32_t *nk)
{
    wc_err err = {{0}};
    wc_source *src = wc_trace_open(path, WC_TRACE_AUTO, f, &err);
    if (!src) return -1;
    tlist l;
    int n = tlist_drain(src, &l, &err) < 0 ? -1 : (int)l.n;
    *nk = l.nk;
    tlist_free(&l);
    wc_source_destroy(src);
    return n;
}

static void test_compressed_and_filter(void)
{
#if !defined(WC_HAVE_LZMA) || !defined(WC_HAVE_ZLIB) || !defined(WC_HAVE_ZSTD)
    /* This build has no liblzma/zlib/libzstd (make deps installs them). */
    fprintf(stderr, "skipping: warpcache built without all of liblzma, zlib and libzstd\n");
    return;
#endif
    char dir[256], cmd[16384], path[512], data[4096];
    if (!realpath(AS_DIR, data)) {
        CHECK(!"real traces missing");
        return;
    }
    tmpdir_make(dir, sizeof dir);
    /* Two copies of vectoradd as kernels 1 (xz) and 2 (gzip), plus matrixmul as 3 (zstd). */
    snprintf(cmd, sizeof cmd,
             "cd %s && xz -c %s/vectoradd-100-32/kernel-1.traceg > kernel-1.traceg.xz && "
             "sed 's/^-kernel id = 1/-kernel id = 2/' %s/vectoradd-100-32/kernel-1.traceg | gzip "
             "-c > kernel-2.traceg.gz && "
             "sed 's/^-kernel id = 1/-kernel id = 3/' %s/matrixmul-32-32/kernel-1.traceg | zstd -q "
             "-c > kernel-3-ctx_0x55d5.traceg.zst && "
             "printf 'kernel-1.traceg.xz\\nkernel-2.traceg.gz\\nkernel-3-ctx_0x55d5.traceg.zst\\n' "
             "> kernelslist.g",
             dir, data, data, data);
    if (system(cmd) != 0) {
        fprintf(stderr, "skipping: xz/gzip/zstd tools missing\n");
        tmpdir_remove(dir);
        return;
    }
    snprintf(path, sizeof path, "%s/kernelslist.g", dir);
    uint32_t nk;
    CHECK_EQ(count_insts(path, NULL, &nk), 344 + 344 + 4416);
    CHECK_EQ(nk, 3);
    wc_kernel_filter f = {"2-3", NULL};
    CHECK_EQ(count_insts(path, &f, &nk), 344 + 4416);
    CHECK_EQ(nk, 2);
    wc_kernel_filter g = {NULL, "*mult_gpu*"};
    CHECK_EQ(count_insts(path, &g, &nk), 4416);
    wc_kernel_filter h = {"1,2", "vecAdd"};
    CHECK_EQ(count_insts(path, &h, &nk), 688);
    wc_kernel_filter bad = {"1,,2", NULL};
    wc_err err = {{0}};
    CHECK(wc_trace_open(path, WC_TRACE_AUTO, &bad, &err) == NULL);
    /* A truncated xz file is an error, not a short trace. */
    snprintf(cmd, sizeof cmd,
             "cd %s && head -c $(( $(stat -c %%s kernel-1.traceg.xz) / 2 )) kernel-1.traceg.xz > "
             "cut.traceg.xz",
             dir);
    CHECK_EQ(system(cmd), 0);
    snprintf(path, sizeof path, "%s/cut.traceg.xz", dir);
    CHECK_EQ(count_insts(path, NULL, &nk), -1);
    tmpdir_remove(dir);
}

static void test_writer_round_trip(void)
{
    /* A built-in workload -> Accel-Sim text -> read back: identical stream. */
    const char *specs[] = {"micro/stride:n=4096", "micro/colcopy:h=64,w=64,store=1"};
    for (int i = 0; i < 2; i++) {
        char dir[256];
        tmpdir_make(dir, sizeof dir);
        wc_err err = {{0}};
        wc_source *gen = wc_workload_open(specs[i], 1, &err);
        CHECK(gen != NULL);
        if (!gen) continue;
        CHECK_EQ(wc_trace_write_accelsim(gen, dir, &err), 0);
        wc_source_destroy(gen);
        gen = wc_workload_open(specs[i], 1, &err);
        wc_source *rd = wc_trace_open(dir, WC_TRACE_AUTO, NULL, &err);
        CHECK(rd != NULL);
        tlist a, b;
        CHECK_EQ(tlist_drain(gen, &a, &err), 0);
        CHECK_EQ(tlist_drain(rd, &b, &err), 0);
        CHECK(a.n > 0);
        CHECK(tlist_same(&a, &b));
        tlist_free(&a);
        tlist_free(&b);
        wc_source_destroy(gen);
        wc_source_destroy(rd);
        tmpdir_remove(dir);
    }
}

/* Reads a whole file into a NUL-terminated buffer (NULL if missing). */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) n = 0;
    if (buf) buf[n] = 0;
    fclose(f);
    return buf;
}

static unsigned count_substr(const char *hay, const char *needle)
{
    unsigned n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle)) n++;
    return n;
}

/* Header lines of a one-block kernel (grid (1,1,1), 64 threads). */
#define ONE_BLOCK_HDR                                                                              \
    "-kernel name = k\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (64,1,1)\n"               \
    "-accelsim tracer version = 4\n#\n"

static void test_version6_fixture(void)
{
    /* Tracer version 6 (NVBit 1.8): cluster lines in the block, UR/P registers,
     * two immediates and Val|NoVal register values after the addresses. */
    const char *text =
        "-kernel name = _Z2v6Pf\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (64,1,1)\n"
        "-shmem = 0\n-nregs = 32\n-binary version = 90\n-nvbit version = 1.8\n"
        "-accelsim tracer version = 6\n-enable lineinfo = 0\n\n"
        "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
        "mem_width [adrrescompress?] [mem_addresses] immediate1 immediate2 Val|NoVal "
        "[dest_val_n]\n\n#BEGIN_TB\n\nthread block = 0,0,0\ncluster id = 0,0,0\n"
        "cluster cta = 0,0,0\ncluster rank = 0\n\nwarp = 0\ninsts = 5\n"
        "0000 ffffffff 1 R1 MOV 0 0 0 0 NoVal\n"
        "0010 ffffffff 1 R4 LDG.E.128 1 R2 16 1 0x7f00 16 0 0 NoVal\n"
        "0020 0000ffff 0 LDGSTS.E.BYPASS.128 2 R6 UR8 16 2 0x7f10 16 16 16 16 16 16 16 16 16 "
        "16 16 16 16 16 16 0 0 NoVal\n"
        "0030 ffffffff 4 R20 R21 R22 R23 HMMA.16816.F32 3 R20 UR24 P0 0 0 0 Val 0x1 0x2 0x3 "
        "0x4\n"
        "0070 ffffffff 0 EXIT 0 0 0 0 NoVal\n\nwarp = 1\ninsts = 1\n"
        "0070 ffffffff 0 EXIT 0 0 0 0 Val -5 0x0000000000000002\n\n#END_TB\n";
    wc_err err = {{0}};
    wc_source *src = open_text(text, WC_TRACE_ACCELSIM, &err);
    CHECK(src != NULL);
    if (!src) return;
    tlist l;
    CHECK_EQ(tlist_drain(src, &l, &err), 0);
    if (err.msg[0]) fprintf(stderr, "%s\n", err.msg);
    wc_source_destroy(src);
    CHECK_EQ(l.n, 6);
    /* LDG.E.128, mode 1: lane l at 0x7f00 + 16 l; the immediates are not the stride. */
    CHECK_EQ(l.v[1].in.op, WC_OP_LDG);
    CHECK_EQ(l.v[1].in.width, 16);
    CHECK_EQ(l.v[1].in.stride, 16);
    CHECK(wc_winst_lane_addr(&l.v[1].in, 31) == 0x7f00 + 31 * 16);
    /* LDGSTS, 16 lanes in mode 2: 15 deltas of 16, then "0 0 NoVal" ignored; UR8 dropped. */
    CHECK_EQ(l.v[2].in.op, WC_OP_LDG);
    CHECK_EQ(l.v[2].in.mask, 0xffff);
    CHECK(l.v[2].in.addr[15] == 0x7f10 + 15 * 16);
    CHECK_EQ(l.v[2].in.nsrc, 1);
    /* HMMA: the first 2 of 4 destinations kept, UR24 and P0 sources dropped. */
    CHECK_EQ(l.v[3].in.op, WC_OP_ALU);
    CHECK_EQ(l.v[3].in.ndst, 2);
    CHECK_EQ(l.v[3].in.dst[1], 21);
    CHECK_EQ(l.v[3].in.nsrc, 1);
    CHECK_EQ(l.v[4].in.op, WC_OP_EXIT);
    CHECK_EQ(l.v[5].warp, 1);
    tlist_free(&l);
}

static void test_truncated_and_impossible_shapes(void)
{
    char buf[4096];
    /* Cut after the first #END_TB: a 2-block grid with one section. */
    snprintf(buf, sizeof buf,
             "%s-accelsim tracer version = 4\n#\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n"
             "insts = 1\n0010 ffffffff 0 IADD 0 0\n#END_TB\n",
             HDR);
    expect_error(buf, "<memory>: the trace ends after 1 thread block section, but '-grid dim = "
                      "(2,1,1)' has 2 blocks");
    /* No section at all. */
    expect_error("-grid dim = (3,1,1)\n-block dim = (32,1,1)\n#\n", "ends after 0 thread block");
    /* Grid dimensions beyond CUDA's, checked before any product can wrap. */
    expect_error("-grid dim = (1048576,1048576,1)\n-block dim = (32,1,1)\n#\n",
                 "<memory>:1: '-grid dim = (1048576,1048576,1)' is beyond CUDA's limits");
    expect_error("-block dim = (32,1,1)\n-grid dim = (4294967295,4294967295,4294967295)\n#\n",
                 "<memory>:2: '-grid dim = (4294967295,4294967295,4294967295)' is beyond");
    /* Within CUDA's limits but 2147483647 x 65535 = 1.4e14 blocks. */
    expect_error("-grid dim = (2147483647,65535,1)\n-block dim = (32,1,1)\n#\n",
                 "means 140735340806145 thread blocks");
    /* 65536 x 65536 threads per dimension would wrap a 32-bit product to 0. */
    expect_error("-grid dim = (1,1,1)\n-block dim = (65536,65536,1)\n#\n", "invalid '-block dim'");
}

/* Drains an Accel-Sim source whose lines come from `lr`, with the block
 * limits lowered to max_insts / max_addrs; -1 with the message in err. */
static int drain_limited(wc_lreader *lr, uint64_t max_insts, uint64_t max_addrs, wc_err *err)
{
    if (!lr) return -1;
    wc_source *src = wc_accelsim_open_lreader(lr, err);
    if (!src) return -1;
    wc_accelsim_set_block_limits(src, max_insts, max_addrs);
    tlist l;
    int rc = tlist_drain(src, &l, err);
    tlist_free(&l);
    wc_source_destroy(src);
    return rc;
}

/* One thread block is held whole, so it is bounded (docs/traces.md,
 * "Limits"): 2^24 instructions, counted from the 'insts =' claims before
 * any line is read, and 2^26 listed addresses.  A compressed file of
 * repeated lines used to grow one block until memory ran out. */
static void test_block_limits(void)
{
    char buf[4096];
    /* The real bound: one claim past it fails at its own line (line 13),
     * before 16 M lines are read (was: read on, failing only at the end). */
    snprintf(buf, sizeof buf,
             "%s#\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 16777217\n"
             "0010 ffffffff 0 IADD 0 0\n#END_TB\n",
             HDR);
    expect_error(buf, "<memory>:13: 'insts = 16777217' makes the thread block more than 16777216 "
                      "instructions");
    /* Claims add up over the block's warps (lowered bound of 3). */
    snprintf(buf, sizeof buf,
             "-grid dim = (1,1,1)\n-block dim = (64,1,1)\n#\n#BEGIN_TB\nthread block = 0,0,0\n"
             "warp = 0\ninsts = 2\n0010 ffffffff 0 IADD 0 0\n0018 ffffffff 0 EXIT 0 0\n"
             "warp = 1\ninsts = 2\n0010 ffffffff 0 IADD 0 0\n0018 ffffffff 0 EXIT 0 0\n"
             "#END_TB\n");
    wc_err err = {{0}};
    CHECK_EQ(drain_limited(wc_lreader_open_mem("b.traceg", buf, strlen(buf), &err), 4, 64, &err),
             0);
    CHECK_EQ(drain_limited(wc_lreader_open_mem("b.traceg", buf, strlen(buf), &err), 3, 64, &err),
             -1);
    CHECK_STR(err.msg, "b.traceg:11: 'insts = 2' makes the thread block more than 3 instructions "
                       "(a limit of warpcache's, docs/traces.md)");
    /* Listed addresses: a rank stride over a gapped mask lists 31 per line. */
    const char *ld = "0010 fffffffe 1 R1 LDG.E 1 R2 4 1 0x1000 4\n";
    snprintf(buf, sizeof buf,
             "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n#\n#BEGIN_TB\nthread block = 0,0,0\n"
             "warp = 0\ninsts = 3\n%s%s%s#END_TB\n",
             ld, ld, ld);
    CHECK_EQ(drain_limited(wc_lreader_open_mem("a.traceg", buf, strlen(buf), &err), 16, 93, &err),
             0);
    CHECK_EQ(drain_limited(wc_lreader_open_mem("a.traceg", buf, strlen(buf), &err), 16, 92, &err),
             -1);
    CHECK_STR(err.msg, "a.traceg:10: the thread block lists more than 92 addresses (a limit of "
                       "warpcache's, docs/traces.md)");
}

/* A compressed kernel file may expand at most 8192:1 past its first GiB
 * (compress.h): 43 KB of zstd that stood for 1.3 GiB of comment lines after
 * a valid block was read to its end (exit 0); the real bound stops it. */
static void test_compression_bomb(void)
{
#ifdef WC_HAVE_ZSTD
    char head[1024];
    snprintf(head, sizeof head,
             "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n#\n#BEGIN_TB\nthread block = 0,0,0\n"
             "warp = 0\ninsts = 1\n0010 ffffffff 0 EXIT 0 0\n#END_TB\n");
    size_t len = 0;
    unsigned char *bomb = zstd_comment_bomb(head, 160, &len);
    CHECK(bomb != NULL);
    if (!bomb) return;
    CHECK(len < 100000);
    wc_err err = {{0}};
    CHECK_EQ(drain_limited(wc_lreader_open_mem("k.traceg.zst", bomb, len, &err), 1u << 24, 1u << 26,
                           &err),
             -1);
    if (!strstr(err.msg, "times the compressed size")) fprintf(stderr, "%s\n", err.msg);
    CHECK(strstr(err.msg, "more than 8192 times the compressed size beyond the first 1024 MiB") !=
          NULL);
    /* Line 9 is the header's last, each later line is 1 MiB: the first GiB
     * ends in line 9 + 1024, and the bound is checked per decoded piece (at
     * most 256 KiB, ending at a frame's end), so in that line or the next. */
    CHECK(strncmp(err.msg, "k.traceg.zst:1033: ", 19) == 0 ||
          strncmp(err.msg, "k.traceg.zst:1034: ", 19) == 0);
    free(bomb);
#else
    fprintf(stderr, "skipping: warpcache built without libzstd\n");
#endif
}

static void test_kernelslist_errors(void)
{
    char dir[256], path[512];
    tmpdir_make(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/kernelslist.g", dir);
    struct {
        const char *text, *msg;
    } cases[] = {
        {"", "kernelslist.g: lists no kernel file (0 Memcpy lines)"},
        {"MemcpyHtoD,0x1000,64\n\nMemcpyHtoD,0x2000,64\n",
         "kernelslist.g: lists no kernel file (2 Memcpy lines)"},
        {"MemcpyHtoD,0x1000,64\nhello world\nkernel-1.traceg\n",
         "kernelslist.g:2: expected 'Memcpy...' or a kernel-N.traceg"},
        {"kernel-1.trace\n", "kernelslist.g:1: expected 'Memcpy...' or a kernel-N.traceg[.xz|.gz|"
                             ".zst] file name, found 'kernel-1.trace' (raw tracer output"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_file(path, cases[i].text);
        wc_err err = {{0}};
        wc_source *src = wc_trace_open(dir, WC_TRACE_AUTO, NULL, &err);
        CHECK(src == NULL);
        wc_source_destroy(src);
        if (!strstr(err.msg, cases[i].msg)) fprintf(stderr, "got '%s'\n", err.msg);
        CHECK(strstr(err.msg, cases[i].msg) != NULL);
    }
    /* A selection that keeps none of the kernels is an error, not an empty trace. */
    wc_kernel_filter f = {"999", NULL};
    wc_err err = {{0}};
    wc_source *src = wc_trace_open(AS_DIR "/vectoradd-100-32", WC_TRACE_AUTO, &f, &err);
    CHECK(src != NULL);
    tlist l;
    CHECK_EQ(tlist_drain(src, &l, &err), -1);
    CHECK(strstr(err.msg, "kernel selection ids '999': matches none of the trace's 1 kernels") !=
          NULL);
    tlist_free(&l);
    wc_source_destroy(src);
    tmpdir_remove(dir);
}

/* What Accel-Sim's parser needs (trace_parser.cc, trace_driven.cc): a warp
 * retires only when EXIT has covered all its threads, at most 1 destination
 * and 4 source registers, and mode 1 means "first run of active lanes". */
static void test_writer_accelsim_conventions(void)
{
    char dir[256], path[512];
    tmpdir_make(dir, sizeof dir);
    wc_err err = {{0}};
    /* 1000 elements, 80 threads per block: 13 blocks of 3 warps (32, 32, 16 threads). */
    wc_source *gen = wc_workload_open("micro/stream:n=1000,block=80", 1, &err);
    CHECK_EQ(wc_trace_write_accelsim(gen, dir, &err), 0);
    wc_source_destroy(gen);
    snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
    char *text = read_text(path);
    CHECK(text != NULL);
    if (text) {
        /* One appended EXIT per warp (the workload has none), masks = the warp's threads. */
        CHECK_EQ(count_substr(text, " EXIT.WCEND "), 13 * 3);
        CHECK_EQ(count_substr(text, " 0000ffff 0 EXIT.WCEND 0 0"), 13);
        CHECK_EQ(count_substr(text, " ffffffff 0 EXIT.WCEND 0 0"), 13 * 2);
        /* micro/stream: 3 instructions per warp + the EXIT. */
        CHECK_EQ(count_substr(text, "insts = 4\n"), 13 * 3);
        free(text);
    }
    /* Register, stride and EXIT edge cases from a hand-made one-block trace. */
    const char *in = ONE_BLOCK_HDR "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 4\n"
                                   "0010 ffffffff 2 R1 R2 IADD3 5 R3 R4 R5 R6 R7 0\n"
                                   "0020 0000001a 1 R1 LDG.E 1 R2 4 1 0x100 0\n"
                                   "0030 ffffffff 1 R1 LDG.E 1 R2 4 1 0x100 4294967296\n"
                                   "0040 0000ffff 0 EXIT 0 0\n"
                                   "warp = 1\ninsts = 1\n0040 ffffffff 0 EXIT 0 0\n#END_TB\n";
    wc_source *src = open_text(in, WC_TRACE_ACCELSIM, &err);
    snprintf(path, sizeof path, "%s/h", dir);
    CHECK_EQ(wc_trace_write_accelsim(src, path, &err), 0);
    wc_source_destroy(src);
    snprintf(path, sizeof path, "%s/h/kernel-1.traceg", dir);
    text = read_text(path);
    CHECK(text != NULL);
    if (text) {
        CHECK(strstr(text, "0010 ffffffff 1 R1 IADD 4 R3 R4 R5 R6 0 \n") != NULL);
        /* Stride 0 over lanes 1,3,4: Accel-Sim would give lanes 3 and 4 address 0. */
        CHECK(strstr(text, "0020 0000001a 1 R1 LDG.E 1 R2 4 2 0x100 0 0 \n") != NULL);
        /* A stride beyond Accel-Sim's int: deltas instead. */
        CHECK(strstr(text, "0030 ffffffff 1 R1 LDG.E 1 R2 4 2 0x100 4294967296 4294967296") !=
              NULL);
        /* Lanes 16-31 of warp 0 never exited: one EXIT for them; warp 1 exited already. */
        CHECK(strstr(text, "0050 ffff0000 0 EXIT.WCEND 0 0 \n") != NULL);
        CHECK_EQ(count_substr(text, "EXIT.WCEND"), 1);
        CHECK(strstr(text, "insts = 5\n") != NULL);
        free(text);
    }
    tmpdir_remove(dir);
}

/* Simulates src on the default GPU (and destroys it). */
static int simulate(wc_source *src, wc_stats *st)
{
    wc_config c;
    wc_config_defaults(&c);
    return tiny_simulate(&c, src, st);
}

static void test_converted_workload_simulates_identically(void)
{
    /* A partial last warp (n=1000, 80 threads); barriers (rodinia/nw: 68). */
    const char *specs[] = {"micro/stream:n=1000,block=80", "rodinia/nw"};
    for (int i = 0; i < 2; i++) {
        char dir[256];
        tmpdir_make(dir, sizeof dir);
        wc_err err = {{0}};
        wc_source *gen = wc_workload_open(specs[i], 1, &err);
        CHECK_EQ(wc_trace_write_accelsim(gen, dir, &err), 0);
        wc_source_destroy(gen);
        wc_stats a, b;
        gen = wc_workload_open(specs[i], 1, &err);
        wc_source *rd = wc_trace_open(dir, WC_TRACE_AUTO, NULL, &err);
        CHECK_EQ(simulate(gen, &a), 0);
        CHECK_EQ(simulate(rd, &b), 0);
        CHECK(a.total.warp_insts > 0);
        CHECK_EQ(b.n_kernels, a.n_kernels);
        CHECK_EQ(b.total.cycles, a.total.cycles);
        CHECK_EQ(b.total.warp_insts, a.total.warp_insts);
        CHECK_EQ(b.total.thread_insts, a.total.thread_insts);
        CHECK_EQ(b.total.gmem_reqs, a.total.gmem_reqs);
        CHECK_EQ(b.total.op_count[WC_OP_EXIT], 0);
        CHECK(!memcmp(&a.total.l1, &b.total.l1, sizeof a.total.l1));
        CHECK(!memcmp(&a.total.l2, &b.total.l2, sizeof a.total.l2));
        CHECK(!memcmp(&a.total.dram, &b.total.dram, sizeof a.total.dram));
        wc_stats_free(&a);
        wc_stats_free(&b);
        tmpdir_remove(dir);
    }
}

int main(void)
{
    RUN(test_vectoradd_counts);
    RUN(test_matrixmul_counts);
    RUN(test_mode2_deltas_and_immediate);
    RUN(test_mode1_gapped_mask_expands);
    RUN(test_lineinfo_zero_mask_v3);
    RUN(test_bad_input);
    RUN(test_token_errors_exact);
    RUN(test_long_digit_runs);
    RUN(test_opcode_names);
    RUN(test_long_input_buffer_boundaries);
    RUN(test_missing_kernel_file_and_gap);
    RUN(test_compressed_and_filter);
    RUN(test_writer_round_trip);
    RUN(test_version6_fixture);
    RUN(test_truncated_and_impossible_shapes);
    RUN(test_block_limits);
    RUN(test_compression_bomb);
    RUN(test_kernelslist_errors);
    RUN(test_writer_accelsim_conventions);
    RUN(test_converted_workload_simulates_identically);
    return check_summary("accelsim");
}
