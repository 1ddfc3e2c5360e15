/*
 * cmd_list.c - `warpcache list`: the built-in workloads (with suites,
 * kernels, default sizes and the seeds' class labels), the named designs
 * (configs/designs/), the registered plug-ins (controllers, memory stages, warp
 * schedulers, L1 organisations, index functions, replacement, analyses), each with the
 * parameters its schema declares (params.h; `list parameters` is the table of
 * docs/parameters.md, `--tsv` the same for scripts), the knobs controllers may
 * set (knob.h) and the registered statistics (statreg.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/sched.h"
#include "util/nearest.h"
#include "warpcache/analysis.h"
#include "warpcache/cache.h"
#include "warpcache/knob.h"
#include "warpcache/params.h"
#include "warpcache/statreg.h"
#include "warpcache/workloads.h"

static const char list_help[] =
    "usage: warpcache list [workloads|designs|controllers|knobs|stats|stages|schedulers|\n"
    "                       l1|index|replacement|analyses|parameters] [--suite NAME] [--tsv]\n"
    "       warpcache list WORKLOAD|SUITE\n"
    "\n"
    "Lists built-in workloads (default), the designs of --design/--designs with their\n"
    "paper, or the registered plug-ins with their parameters ('list parameters': every\n"
    "plug-in parameter, --tsv for scripts; 'list knobs': what controllers may set per\n"
    "SM; 'list stats': the registered counters).  'list WORKLOAD' (e.g. list\n"
    "polybench/atax) shows every parameter of one workload with its default, range and\n"
    "meaning; 'list SUITE' the workloads of one suite.\n"
    "\n"
    "%s";

enum { O_SUITE = 1, O_QUIET, O_TSV };
static const wc_opt list_table[] = {
    {O_SUITE, 0, "suite", "NAME", "only the workloads of this suite", 0},
    {O_TSV, 0, "tsv", NULL,
     "list parameters: tab-separated (family, option, plug-in, key, type, default, min, max, "
     "unit, power of two, words, alias, help)",
     0},
    {O_QUIET, 'q', "quiet", NULL, "accepted as by every command (list prints no notes)", 0},
    {0},
};
static const wc_opt *const list_tables[] = {list_table, NULL};

static const char *const categories[] = {"workloads", "designs",     "controllers", "knobs",
                                         "stats",     "stages",      "schedulers",  "l1",
                                         "index",     "replacement", "analyses",    "parameters"};
#define N_CATEGORIES (sizeof categories / sizeof categories[0])

static int list_designs(void)
{
    wc_cli_dirs d;
    wc_design_info *all = NULL;
    size_t n = 0;
    wc_err err = {{0}};
    wc_cli_design_dirs(&d);
    if (wc_design_list(d.dirs, d.n, &all, &n, &err) < 0) {
        wc_cli_error("%s", err.msg);
        return WC_EXIT_FAIL;
    }
    /* descriptions are sentences: the paper goes on its own line */
    for (size_t i = 0; i < n; i++)
        printf("%-16s %s\n%-16s paper: %s\n", all[i].name, all[i].description, "",
               all[i].paper[0] ? all[i].paper : "(none given)");
    if (d.n == 0)
        printf("(no design directory found: set WARPCACHE_DESIGNS or run from the source tree)\n");
    else
        printf("\nfrom %s%s; use with --design NAME or compare/sweep --designs A,B\n", d.dirs[0],
               d.n > 1 ? " and later directories" : "");
    free(all);
    return 0;
}

/* ---- a table whose cells wrap at spaces (never inside a word) ------------- */

#define MAX_COLS 5

/* The width of the longest word of `text`. */
static int longest_word(const char *text)
{
    int best = 0;
    for (const char *p = text; *p;) {
        int len = (int)strcspn(p, " ");
        if (len > best) best = len;
        p += len;
        p += strspn(p, " ");
    }
    return best;
}

/* Appends to line[*len] from *pos as many words of the cell as fit in
 * `width` (at least one: a column is as wide as its longest word), padded
 * to width + 1; width < 0: the rest of the cell.  Advances *pos. */
static void put_piece(char *line, size_t cap, size_t *len, const char **pos, int width)
{
    const char *p = *pos + strspn(*pos, " ");
    int used = 0;
    while (*p) {
        int wl = (int)strcspn(p, " ");
        if (width >= 0 && used && used + 1 + wl > width) break;
        *len += (size_t)snprintf(line + *len, cap - *len, "%s%.*s", used ? " " : "", wl, p);
        used += (used ? 1 : 0) + wl;
        p += wl;
        p += strspn(p, " ");
    }
    if (width >= 0) *len += (size_t)snprintf(line + *len, cap - *len, "%*s", width - used + 1, "");
    *pos = p;
    if (*len >= cap) *len = cap - 1;
}

