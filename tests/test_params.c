/*
 * test_params.c - the plug-in parameter schema and its one parser
 * (params.h, src/util/param_parse.c): every rule on a hand-written schema
 * with hand-derived cases (the ends of each range, each malformed spelling),
 * reading values by name, GPGPU-Sim's positional form, the -controllers
 * list, and the family walk against the registries.
 */
#include <string.h>

#include "check.h"
#include "core/memstage.h"
#include "core/sched.h"
#include "warpcache/control.h"
#include "warpcache/params.h"

static const char *const colours[] = {"red", "green", "blue", NULL};

/* One parameter of each type and rule. */
static const wc_param_desc schema[] = {
    {.key = "len", .def = 8, .min = 1, .max = 1024, .help = "entries"},
    {.key = "chunk", .def = 32, .min = 8, .max = 64, .pow2 = true},
    {.key = "rate", .type = WC_PARAM_DOUBLE, .fdef = 2.5, .fmin = 0.5, .fmax = 64},
    {.key = "on", .type = WC_PARAM_BOOL, .def = 1},
    {.key = "colour", .type = WC_PARAM_ENUM, .words = colours, .def = 2},
    {.key = "buf", .def = 64, .min = 1, .max = 65536, .alias = "vc_buf_size"},
    {0},
};

static const wc_param_desc needs_n[] = {
    {.key = "n", .min = 1, .max = 10, .required = true, .help = "how many"},
    {0},
};

/* Parses text; on failure returns the message (static), on success "". */
static const char *parse_msg(const wc_param_desc *s, const char *text, wc_param_values *v)
{
    static wc_err err;
    memset(&err, 0, sizeof err);
    if (wc_param_parse(v, s, "toy", text, &err) == 0) return "";
    return err.msg;
}

/* Nothing given: every default, nothing marked given. */
static void test_defaults(void)
{
    wc_param_values v;
    CHECK_STR(parse_msg(schema, "", &v), "");
    CHECK_EQ(wc_param_u(&v, "len"), 8);
    CHECK_EQ(wc_param_u(&v, "chunk"), 32);
    CHECK_NEAR(wc_param_d(&v, "rate"), 2.5, 0);
    CHECK(wc_param_b(&v, "on"));
    CHECK_EQ(wc_param_u(&v, "colour"), 2); /* blue */
    CHECK(!wc_param_given(&v, "len"));
    CHECK_STR(parse_msg(schema, NULL, &v), "");
}

/* Values by name, whatever the order they are given in; an alias sets its key. */
static void test_values_by_name(void)
{
    wc_param_values v;
    CHECK_STR(parse_msg(schema, "colour=red,rate=0.75,len=1024,chunk=8,on=0,vc_buf_size=3", &v),
              "");
    CHECK_EQ(wc_param_u(&v, "len"), 1024);
    CHECK_EQ(wc_param_u(&v, "chunk"), 8);
    CHECK_NEAR(wc_param_d(&v, "rate"), 0.75, 0);
    CHECK(!wc_param_b(&v, "on"));
    CHECK_EQ(wc_param_u(&v, "colour"), 0);
    CHECK_EQ(wc_param_u(&v, "buf"), 3);
    CHECK(wc_param_given(&v, "len") && wc_param_given(&v, "buf"));
}

static void test_unknown_key(void)
{
    wc_param_values v;
    /* one edit from "len": named; "size" is near nothing */
    CHECK_STR(parse_msg(schema, "lne=4", &v),
              "toy: unknown parameter 'lne' (did you mean 'len'? known: len, chunk, rate, on, "
              "colour, buf)");
    CHECK_STR(parse_msg(schema, "size=4", &v),
              "toy: unknown parameter 'size' (len, chunk, rate, on, colour, buf)");
    CHECK_STR(parse_msg(NULL, "x=1", &v), "toy: takes no parameters (got 'x')");
}

