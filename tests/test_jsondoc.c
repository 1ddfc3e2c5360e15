/*
 * test_jsondoc.c - the JSON tree `warpcache report` reads results with
 * (src/cli/jsondoc.c, compiled in here: it is part of the program, not of
 * the library).  Line numbers must point at the offending value, escapes
 * decode to UTF-8, and anything that is not strict JSON is refused.
 */
#include <math.h>

#include "check.h"
#include "cli/jsondoc.c"

/* Parses one value from s; NULL on error (err filled). */
static wc_jv *parse(const char *s, wc_jv_err *err)
{
    int line = 1;
    return wc_jv_parse(&s, &line, err);
}

static void test_tree_and_lines(void)
{
    /* line 1 "{", line 2 "a": [1, / line 3 2], line 4 "b", line 5 "}" */
    wc_jv_err e;
    wc_jv *v = parse("{\n \"a\": [1,\n 2],\n \"b\": \"x\\u00e9\", \"c\": null\n}", &e);
    CHECK(v != NULL);
    if (!v) return;
    CHECK_EQ(v->type, WC_JV_OBJ);
    CHECK_EQ(v->n, 3);
    const wc_jv *a = wc_jv_get(v, "a");
    CHECK(a && a->type == WC_JV_ARR && a->n == 2);
    CHECK_EQ(a->line, 2);
    CHECK_EQ(a->kids[1].line, 3);
    CHECK(wc_jv_num(&a->kids[1]) == 2);
    const wc_jv *b = wc_jv_get(v, "b");
    CHECK_EQ(b->line, 4);
    /* U+00E9 is C3 A9 in UTF-8 */
    CHECK(strcmp(wc_jv_str(b), "x\xc3\xa9") == 0);
    CHECK(isnan(wc_jv_num(wc_jv_get(v, "c"))));
    CHECK(wc_jv_get(v, "nope") == NULL);
    CHECK(wc_jv_get(a, "a") == NULL); /* not an object */
    wc_jv_free(v);
}

static void test_numbers_and_words(void)
{
    wc_jv_err e;
    wc_jv *v = parse("[-0.5e2, 0, 1e-3, true, false]", &e);
    CHECK(v != NULL);
    if (!v) return;
    CHECK(v->kids[0].num == -50);
    CHECK(v->kids[1].num == 0);
    CHECK(fabs(v->kids[2].num - 0.001) < 1e-15);
    CHECK(v->kids[3].type == WC_JV_BOOL && v->kids[3].num == 1);
    CHECK(v->kids[4].type == WC_JV_BOOL && v->kids[4].num == 0);
    wc_jv_free(v);
}

static void test_surrogate_pair(void)
{
    /* U+1F600 = D83D DE00, F0 9F 98 80 in UTF-8 */
    wc_jv_err e;
    wc_jv *v = parse("\"\\ud83d\\ude00\"", &e);
    CHECK(v && strcmp(v->str, "\xf0\x9f\x98\x80") == 0);
    wc_jv_free(v);
    CHECK(parse("\"\\ud83d\"", &e) == NULL);
    CHECK(strstr(e.msg, "surrogate") != NULL);
    CHECK(parse("\"\\u0000\"", &e) == NULL);
}

/* Each bad text, the line and a word of the message expected. */
static void test_errors(void)
{
    static const struct {
        const char *text;
        int line;
        const char *msg;
    } cases[] = {
        {"{\"a\": 1,}", 1, "member name"}, {"[1,\n2\n", 3, "expected ','"},
        {"{\"a\" 1}", 1, "':'"},           {"nul", 1, "expected a value"},
        {"[1.]", 1, "bad number"},         {"\"a\nb\"", 1, "control character"},
        {"\"abc", 1, "unterminated"},      {"\n\n", 3, "end of file"},
        {"[\"\\x\"]", 1, "bad escape"},    {"{'a': 1}", 1, "member name"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        wc_jv_err e;
        wc_jv *v = parse(cases[i].text, &e);
        CHECK(v == NULL);
        wc_jv_free(v);
        if (e.line != cases[i].line || !strstr(e.msg, cases[i].msg))
            fprintf(stderr, "case %zu: line %d '%s'\n", i, e.line, e.msg);
        CHECK_EQ(e.line, cases[i].line);
        CHECK(strstr(e.msg, cases[i].msg) != NULL);
    }
}

static void test_depth_bounded(void)
{
    char deep[200];
    memset(deep, '[', 150);
    deep[150] = 0;
    wc_jv_err e;
    CHECK(parse(deep, &e) == NULL);
    CHECK(strstr(e.msg, "deeply") != NULL);
}

/* JSON Lines: values one after another, lines counted across them. */
static void test_sequence(void)
{
    const char *s = "{\"point\": 0}\n{\"point\": 1}\n\n{\"point\"";
    int line = 1;
    wc_jv_err e;
    wc_jv *a = wc_jv_parse(&s, &line, &e);
    CHECK(a && line == 2);
    wc_jv *b = wc_jv_parse(&s, &line, &e);
    CHECK(b && wc_jv_num(wc_jv_get(b, "point")) == 1);
    CHECK_EQ(b ? b->line : 0, 2);
    CHECK_EQ(line, 4);
    CHECK(wc_jv_parse(&s, &line, &e) == NULL); /* a torn last line */
    CHECK_EQ(e.line, 4);
    wc_jv_free(a);
    wc_jv_free(b);
}

int main(void)
{
    RUN(test_tree_and_lines);
    RUN(test_numbers_and_words);
    RUN(test_surrogate_pair);
    RUN(test_errors);
    RUN(test_depth_bounded);
    RUN(test_sequence);
    return check_summary("jsondoc");
}
