/*
 * test_jsonscan.c - the strict JSON reader sweep uses to check and read back
 * its result lines (src/cli/jsonscan.c, compiled in here: it is part of the
 * program, not of the library).  A torn line must never pass as complete.
 */
#include "check.h"
#include "cli/jsonscan.c"

typedef struct seen {
    char log[1024];
    size_t len;
} seen;

static void record(void *ctx, const char *path, const char *text, bool is_string)
{
    seen *s = ctx;
    s->len += (size_t)snprintf(s->log + s->len, sizeof s->log - s->len, "%s=%s%s;", path,
                               is_string ? "s:" : "", text);
}

static int scan_text(const char *text, seen *s)
{
    memset(s, 0, sizeof *s);
    return wc_json_scan(text, strlen(text), record, s);
}

static void test_paths_and_values(void)
{
    seen s;
    CHECK_EQ(
        scan_text("{\"a\": 1, \"p\": {\"x\": \"8\"}, \"t\": {\"l1.miss_rate\": 0.5, \"n\": null}}",
                  &s),
        0);
    CHECK_STR(s.log, "a=1;p.x=s:8;t.l1.miss_rate=0.5;t.n=null;");
    CHECK_EQ(scan_text("  {\"k\": \"a\\\"b\\\\c\\u0041\", \"arr\": [1, true]}\n", &s), 0);
    CHECK_STR(s.log, "k=s:a\"b\\cA;arr=1;arr=true;");
    CHECK_EQ(scan_text("{}", &s), 0);
    CHECK_EQ(scan_text("-1.5e3", &s), 0);
}

static void test_torn_and_bad(void)
{
    seen s;
    const char *full = "{\"schema_version\": 1, \"key\": \"w=a\", \"totals\": {\"cycles\": 10}}";
    /* every proper prefix of a line is rejected: a torn write is never complete */
    for (size_t n = 0; n < strlen(full); n++) {
        memset(&s, 0, sizeof s);
        CHECK_EQ(wc_json_scan(full, n, NULL, NULL), -1);
    }
    CHECK_EQ(wc_json_scan(full, strlen(full), NULL, NULL), 0);
    CHECK_EQ(scan_text("{\"a\": 1} x", &s), -1);      /* trailing text */
    CHECK_EQ(scan_text("{\"a\" 1}", &s), -1);         /* missing colon */
    CHECK_EQ(scan_text("{\"a\": 1,}", &s), -1);       /* trailing comma */
    CHECK_EQ(scan_text("{\"a\": 01x}", &s), -1);      /* not a number */
    CHECK_EQ(scan_text("{\"a\": tru}", &s), -1);      /* not a literal */
    CHECK_EQ(scan_text("{\"a\": \"\x01\"}", &s), -1); /* raw control character */
    CHECK_EQ(scan_text("[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]", &s), -1); /* too deep */
}

int main(void)
{
    RUN(test_paths_and_values);
    RUN(test_torn_and_bad);
    return check_summary("jsonscan");
}