/* Numbers are plain decimal: no sign, blank, 0x; doubles no exponent. */
static void test_malformed_numbers(void)
{
    wc_param_values v;
    CHECK_STR(parse_msg(schema, "len=+8", &v),
              "toy: len=+8: numbers are plain decimal (no sign, blank or 0x)");
    CHECK_STR(parse_msg(schema, "len=-1", &v),
              "toy: len=-1: numbers are plain decimal (no sign, blank or 0x)");
    CHECK_STR(parse_msg(schema, "len= 8", &v),
              "toy: len= 8: numbers are plain decimal (no sign, blank or 0x)");
    CHECK_STR(parse_msg(schema, "len=0x10", &v),
              "toy: len=0x10: numbers are plain decimal (no sign, blank or 0x)");
    CHECK_STR(parse_msg(schema, "len=8k", &v),
              "toy: len=8k: must be a whole number from 1 to 1024");
    CHECK_STR(parse_msg(schema, "len=2.0", &v),
              "toy: len=2.0: must be a whole number from 1 to 1024");
    CHECK_STR(parse_msg(schema, "rate=1e1", &v), "toy: rate=1e1: must be a number from 0.5 to 64");
    CHECK_STR(parse_msg(schema, "rate=0x2", &v),
              "toy: rate=0x2: numbers are plain decimal (no sign, blank or 0x)");
    CHECK_STR(parse_msg(schema, "rate=.", &v), "toy: rate=.: must be a number from 0.5 to 64");
    /* 2^64 does not fit: refused, not wrapped */
    CHECK_STR(parse_msg(schema, "len=18446744073709551617", &v),
              "toy: len=18446744073709551617: must be a whole number from 1 to 1024");
}

/* The ends of each range are accepted, one past them refused. */
static void test_ranges(void)
{
    wc_param_values v;
    CHECK_STR(parse_msg(schema, "len=1", &v), "");
    CHECK_STR(parse_msg(schema, "len=1024", &v), "");
    CHECK_STR(parse_msg(schema, "len=0", &v), "toy: len=0: must be a whole number from 1 to 1024");
    CHECK_STR(parse_msg(schema, "len=1025", &v),
              "toy: len=1025: must be a whole number from 1 to 1024");
    CHECK_STR(parse_msg(schema, "rate=0.5", &v), "");
    CHECK_STR(parse_msg(schema, "rate=64", &v), "");
    CHECK_STR(parse_msg(schema, "rate=0.49", &v),
              "toy: rate=0.49: must be a number from 0.5 to 64");
    CHECK_STR(parse_msg(schema, "rate=64.01", &v),
              "toy: rate=64.01: must be a number from 0.5 to 64");
}

static void test_power_of_two(void)
{
    wc_param_values v;
    CHECK_STR(parse_msg(schema, "chunk=16", &v), "");
    CHECK_STR(parse_msg(schema, "chunk=64", &v), "");
    CHECK_STR(parse_msg(schema, "chunk=24", &v),
              "toy: chunk=24: must be a power of two from 8 to 64");
    /* the range still applies to powers of two */
    CHECK_STR(parse_msg(schema, "chunk=128", &v),
              "toy: chunk=128: must be a whole number from 8 to 64");
    /* the same rule for a plug-in option set in the configuration */
    wc_err err;
    CHECK_EQ(wc_param_check(&schema[1], 24, &err), -1);
    CHECK_STR(err.msg, "24 is not a power of two (allowed 8..64)");
    CHECK_EQ(wc_param_check(&schema[1], 32, &err), 0);
}

static void test_words_and_bools(void)
{
    wc_param_values v;
    CHECK_STR(parse_msg(schema, "colour=green", &v), "");
    CHECK_EQ(wc_param_u(&v, "colour"), 1);
    CHECK_STR(parse_msg(schema, "colour=Green", &v), "toy: colour=Green: must be red|green|blue");
    CHECK_STR(parse_msg(schema, "on=2", &v), "toy: on=2: must be 0 or 1");
    CHECK_STR(parse_msg(schema, "on=true", &v), "toy: on=true: must be 0 or 1");
}

/* The last would win silently: a key (or its alias) twice is refused. */
static void test_duplicates_and_shape(void)
{
    wc_param_values v;
    CHECK_STR(parse_msg(schema, "len=4,len=4", &v), "toy: parameter 'len' is given twice");
    CHECK_STR(parse_msg(schema, "buf=4,vc_buf_size=8", &v), "toy: parameter 'buf' is given twice");
    CHECK_STR(parse_msg(schema, "len", &v), "toy: parameter \"len\" is not key=value");
    CHECK_STR(parse_msg(schema, "len=", &v), "toy: parameter \"len=\" is not key=value");
    CHECK_STR(parse_msg(schema, "=4", &v), "toy: parameter \"=4\" is not key=value");
    CHECK_STR(parse_msg(schema, "len=4,", &v), "toy: \"len=4,\" ends with ','");
}