/* One row: cells[c] wrapped to widths[c]; the last column is not wrapped. */
static void put_row(const char *const *cells, const int *widths, size_t ncol)
{
    const char *pos[MAX_COLS];
    for (size_t c = 0; c < ncol; c++) pos[c] = cells[c] ? cells[c] : "";
    for (bool more = true; more;) {
        char line[2048];
        size_t len = 0;
        for (size_t c = 0; c < ncol; c++)
            put_piece(line, sizeof line, &len, &pos[c], c == ncol - 1 ? -1 : widths[c]);
        while (len > 0 && line[len - 1] == ' ') len--;
        printf("%.*s\n", (int)len, line);
        more = false;
        for (size_t c = 0; c < ncol; c++) more |= pos[c][strspn(pos[c], " ")] != 0;
    }
}

static void list_workloads(const char *suite)
{
    size_t n;
    const wc_workload *const *w = wc_workload_list(&n);
    static const char *const titles[] = {"workload", "suite", "kernels", "default size",
                                         "classes (seed:label)"};
    /* the kernels and sizes wrap; a column is never narrower than a word */
    int widths[MAX_COLS] = {28, 10, 30, 22, 0};
    for (size_t i = 0; i < n; i++) {
        if (suite && strcmp(w[i]->suite, suite) != 0) continue;
        const char *cells[] = {w[i]->name, w[i]->suite, w[i]->kernels, w[i]->size};
        for (size_t c = 0; c < 4; c++)
            if (longest_word(cells[c]) > widths[c]) widths[c] = longest_word(cells[c]);
    }
    put_row(titles, widths, 5);
    for (size_t i = 0; i < n; i++) {
        if (suite && strcmp(w[i]->suite, suite) != 0) continue;
        const char *cells[] = {w[i]->name, w[i]->suite, w[i]->kernels, w[i]->size, w[i]->classes};
        put_row(cells, widths, 5);
    }
    printf("\nRun one with: warpcache run --workload NAME[:key=value,...]; a suite name runs "
           "all of its workloads.\n'warpcache list NAME' shows the parameters of one.\n");
}

/* ---- one workload: its parameters ------------------------------------------ */

static bool is_word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* What the workload's description says about parameter `key`: the
 * parenthesis after it ("size (multiple of 16, ...)") or the words after
 * "key=" up to the next ';' ("scale=f multiplies every dimension"); "" when
 * it only names it. */
static void meaning_of(const char *help, const char *key, char *buf, size_t cap)
{
    size_t klen = strlen(key);
    buf[0] = 0;
    for (const char *p = strstr(help, key); p; p = strstr(p + 1, key)) {
        if ((p > help && is_word_char(p[-1])) || is_word_char(p[klen])) continue;
        const char *q = p + klen;
        if (q[0] == ' ' && q[1] == '(') {
            int depth = 0;
            const char *end = q + 1;
            for (; *end; end++) {
                depth += *end == '(' ? 1 : *end == ')' ? -1 : 0;
                if (depth == 0) break;
            }
            snprintf(buf, cap, "%.*s", (int)(end - q - 2), q + 2);
            return;
        }
        if (q[0] == '=') {
            snprintf(buf, cap, "%.*s", (int)strcspn(p, ";"), p);
            return;
        }
    }
}

static void format_value(const wc_param_info *e, int which, char *buf, size_t cap)
{
    if (e->is_float)
        snprintf(buf, cap, "%g", which == 0 ? e->fdef : which == 1 ? e->fmin : e->fmax);
    else
        snprintf(buf, cap, "%llu",
                 (unsigned long long)(which == 0   ? e->def
                                      : which == 1 ? e->min
                                                   : e->max));
}

