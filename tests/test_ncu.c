/*
 * test_ncu.c - reading Nsight Compute CSV exports (src/hw/ncu_csv.c), the
 * input of `validate --hw`: both page shapes, what ncu puts around and inside
 * the values, and an error with file and line for everything else.
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "hw/ncu_csv.h"

#define HDR                                                                                        \
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\","            \
    "\"Stream\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
#define ROW(id, name, metric, unit, value)                                                         \
    "\"" id "\",\"1\",\"app\",\"h\",\"" name "\",\"1\",\"7\",\"s\",\"" metric "\",\"" unit         \
    "\",\"" value "\"\n"

static int parse(const char *text, wc_hw_set *s, wc_err *err)
{
    return wc_ncu_parse(text, strlen(text), "hw.csv", s, err);
}

/* The details page: the program's output before the header, launches in
 * ID order, thousands separators, a more specific metric winning over a
 * general one whatever their order, metrics validate does not read skipped. */
static void test_details_page(void)
{
    const char *text =
        "==PROF== Connected to process 1\n"
        "result: 42\n" HDR ROW("0", "void k1(float *, int)", "l1tex__t_sector_hit_rate.pct", "%",
                               "50") ROW("0", "void k1(float *, int)",
                                         "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct",
                                         "%", "12.5")
            ROW("0", "void k1(float *, int)", "dram__bytes_read.sum", "byte", "1,024.5")
                ROW("0", "void k1(float *, int)", "gpc__cycles_elapsed.max", "cycle", "1,234,567")
                    ROW("1", "ns::k2<int>(int)", "lts__t_sectors_op_read.sum", "sector", "77")
                        ROW("1", "ns::k2<int>(int)", "lts__t_sectors_srcunit_tex_op_read.sum",
                            "sector", "70") ROW("1", "ns::k2<int>(int)",
                                                "lts__t_sectors_op_read.sum", "sector", "78");
    wc_hw_set s;
    wc_err err = {{0}};
    CHECK_EQ(parse(text, &s, &err), 0);
    CHECK_EQ(s.n, 2);
    if (s.n == 2) {
        CHECK_STR(s.k[0].name, "k1");
        CHECK_EQ(s.k[0].line, 4);                   /* its first row */
        CHECK_NEAR(s.k[0].l1_hit_pct, 12.5, 1e-12); /* the global-load metric wins */
        CHECK_STR(s.k[0].l1_metric, "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct");
        CHECK_NEAR(s.k[0].cycles, 1234567, 0);
        CHECK(isnan(s.k[0].l2_read_sectors));
        CHECK_STR(s.k[1].name, "k2");              /* namespace and template arguments dropped */
        CHECK_NEAR(s.k[1].l2_read_sectors, 70, 0); /* srcunit_tex before and after op_read */
        CHECK(isnan(s.k[1].l1_hit_pct));
    }
    wc_hw_set_free(&s);
}

/* The raw page: one row per launch, a units row after the header, scaled
 * units undone (ncu's default --print-units auto), "n/a" absent, CRLF. */
static void test_raw_page(void)
{
    const char *text = "\"ID\",\"Kernel Name\",\"gpc__cycles_elapsed.max\","
                       "\"lts__t_sectors_op_read.sum\",\"l1tex__t_sector_hit_rate.pct\"\r\n"
                       "\"\",\"\",\"Mcycle\",\"Ksector\",\"%\"\r\n"
                       "\"0\",\"a\",\"1.5\",\"2\",\"n/a\"\r\n"
                       "1,b,7,\"3,000\",99.5\r\n";
    wc_hw_set s;
    wc_err err = {{0}};
    CHECK_EQ(parse(text, &s, &err), 0);
    CHECK_EQ(s.n, 2);
    if (s.n == 2) {
        CHECK_NEAR(s.k[0].cycles, 1.5e6, 0);
        CHECK_NEAR(s.k[0].l2_read_sectors, 2000, 0);
        CHECK(isnan(s.k[0].l1_hit_pct));
        CHECK_STR(s.k[1].name, "b");
        CHECK_NEAR(s.k[1].cycles, 7e6, 0);
        CHECK_NEAR(s.k[1].l2_read_sectors, 3e6, 0);
        CHECK_NEAR(s.k[1].l1_hit_pct, 99.5, 1e-12);
    }
    wc_hw_set_free(&s);
}

/* Quoting: a doubled quote inside a quoted field, commas inside quotes. */
static void test_quoting(void)
{
    const char *text = "ID,Kernel Name,Metric Name,Metric Value\n"
                       "7,\"f(\"\"x\"\", int)\",gpc__cycles_elapsed.max,\"1,000\"\n";
    wc_hw_set s;
    wc_err err = {{0}};
    CHECK_EQ(parse(text, &s, &err), 0);
    CHECK_EQ(s.n, 1);
    if (s.n == 1) {
        CHECK_STR(s.k[0].name, "f");
        CHECK_NEAR(s.k[0].cycles, 1000, 0);
    }
    wc_hw_set_free(&s);
}