static void test_required(void)
{
    wc_param_values v;
    CHECK_STR(parse_msg(needs_n, "", &v), "toy: give n=N (how many)");
    CHECK_STR(parse_msg(needs_n, "n=10", &v), "");
    CHECK_EQ(wc_param_u(&v, "n"), 10);
}

/* GPGPU-Sim's "a:b:c": values in schema order, the same checks. */
static void test_positional(void)
{
    wc_param_values v;
    wc_err err = {{0}};
    CHECK_EQ(wc_param_parse_positional(&v, schema, "toy", "16:32:1.5", &err), 0);
    CHECK_EQ(wc_param_u(&v, "len"), 16);
    CHECK_NEAR(wc_param_d(&v, "rate"), 1.5, 0);
    CHECK_EQ(wc_param_u(&v, "colour"), 2); /* not given: its default */
    CHECK_EQ(wc_param_parse_positional(&v, schema, "toy", "16:24", &err), -1);
    CHECK_STR(err.msg, "toy: chunk=24: must be a power of two from 8 to 64");
    CHECK_EQ(wc_param_parse_positional(&v, needs_n, "toy", "1:2", &err), -1);
    CHECK_STR(err.msg, "toy: more than 1 values in \"1:2\"");
    CHECK_EQ(wc_param_parse_positional(&v, NULL, "toy", "6", &err), -1);
    CHECK_STR(err.msg, "toy: takes no parameters (got \"6\")");
    /* through the scheduler registry: both spellings are the same values */
    const wc_sched_ops *ops;
    wc_param_values a, b;
    CHECK_EQ(wc_sched_parse("two_level_active:6:0:1", &ops, &a, &err), 0);
    CHECK_EQ(wc_sched_parse("two_level_active:active=6", &ops, &b, &err), 0);
    CHECK_EQ(wc_param_u(&a, "active"), 6);
    CHECK_EQ(wc_param_u(&b, "active"), 6);
    CHECK_EQ(wc_sched_parse("two_level_active", &ops, &a, &err), -1);
    CHECK(strstr(err.msg, "two_level_active: give active=N") != NULL);
}

static int count_instances(void *ctx, const wc_controller_ops *ops, const wc_param_values *p,
                           wc_err *err)
{
    ++*(int *)ctx;
    return 0;
}

/* -controllers: names against the registry, each instance's parameters
 * against its schema, two instances on the same knobs refused. */
static void test_controller_list(void)
{
    wc_err err = {{0}};
    int n = 0;
    CHECK_EQ(wc_controllers_parse("swl:warp_limit=4+stream_bypass:level=l2+stream_bypass",
                                  count_instances, &n, &err),
             0);
    CHECK_EQ(n, 3);
    CHECK_EQ(wc_controllers_parse("stream_bypass+stream_bypass:level=l1", NULL, NULL, &err), -1);
    CHECK_STR(err.msg, "'stream_bypass' is named twice (two instances would drive the same knobs)");
    CHECK_EQ(wc_controllers_parse("swl:warp_limit=4+swl:warp_limit=8", NULL, NULL, &err), -1);
    CHECK_EQ(wc_controllers_parse("swl:warp_limit=4+", NULL, NULL, &err), -1);
    CHECK(strstr(err.msg, "an empty controller name") != NULL);
    CHECK_EQ(wc_controllers_parse("sw:warp_limit=4", NULL, NULL, &err), -1);
    CHECK(strncmp(err.msg, "unknown controller 'sw' (did you mean 'swl'? known: ", 52) == 0);
    CHECK_EQ(wc_controllers_parse("nosuch", NULL, NULL, &err), -1);
    CHECK(strncmp(err.msg, "unknown controller 'nosuch' (known: stream_bypass, swl, ", 56) == 0);
    CHECK_EQ(wc_controllers_parse("swl:warp_limit=0", NULL, NULL, &err), -1);
    CHECK_STR(err.msg, "swl: warp_limit=0: must be a whole number from 1 to 65536 warps");
    /* a stage: name and parameters */
    const wc_mstage_ops *ops;
    wc_param_values v;
    CHECK_EQ(wc_mstage_parse("mrpb:len=16,bypass=all", &ops, &v, &err), 0);
    CHECK_EQ(wc_param_u(&v, "len"), 16);
    CHECK_EQ(wc_param_u(&v, "bypass"), 2);
    CHECK_EQ(wc_mstage_parse("mrbp", &ops, &v, &err), -1);
    CHECK(strncmp(err.msg, "unknown memory stage 'mrbp'", 27) == 0);
}