static int list_one_workload(const wc_workload *w)
{
    wc_param_log log;
    wc_err err = {{0}};
    if (wc_workload_params(w, &log, &err) < 0) {
        wc_cli_error("%s", err.msg);
        return wc_cli_status_of(&err);
    }
    printf("%s (suite %s)\n  %s\n\n", w->name, w->suite, w->help ? w->help : "");
    printf("  kernels:       %s\n  default size:  %s\n  classes:       %s\n\n", w->kernels, w->size,
           w->classes && w->classes[0] ? w->classes : "(none)");
    if (log.n == 0) {
        printf("It has no parameters.\n");
        return 0;
    }
    static const char *const titles[] = {"parameter", "default", "range", "meaning"};
    int widths[MAX_COLS] = {12, 10, 20, 0};
    char cells[WC_MAX_PARAM_INFO][3][72];
    for (unsigned i = 0; i < log.n; i++) {
        char lo[32], hi[32];
        snprintf(cells[i][0], sizeof cells[i][0], "%s", log.v[i].key);
        format_value(&log.v[i], 0, cells[i][1], sizeof cells[i][1]);
        format_value(&log.v[i], 1, lo, sizeof lo);
        format_value(&log.v[i], 2, hi, sizeof hi);
        snprintf(cells[i][2], sizeof cells[i][2], "%s..%s", lo, hi);
        for (int c = 0; c < 3; c++)
            if ((int)strlen(cells[i][c]) > widths[c]) widths[c] = (int)strlen(cells[i][c]);
    }
    put_row(titles, widths, 4);
    for (unsigned i = 0; i < log.n; i++) {
        char meaning[256];
        meaning_of(w->help ? w->help : "", log.v[i].key, meaning, sizeof meaning);
        const char *row[] = {cells[i][0], cells[i][1], cells[i][2], meaning};
        put_row(row, widths, 4);
    }
    printf("\nGive them after a colon: warpcache run --workload %s:%s=%s\n", w->name, log.v[0].key,
           cells[0][1]);
    return 0;
}

/* ---- plug-ins and their parameters (params.h schemas) ---------------------- */

/* How a value is written in a parameter's place: N, X, 0|1 or the words. */
static void placeholder(const wc_param_desc *d, char *buf, size_t n)
{
    buf[0] = '\0';
    switch (d->type) {
    case WC_PARAM_UNSIGNED: snprintf(buf, n, "N"); return;
    case WC_PARAM_DOUBLE: snprintf(buf, n, "X"); return;
    case WC_PARAM_BOOL: snprintf(buf, n, "0|1"); return;
    case WC_PARAM_ENUM:
        for (size_t i = 0; d->words && d->words[i]; i++)
            snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", i ? "|" : "", d->words[i]);
        return;
    }
}

/* "warp_limit=N" (a spec parameter) or "-ship_sig_bits N" (an option). */
static void usage_of(const wc_plugin_info *p, const wc_param_desc *d, char *buf, size_t n)
{
    char v[128];
    placeholder(d, v, sizeof v);
    if (p->style == WC_PLUGIN_OPTIONS)
        snprintf(buf, n, "-%s %s", d->key, v);
    else
        snprintf(buf, n, "%s=%s", d->key, v);
}

/* One plug-in: its name and help, then a line per parameter. */
static void print_plugin(void *ctx, const wc_plugin_info *p)
{
    const char *family = ctx;
    if (family && strcmp(family, "replacement") == 0 && p->help == NULL) {
        const wc_repl_ops *r = wc_repl_find(p->name);
        printf("%-16s letter %c\n", p->name, r && r->letter ? r->letter : '-');
    } else if (p->help) {
        printf("%-16s %s\n", p->name, p->help);
    }
    for (const wc_param_desc *d = p->params; d && d->key; d++) {
        char use[160], what[256];
        usage_of(p, d, use, sizeof use);
        wc_param_describe(d, what, sizeof what);
        printf("%-16s   %-28s %s (%s)\n", "", use, d->help ? d->help : "", what);
        if (d->alias) printf("%-16s   %-28s also written %s=\n", "", "", d->alias);
    }
}

/* `list parameters`: a table per family (docs/parameters.md shows it). */
typedef struct table_ctx {
    const char *family; /* of the table being written */
} table_ctx;

static void print_table_rows(void *ctx, const wc_plugin_info *p)
{
    table_ctx *t = ctx;
    static const int widths[MAX_COLS] = {16, 24, 38, 0};
    if (!p->params || !p->params->key) return;
    if (!t->family || strcmp(t->family, p->family) != 0) {
        static const char *const titles[] = {"plug-in", "parameter", "values, default", "meaning"};
        printf("%s%s (%s)\n", t->family ? "\n" : "", p->family, p->option);
        put_row(titles, widths, 4);
        t->family = p->family;
    }
    for (const wc_param_desc *d = p->params; d->key; d++) {
        char use[160], what[256], help[512];
        usage_of(p, d, use, sizeof use);
        wc_param_describe(d, what, sizeof what);
        snprintf(help, sizeof help, "%s%s%s%s", d->help ? d->help : "", d->alias ? " (also " : "",
                 d->alias ? d->alias : "", d->alias ? "=)" : "");
        const char *row[] = {p->name, use, what, help};
        put_row(row, widths, 4);
    }
}