static void expect_error(const char *text, const char *want)
{
    wc_hw_set s;
    wc_err err = {{0}};
    CHECK_EQ(parse(text, &s, &err), -1);
    if (!strstr(err.msg, want)) {
        check_case_failures++;
        fprintf(stderr, "error '%s' lacks '%s'\n", err.msg, want);
    }
    wc_hw_set_free(&s);
}

static void test_errors_name_file_and_line(void)
{
    expect_error("hello\nworld\n", "hw.csv: no Nsight Compute CSV header");
    expect_error("\"ID\",\"Name\"\n\"0\",\"k\"\n", "hw.csv:1: the header has no \"Kernel Name\"");
    expect_error(HDR "\"0\",\"k\n", "hw.csv:2: malformed CSV");
    expect_error(HDR "\"0\"x,\"k\"\n", "hw.csv:2: malformed CSV");
    expect_error(HDR "\"0\",\"k\"\n", "hw.csv:2: 2 fields, the header has 11");
    expect_error(HDR ROW("0", "k", "gpc__cycles_elapsed.max", "cycle", "12x"),
                 "hw.csv:2: metric gpc__cycles_elapsed.max: value '12x'");
    expect_error(HDR ROW("0", "k", "gpc__cycles_elapsed.max", "cycle", "-5"), "non-negative");
    expect_error(HDR ROW("0", "k", "gpc__cycles_elapsed.max", "second", "5"),
                 "hw.csv:2: metric gpc__cycles_elapsed.max: unit 'second' not understood");
    expect_error(HDR ROW("0", "k", "l1tex__t_sector_hit_rate.pct", "%", "150"),
                 "hw.csv:2: metric l1tex__t_sector_hit_rate.pct: 150 is not a percentage");
    expect_error(HDR ROW("0", "k", "dram__bytes_read.sum", "byte", "5"),
                 "none of the metrics validate reads");
    expect_error(HDR ROW("", "k", "gpc__cycles_elapsed.max", "cycle", "5"),
                 "hw.csv:2: a row without a launch ID");
    /* Commas are thousands separators only in ncu's grouping: 1 to 3 digits,
     * then groups of 3 ("1,234,567" is read above).  Before, every comma was
     * dropped: "1,2,3,4" was read as 1234 and "12,34" as 1234. */
    expect_error(HDR ROW("0", "k", "gpc__cycles_elapsed.max", "cycle", "1,2,3,4"),
                 "hw.csv:2: metric gpc__cycles_elapsed.max: value '1,2,3,4'");
    expect_error(HDR ROW("0", "k", "gpc__cycles_elapsed.max", "cycle", "12,34"), "hw.csv:2:");
    expect_error(HDR ROW("0", "k", "gpc__cycles_elapsed.max", "cycle", "1234,567"), "hw.csv:2:");
    expect_error(HDR ROW("0", "k", "gpc__cycles_elapsed.max", "cycle", ",123"), "hw.csv:2:");
    expect_error(HDR ROW("0", "k", "gpc__cycles_elapsed.max", "cycle", "1,234,"), "hw.csv:2:");
    expect_error(HDR ROW("0", "k", "gpc__cycles_elapsed.max", "cycle", "1,234.5,6"), "hw.csv:2:");
    expect_error(HDR ROW("0", "k", "gpc__cycles_elapsed.max", "cycle", "1,2345"), "hw.csv:2:");
    static const char nul[] = "ID,Kernel Name\n0,k\0x\n";
    wc_hw_set s;
    wc_err err = {{0}};
    CHECK_EQ(wc_ncu_parse(nul, sizeof nul - 1, "hw.csv", &s, &err), -1);
    CHECK(strstr(err.msg, "hw.csv:2: a NUL byte") != NULL);
    wc_hw_set_free(&s);
}

/* Reading a file: the checked-in fixture, and a missing file. */
static void test_read_fixture(void)
{
    wc_hw_set s;
    wc_err err = {{0}};
    CHECK_EQ(wc_ncu_read("tests/data/ncu/handmade-atax-details.csv", &s, &err), 0);
    CHECK_EQ(s.n, 2);
    if (s.n == 2) {
        CHECK_STR(s.k[1].name, "atax_kernel2");
        CHECK_NEAR(s.k[1].l2_read_sectors, 100000, 0);
    }
    wc_hw_set_free(&s);
    CHECK_EQ(wc_ncu_read("tests/data/ncu/absent.csv", &s, &err), -1);
    CHECK(strstr(err.msg, "absent.csv: cannot open") != NULL);
}

int main(void)
{
    RUN(test_details_page);
    RUN(test_raw_page);
    RUN(test_quoting);
    RUN(test_errors_name_file_and_line);
    RUN(test_read_fixture);
    return check_summary("ncu");
}