typedef struct walk {
    const void *want_name[64];
    const wc_param_desc *want_params[64];
    unsigned n, seen;
    bool order_ok;
} walk;

static void record(void *ctx, const wc_plugin_info *p)
{
    walk *w = ctx;
    if (w->seen < w->n && strcmp(p->name, w->want_name[w->seen]) == 0 &&
        p->params == w->want_params[w->seen])
        w->seen++;
    else
        w->order_ok = false;
}

/* The family walk the listings print from holds every registered
 * controller, stage and scheduler with its own schema, in registry order. */
static void test_families_cover_registries(void)
{
    size_t n;
    walk w = {.order_ok = true};
    const wc_controller_ops *const *c = wc_controller_list(&n);
    for (size_t i = 0; i < n; i++) {
        w.want_name[w.n] = c[i]->name;
        w.want_params[w.n++] = c[i]->params;
    }
    CHECK(wc_plugins_each("controllers", record, &w));
    CHECK(w.order_ok && w.seen == w.n);
    w = (walk){.order_ok = true};
    const wc_mstage_ops *const *s = wc_mstage_list(&n);
    for (size_t i = 0; i < n; i++) {
        w.want_name[w.n] = s[i]->name;
        w.want_params[w.n++] = s[i]->params;
    }
    CHECK(wc_plugins_each("stages", record, &w));
    CHECK(w.order_ok && w.seen == w.n);
    w = (walk){.order_ok = true};
    const wc_sched_ops *const *k = wc_sched_list(&n);
    for (size_t i = 0; i < n; i++) {
        w.want_name[w.n] = k[i]->name;
        w.want_params[w.n++] = k[i]->params;
    }
    CHECK(wc_plugins_each("schedulers", record, &w));
    CHECK(w.order_ok && w.seen == w.n);
    CHECK(!wc_plugins_each("nosuch", record, &w));
}

/* Every declared schema is well formed: defaults inside their ranges, a
 * power-of-two default where one is required, an enum default among its
 * words, at most WC_PARAMS_MAX entries, no key twice. */
static void check_schema(void *ctx, const wc_plugin_info *p)
{
    unsigned n = 0;
    for (const wc_param_desc *d = p->params; d && d->key; d++, n++) {
        bool ok = true;
        if (d->type == WC_PARAM_UNSIGNED && !d->required && !d->default_note)
            ok = d->def >= d->min && d->def <= d->max && (!d->pow2 || !(d->def & (d->def - 1)));
        if (d->type == WC_PARAM_DOUBLE) ok = d->fdef >= d->fmin && d->fdef <= d->fmax;
        if (d->type == WC_PARAM_BOOL) ok = d->def <= 1;
        if (d->type == WC_PARAM_ENUM) {
            unsigned words = 0;
            while (d->words && d->words[words]) words++;
            ok = d->def < words;
        }
        for (const wc_param_desc *e = p->params; e < d; e++) ok &= strcmp(e->key, d->key) != 0;
        if (!ok) fprintf(stderr, "  %s %s: bad declaration of '%s'\n", p->family, p->name, d->key);
        CHECK(ok);
        CHECK(d->help != NULL);
    }
    CHECK(n <= WC_PARAMS_MAX);
}

static void test_declarations_sound(void)
{
    CHECK(wc_plugins_each(NULL, check_schema, NULL));
}

int main(void)
{
    RUN(test_defaults);
    RUN(test_values_by_name);
    RUN(test_unknown_key);
    RUN(test_malformed_numbers);
    RUN(test_ranges);
    RUN(test_power_of_two);
    RUN(test_words_and_bools);
    RUN(test_duplicates_and_shape);
    RUN(test_required);
    RUN(test_positional);
    RUN(test_controller_list);
    RUN(test_families_cover_registries);
    RUN(test_declarations_sound);
    return check_summary("params");
}