/* `list parameters --tsv`: one line per parameter, for scripts. */
static void print_tsv(void *ctx, const wc_plugin_info *p)
{
    static const char *const types[] = {"unsigned", "double", "bool", "enum"};
    for (const wc_param_desc *d = p->params; d && d->key; d++) {
        char words[256] = "", def[64];
        for (size_t i = 0; d->words && d->words[i]; i++)
            snprintf(words + strlen(words), sizeof words - strlen(words), "%s%s", i ? "|" : "",
                     d->words[i]);
        if (d->required)
            snprintf(def, sizeof def, "required");
        else if (d->type == WC_PARAM_DOUBLE)
            snprintf(def, sizeof def, "%g", d->fdef);
        else if (d->type == WC_PARAM_ENUM)
            snprintf(def, sizeof def, "%s", d->words[d->def]);
        else
            snprintf(def, sizeof def, "%llu", (unsigned long long)d->def);
        char lo[32], hi[32];
        if (d->type == WC_PARAM_DOUBLE) {
            snprintf(lo, sizeof lo, "%g", d->fmin);
            snprintf(hi, sizeof hi, "%g", d->fmax);
        } else {
            snprintf(lo, sizeof lo, "%llu", (unsigned long long)d->min);
            snprintf(hi, sizeof hi, "%llu", (unsigned long long)d->max);
        }
        bool ranged = d->type == WC_PARAM_UNSIGNED || d->type == WC_PARAM_DOUBLE;
        printf("%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\n", p->family, p->option,
               p->name, d->key, types[d->type], d->default_note ? d->default_note : def,
               ranged ? lo : "", ranged ? hi : "", d->unit ? d->unit : "", d->pow2 ? 1 : 0, words,
               d->alias ? d->alias : "", d->help ? d->help : "");
    }
}

/* A suite that has no workload is a typo, not an empty list. */
static int check_suite(const char *suite)
{
    size_t n;
    const wc_workload *const *w = wc_workload_list(&n);
    char known[512] = "";
    for (size_t i = 0; i < n; i++) {
        if (strcmp(w[i]->suite, suite) == 0) return 0;
        bool seen = false;
        for (size_t j = 0; j < i; j++) seen |= strcmp(w[j]->suite, w[i]->suite) == 0;
        if (!seen && strlen(known) + strlen(w[i]->suite) + 3 < sizeof known)
            snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
                     known[0] ? ", " : "", w[i]->suite);
    }
    wc_nearest near;
    wc_nearest_init(&near, suite);
    for (size_t i = 0; i < n; i++) wc_nearest_consider(&near, w[i]->suite);
    if (wc_nearest_best(&near))
        wc_cli_error("list: unknown suite '%s' (did you mean '%s'? suites: %s)", suite, near.best,
                     known);
    else
        wc_cli_error("list: unknown suite '%s' (suites: %s)", suite, known);
    return -1;
}

/* "unknown category" with the nearest category, workload or suite. */
static void unknown_name(const char *what)
{
    char best[128], hint[160] = "", known[256] = "";
    if (wc_workload_suggest_with(what, categories, N_CATEGORIES, best, sizeof best))
        snprintf(hint, sizeof hint, "did you mean '%s'? ", best);
    for (size_t i = 0; i < N_CATEGORIES; i++)
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "",
                 categories[i]);
    wc_cli_error("list: unknown category, workload or suite '%s' (%scategories: %s; "
                 "'warpcache list' shows the workloads)",
                 what, hint, known);
}

/* The knobs' declarations (knob.h): name, values, who reads it, meaning. */
static void list_knobs(void)
{
    size_t n;
    const wc_knob_desc *const *k = wc_knob_list(&n);
    int widths[MAX_COLS] = {12, 14, 24, 0};
    const char *titles[] = {"knob", "values", "read by", "meaning"};
    put_row(titles, widths, 4);
    for (size_t i = 0; i < n; i++) {
        char range[48];
        snprintf(range, sizeof range, "%llu..%llu", (unsigned long long)k[i]->min,
                 (unsigned long long)k[i]->max);
        const char *cells[] = {k[i]->name, range, k[i]->consumer, k[i]->help};
        put_row(cells, widths, 4);
    }
    printf("\nControllers set them per SM by name (control.h: wc_ctl_knob, wc_knob_set); "
           "a change applies from the next period boundary.\n");
}

/* One registered counter as a Markdown row (docs/stats.md shows the table):
 * an array as NAME[n]. */
static void print_stat(void *ctx, const wc_stat_group *g, const wc_stat_desc *d)
{
    char name[96];
    if (d->n > 1 && !d->sum)
        snprintf(name, sizeof name, "`%s[%u]`", d->name, d->n);
    else
        snprintf(name, sizeof name, "`%s`", d->name);
    const char *period = d->pc < 0   ? ""
                         : d->ks < 0 ? " (controllers' period counters only)"
                                     : " (also in controllers' period counters)";
    printf("| %s | %s | %s | %s%s |\n", name, d->unit, g->owner, d->desc, period);
}

/* The registered statistics (statreg.h), owners in registry order. */
static void list_stats(void)
{
    printf("| counter | unit | owner | meaning |\n|---|---|---|---|\n");
    wc_stat_each(print_stat, NULL);
}

static bool is_suite(const char *name)
{
    return wc_workload_suite_member(name) != NULL;
}

static bool is_category(const char *name)
{
    for (size_t i = 0; i < N_CATEGORIES; i++)
        if (strcmp(categories[i], name) == 0) return true;
    return false;
}

int wc_cmd_list(int argc, char **argv)
{
    const char *what = "workloads", *suite = NULL;
    bool given = false, tsv = false;
    wc_opts p;
    wc_opts_init(&p, "list", list_tables, argc, argv);
    for (int id; (id = wc_opts_next(&p)) != WC_OPT_DONE;) {
        switch (id) {
        case WC_OPT_HELP: wc_opts_print_help(list_help, list_tables); return 0;
        case WC_OPT_BAD: return WC_EXIT_USAGE;
        case O_SUITE: suite = p.value; break;
        case O_QUIET: break;
        case O_TSV: tsv = true; break;
        case WC_OPT_ARG:
            if (given) {
                wc_cli_error("list: give one category, workload or suite (got '%s' and '%s')", what,
                             p.value);
                return WC_EXIT_USAGE;
            }
            what = p.value;
            given = true;
            break;
        }
    }
    /* a workload or a suite instead of a category */
    const wc_workload *one = is_category(what) ? NULL : wc_workload_find(what);
    if (one && !suite) return list_one_workload(one);
    if (!is_category(what) && !one && is_suite(what) && !suite) {
        suite = what;
        what = "workloads";
    }
    if (!is_category(what)) {
        unknown_name(what);
        return WC_EXIT_USAGE;
    }
    size_t n;
    if (suite && strcmp(what, "workloads") != 0) {
        wc_cli_error("list: --suite applies to workloads only");
        return WC_EXIT_USAGE;
    }
    if (suite && check_suite(suite) < 0) return WC_EXIT_USAGE;
    if (tsv && strcmp(what, "parameters") != 0) {
        wc_cli_error("list: --tsv applies to 'list parameters' only");
        return WC_EXIT_USAGE;
    }
    if (strcmp(what, "workloads") == 0) {
        list_workloads(suite);
    } else if (strcmp(what, "designs") == 0) {
        return list_designs();
    } else if (strcmp(what, "knobs") == 0) {
        list_knobs();
    } else if (strcmp(what, "stats") == 0) {
        list_stats();
    } else if (strcmp(what, "parameters") == 0) {
        table_ctx t = {NULL};
        wc_plugins_each(NULL, tsv ? print_tsv : print_table_rows, &t);
    } else if (wc_plugins_each(what, NULL, NULL)) { /* a plug-in family with parameters */
        wc_plugins_each(what, print_plugin, (void *)what);
    } else if (strcmp(what, "index") == 0) {
        const wc_index_desc *const *d = wc_index_list(&n);
        for (size_t i = 0; i < n; i++) printf("%-16s letter %c\n", d[i]->name, d[i]->letter);
    } else if (strcmp(what, "analyses") == 0) {
        const wc_analysis_ops *const *a = wc_analysis_list(&n);
        for (size_t i = 0; i < n; i++) printf("%-16s %s\n", a[i]->name, a[i]->help);
    }
    return 0;
}
