/*
 * cmd_report.c - `warpcache report RESULTS... -o report.html [--svg-dir DIR]`:
 * one self-contained HTML page (inline SVG and CSS, no external asset, a
 * few lines of inline script that only report how many figures rendered)
 * with the figures the given results files support, and each figure also
 * as a standalone .svg.  Which kind each file is (run, compare, sweep,
 * model, mrc, validate) is recognised from its shape by the registry below; the kinds
 * draw their figures (report_run.c, report_batch.c, report_model.c) with
 * the plotting module src/report/svg_plot.c.  The output bytes depend only
 * on the inputs and the arguments (no time, no host), so reports diff.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/report.h"
#include "warpcache/common.h"

/* The input kinds, tried in this order (the first that matches wins). */
static const report_kind *const kinds[] = {
    &wc_report_run, &wc_report_compare,  &wc_report_sweep,      &wc_report_model,
    &wc_report_mrc, &wc_report_validate, &wc_report_validate_hw};
#define NKINDS (sizeof kinds / sizeof kinds[0])

#define MAX_INPUT_BYTES (1L << 30)

static const char usage_text[] =
    "usage: warpcache report RESULTS... --output FILE.html [--svg-dir DIR] [--title TEXT]\n"
    "                        [--width PX] [--height PX] [--font-size PX]\n"
    "\n"
    "Draws the figures the results support into one self-contained HTML page:\n"
    "  run --json      L1 line utilisation (stacked), timelines of adaptive mechanisms\n"
    "  compare --json  normalised bars per workload with geometric-mean groups\n"
    "  sweep results   IPC normalised to the first configuration, L1 miss rate,\n"
    "                  IPC over a numeric grid dimension (curves)\n"
    "  model --json    reuse-distance histogram, miss classes per kernel\n"
    "  mrc --json      miss-ratio curves (log2 size axis in lines and bytes)\n"
    "  validate --json simulator and model L1 miss rates per kernel\n"
    "  validate --hw --json  hardware (Nsight Compute) and simulator L1 hit rates\n"
    "                  per kernel launch\n"
    "\n"
    "%s";

enum { O_OUTPUT = 1, O_OUTPUT_OLD, O_SVG_DIR, O_TITLE, O_QUIET, O_WIDTH, O_HEIGHT, O_FONT };
static const wc_opt report_table[] = {
    {O_OUTPUT, 0, "output", "FILE", "the HTML page ('-' = standard output)", 0},
    {O_OUTPUT_OLD, 'o', NULL, "FILE",
     "deprecated spelling of --output (elsewhere -o sets NAME=VALUE)", 0},
    {O_SVG_DIR, 0, "svg-dir", "DIR",
     "also every figure as DIR/<figure id>.svg (DIR is created; the\n"
     "figures appear together at the end, or none)",
     0},
    {O_TITLE, 0, "title", "TEXT", "the page's heading (default: warpcache report)", 0},
    {O_QUIET, 'q', "quiet", NULL, "no notes on stderr", 0},
    {O_WIDTH, 0, "width", "PX", "every figure's width, 300 to 5000 (default 800)", 0},
    {O_HEIGHT, 0, "height", "PX",
     "every figure's height, 150 to 5000 (default: as its labels and\n"
     "legends need, with a 300 px plot area); the plot area takes what\n"
     "they leave, at least 60 px",
     0},
    {O_FONT, 0, "font-size", "PX", "the base font size, 6 to 48 (default 12); margins grow with it",
     0},
    {0},
};
static const wc_opt *const report_tables[] = {report_table, NULL};

/* ---- figures (shared with the kinds through report.h) ----------------------- */

int report_fail(report_err *err, const wc_jv *v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    err->line = v ? v->line : 1;
    return -1;
}

void report_slug(const char *s, char *buf, size_t n)
{
    size_t i = 0;
    for (; s && *s && i + 1 < n; s++, i++) {
        char c = *s;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '_' || c == '-';
        buf[i] = ok ? c : '-';
    }
    if (n) buf[i] = 0;
}

FILE *report_fig_open(report_figs *out, const report_input *in, const char *what, const char *title,
                      const char *caption, report_err *err)
{
    if (out->n == out->cap) {
        size_t cap = out->cap ? out->cap * 2 : 8;
        report_fig *v = realloc(out->v, cap * sizeof *v);
        if (!v) {
            report_fail(err, NULL, "out of memory");
            return NULL;
        }
        out->v = v, out->cap = cap;
    }
    report_fig *f = &out->v[out->n];
    memset(f, 0, sizeof *f);
    char slug[48];
    report_slug(what, slug, sizeof slug);
    snprintf(f->id, sizeof f->id, "f%d-%s", in->index, slug);
    f->title = strdup(title);
    f->caption = strdup(caption);
    FILE *s = f->title && f->caption ? open_memstream(&f->svg, &f->svg_len) : NULL;
    if (!s) {
        free(f->title), free(f->caption);
        report_fail(err, NULL, "out of memory");
        return NULL;
    }
    out->n++;
    return s;
}

int report_fig_close(report_figs *out, FILE *f, report_err *err)
{
    if (fclose(f) != 0 || !out->v[out->n - 1].svg) return report_fail(err, NULL, "out of memory");
    return 0;
}

void report_figs_free(report_figs *f)
{
    for (size_t i = 0; i < f->n; i++) {
        free(f->v[i].title);
        free(f->v[i].caption);
        free(f->v[i].svg);
    }
    free(f->v);
}

/* ---- inputs ----------------------------------------------------------------- */

static void input_free(report_input *in)
{
    for (size_t i = 0; i < in->ndocs; i++) wc_jv_free(in->docs[i]);
    free(in->docs);
}

/* Reads the whole file into a NUL-terminated buffer.  -1 (printed).  A
 * results file is a regular file: a folder, a pipe or a device (/dev/zero,
 * which never ends) is refused before it is read. */
static int slurp(const char *path, char **out)
{
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        wc_cli_error("%s: %s, not a results file (a regular file of JSON)", path,
                     S_ISDIR(st.st_mode)    ? "a folder"
                     : S_ISFIFO(st.st_mode) ? "a pipe"
                                            : "a device or special file");
        return -1;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        wc_cli_error("%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    for (;;) {
        if (!b) break;
        n += fread(b + n, 1, cap - 1 - n, f);
        if (n < cap - 1) break;
        if ((long)cap >= MAX_INPUT_BYTES) {
            wc_cli_error("%s: larger than 1 GiB, not a results file", path);
            free(b), fclose(f);
            return -1;
        }
        char *nb = realloc(b, cap * 2);
        if (!nb) free(b);
        b = nb, cap *= 2;
    }
    if (!b) {
        fclose(f);
        wc_cli_error("%s: out of memory", path);
        return -1;
    }
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        free(b);
        wc_cli_error("%s: cannot read: %s", path, strerror(EIO));
        return -1;
    }
    b[n] = 0;
    if (strlen(b) != n) {
        int line = 1;
        for (size_t i = 0; b[i]; i++) line += b[i] == '\n';
        free(b);
        wc_cli_error("%s:%d: a NUL byte: not a JSON results file", path, line);
        return -1;
    }
    *out = b;
    return 0;
}

/* Parses every JSON value of the file (one, or one per line for sweep
 * results) and finds its kind.  -1 (printed "file:line: reason"). */
static int input_load(report_input *in)
{
    char *text;
    if (slurp(in->path, &text) < 0) return -1;
    const char *p = text;
    int line = 1;
    size_t cap = 0;
    wc_jv_err e;
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') line += *p++ == '\n';
    if (!*p) {
        wc_cli_error("%s:1: empty file: not a JSON results file", in->path);
        free(text);
        return -1;
    }
    while (*p) {
        wc_jv *v = wc_jv_parse(&p, &line, &e);
        if (!v) {
            wc_cli_error("%s:%d: %s", in->path, e.line, e.msg);
            free(text);
            return -1;
        }
        if (in->ndocs == cap) {
            cap = cap ? cap * 2 : 4;
            wc_jv **d = realloc(in->docs, cap * sizeof *d);
            if (!d) {
                wc_jv_free(v);
                free(text);
                wc_cli_error("%s: out of memory", in->path);
                return -1;
            }
            in->docs = d;
        }
        in->docs[in->ndocs++] = v;
    }
    free(text);
    for (size_t k = 0; k < NKINDS; k++)
        if (kinds[k]->matches(in)) {
            in->kind = kinds[k]->name;
            return 0;
        }
    const wc_jv *first = in->docs[0];
    if (in->ndocs > 1)
        wc_cli_error("%s:%d: %zu JSON values, but not sweep results (one point per line, each "
                     "with 'point', 'key' and 'totals')",
                     in->path, in->docs[1]->line, in->ndocs);
    else
        wc_cli_error("%s:%d: not the JSON of warpcache run, compare, sweep, model, mrc, validate "
                     "or validate --hw",
                     in->path, first->line);
    return -1;
}

/* ---- HTML -------------------------------------------------------------------- */

static void html_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

static const char css[] =
    "body{font-family:'DejaVu Sans',Arial,sans-serif;color:#111;background:#fff;"
    "max-width:840px;margin:1.5em auto;padding:0 12px;line-height:1.4}\n"
    "h1{font-size:1.5em}h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #999}\n"
    "figure{margin:1.2em 0}figure svg{display:block;max-width:100%;height:auto;"
    "border:1px solid #ddd}\n"
    "figcaption{font-size:.88em;color:#333;margin-top:.4em}\n"
    "table{border-collapse:collapse;font-size:.9em}td,th{border:1px solid #bbb;"
    "padding:2px 8px;text-align:left}\n"
    "#wc-status{font-size:.8em;color:#555}\n";

/* Counts, in the browser, the figures whose SVG has a non-empty box: the
 * report test reads the result from the DOM (the page needs no script). */
static const char script[] = "<script>\n"
                             "(function () {\n"
                             "  var figs = document.querySelectorAll('figure svg'), ok = 0;\n"
                             "  for (var i = 0; i < figs.length; i++) {\n"
                             "    var b = figs[i].getBBox();\n"
                             "    if (b.width > 0 && b.height > 0) ok++;\n"
                             "  }\n"
                             "  document.getElementById('wc-status').textContent =\n"
                             "    'rendered ' + ok + ' of ' + figs.length + ' figures';\n"
                             "})();\n"
                             "</script>\n";

static void write_html(FILE *f, const char *title, const report_input *ins, size_t nin,
                       const report_figs *figs, const size_t *first)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
          f);
    html_text(f, title);
    fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", css);
    html_text(f, title);
    fprintf(f,
            "</h1>\n<p>Figures drawn by warpcache %s from %zu results file%s "
            "(docs/report.md says what each figure shows).</p>\n"
            "<table id=\"inputs\">\n<tr><th>file</th><th>kind</th><th>figures</th></tr>\n",
            WC_VERSION, nin, nin == 1 ? "" : "s");
    for (size_t i = 0; i < nin; i++) {
        fputs("<tr><td>", f);
        html_text(f, ins[i].path);
        fprintf(f, "</td><td>%s</td><td>", ins[i].kind);
        for (size_t k = first[i]; k < first[i + 1]; k++)
            fprintf(f, "%s<a href=\"#fig-%s\">%zu</a>", k > first[i] ? ", " : "", figs->v[k].id,
                    k + 1);
        if (first[i] == first[i + 1]) fputs("none (nothing to draw)", f);
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
    for (size_t i = 0; i < nin; i++) {
        fprintf(f, "<section id=\"in-%zu\">\n<h2>", i + 1);
        html_text(f, ins[i].path);
        fprintf(f, " (%s)</h2>\n", ins[i].kind);
        for (size_t k = first[i]; k < first[i + 1]; k++) {
            const report_fig *g = &figs->v[k];
            fprintf(f, "<figure id=\"fig-%s\">\n", g->id);
            fwrite(g->svg, 1, g->svg_len, f);
            fprintf(f, "<figcaption><b>Figure %zu.</b> ", k + 1);
            html_text(f, g->caption);
            fputs("</figcaption>\n</figure>\n", f);
        }
        fputs("</section>\n", f);
    }
    fprintf(f,
            "<p id=\"wc-status\">%zu figures (the browser's count replaces this line)</p>\n%s"
            "</body>\n</html>\n",
            figs->n, script);
}

/* ---- SVG files --------------------------------------------------------------- */

/* --svg-dir must be a folder or not exist yet (it is created). */
static int check_svg_dir(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
        wc_cli_error("option --svg-dir: cannot create %s: it is not a folder", dir);
        return -1;
    }
    return 0;
}

typedef struct report_args {
    const char *out, *svg_dir, *title;
    wc_plot_style style; /* --width, --height, --font-size; 0: the default */
    const char *out_opt; /* how the page was given: "--output" or "-o" (messages) */
    bool quiet;
    const char **inputs;
    size_t nin;
} report_args;

/* The figures' files DIR/<id>.svg must not be the page or an input (an
 * input or -o inside DIR named like a figure would be replaced). */
static int check_figure_paths(const char *dir, const report_figs *figs, const report_args *a)
{
    const char *out = a->out;
    for (size_t k = 0; k < figs->n; k++) {
        char path[WC_OUT_PATH];
        if (snprintf(path, sizeof path, "%s/%s.svg", dir, figs->v[k].id) >= (int)sizeof path) {
            wc_cli_error("option --svg-dir: %s: path too long", dir);
            return -1;
        }
        if (strcmp(out, "-") != 0 && wc_out_same_file(path, out)) {
            wc_cli_error("options %s and --svg-dir both write %s (figure %s): give the page "
                         "another name or folder",
                         a->out_opt, out, figs->v[k].id);
            return -1;
        }
        const char *paths[] = {path}, *opts[] = {"--svg-dir"};
        for (size_t i = 0; i < a->nin; i++)
            if (wc_out_check_not_input(a->inputs[i], paths, opts, 1) < 0) return -1;
    }
    return 0;
}

/* Writes every figure into the staging folder; the message names the file
 * in DIR it stands for.  WC_EXIT_OK or WC_EXIT_FAIL (a failed write). */
static int write_svgs(const wc_stage *stage, const char *dir, const report_figs *figs)
{
    for (size_t k = 0; k < figs->n; k++) {
        char path[WC_OUT_PATH + 300];
        snprintf(path, sizeof path, "%s/%s.svg", stage->tmp, figs->v[k].id);
        errno = 0;
        FILE *f = fopen(path, "w");
        int e = f ? 0 : errno;
        if (f && fwrite(figs->v[k].svg, 1, figs->v[k].svg_len, f) != figs->v[k].svg_len)
            e = errno ? errno : EIO;
        if (f && fclose(f) != 0 && !e) e = errno ? errno : EIO;
        if (e) {
            wc_cli_error("cannot write %s/%s.svg: %s", dir, figs->v[k].id, strerror(e));
            return WC_EXIT_FAIL;
        }
    }
    return WC_EXIT_OK;
}

/* ---- the command ------------------------------------------------------------- */

/* A size option's value: a whole number in [lo, hi].  -1 (printed). */
static int parse_size(const wc_opts *p, unsigned lo, unsigned hi, unsigned *out)
{
    const char *v = p->value;
    unsigned long long n = 0;
    bool digits = v[0] != 0;
    for (const char *c = v; *c && digits; c++) {
        digits = *c >= '0' && *c <= '9';
        if (n <= hi) n = n * 10 + (unsigned)(*c - '0'); /* stops growing past hi */
    }
    if (!digits) {
        wc_cli_error("report: option %s: '%s' is not a whole number (%u to %u)", wc_opts_name(p), v,
                     lo, hi);
        return -1;
    }
    if (n < lo || n > hi) {
        wc_cli_error("report: option %s: %s is out of range (%u to %u)", wc_opts_name(p), v, lo,
                     hi);
        return -1;
    }
    *out = (unsigned)n;
    return 0;
}

/* 1: help shown, 0: ok, -1: bad (printed). */
static int parse_args(int argc, char **argv, report_args *a)
{
    a->title = "warpcache report";
    a->out_opt = "--output";
    bool old_o = false;
    wc_opts p;
    wc_opts_init(&p, "report", report_tables, argc, argv);
    for (int id; (id = wc_opts_next(&p)) != WC_OPT_DONE;) {
        switch (id) {
        case WC_OPT_HELP: wc_opts_print_help(usage_text, report_tables); return 1;
        case WC_OPT_BAD: return -1;
        case WC_OPT_ARG: a->inputs[a->nin++] = p.value; break;
        case O_OUTPUT_OLD: old_o = true; /* fall through */
        case O_OUTPUT:
            a->out = p.value;
            a->out_opt = id == O_OUTPUT ? "--output" : "-o";
            break;
        case O_SVG_DIR: a->svg_dir = p.value; break;
        case O_TITLE: a->title = p.value; break;
        case O_QUIET: a->quiet = true; break;
        case O_WIDTH:
            if (parse_size(&p, 300, 5000, &a->style.width) < 0) return -1;
            break;
        case O_HEIGHT:
            if (parse_size(&p, 150, 5000, &a->style.height) < 0) return -1;
            break;
        case O_FONT:
            if (parse_size(&p, 6, 48, &a->style.font) < 0) return -1;
            break;
        }
    }
    /* Everywhere else -o sets an option (NAME=VALUE); report's page was -o
     * before --output existed, and scripts still say so. */
    if (old_o && !a->quiet)
        fprintf(stderr, "warpcache: report: -o FILE is deprecated (elsewhere -o sets NAME=VALUE); "
                        "write --output FILE\n");
    if (!a->nin) {
        wc_cli_error("report: no results files given (warpcache report --help)");
        return -1;
    }
    if (!a->out) {
        wc_cli_error("report: option --output FILE.html is required (warpcache report --help)");
        return -1;
    }
    const char *outs[] = {a->out, a->svg_dir}, *opts[] = {a->out_opt, "--svg-dir"};
    return wc_out_check_io(NULL, a->inputs, a->nin, outs, opts, a->svg_dir ? 2 : 1);
}

int wc_cmd_report(int argc, char **argv)
{
    report_args a = {0};
    a.inputs = calloc((size_t)argc + 1, sizeof *a.inputs);
    report_input *ins = calloc((size_t)argc + 1, sizeof *ins);
    size_t *first = calloc((size_t)argc + 2, sizeof *first);
    report_figs figs = {0};
    wc_out out = {0};
    bool out_open = false, stage_open = false;
    wc_stage stage = {.slot = -1};
    int rc = WC_EXIT_USAGE;
    if (!a.inputs || !ins || !first) {
        wc_cli_error("report: out of memory");
        rc = WC_EXIT_FAIL;
        goto done;
    }
    int pa = parse_args(argc, argv, &a);
    if (pa) {
        rc = pa > 0 ? WC_EXIT_OK : WC_EXIT_USAGE;
        goto done;
    }
    /* outputs first: a path that cannot be written fails before any work */
    if (wc_out_open(&out, a.out) < 0) goto done;
    out_open = true;
    /* The figures go to a staging folder next to DIR, moved into DIR at the
     * end: an interrupted or failed report leaves no folder and no partial
     * set of figures (the staging folder is removed on a fatal signal). */
    if (a.svg_dir && (check_svg_dir(a.svg_dir) < 0 || wc_stage_open(&stage, a.svg_dir) < 0))
        goto done;
    stage_open = a.svg_dir != NULL;
    for (size_t i = 0; i < a.nin; i++) {
        ins[i].path = a.inputs[i];
        ins[i].index = (int)i + 1;
        ins[i].style = &a.style;
        if (input_load(&ins[i]) < 0) goto done;
    }
    for (size_t i = 0; i < a.nin; i++) {
        report_err err = {0};
        first[i] = figs.n;
        for (size_t k = 0; k < NKINDS; k++) {
            if (strcmp(kinds[k]->name, ins[i].kind) != 0) continue;
            if (kinds[k]->build(&ins[i], &figs, &err) < 0) {
                bool oom = strcmp(err.msg, "out of memory") == 0;
                wc_cli_error("%s:%d: %s", ins[i].path, err.line, err.msg);
                rc = oom ? WC_EXIT_FAIL : WC_EXIT_USAGE;
                goto done;
            }
        }
    }
    first[a.nin] = figs.n;
    if (a.svg_dir && check_figure_paths(a.svg_dir, &figs, &a) < 0) goto done;
    if (a.svg_dir && (rc = write_svgs(&stage, a.svg_dir, &figs)) != WC_EXIT_OK) goto done;
    rc = WC_EXIT_FAIL;
    write_html(out.f, a.title, ins, a.nin, &figs, first);
    out_open = false;
    if (wc_out_commit(&out) < 0) goto done;
    stage_open = false;
    rc = a.svg_dir && wc_stage_commit(&stage, a.svg_dir, NULL) < 0 ? WC_EXIT_FAIL : WC_EXIT_OK;
done:
    if (out_open) wc_out_abort(&out);
    if (stage_open) wc_stage_abort(&stage);
    for (size_t i = 0; ins && i < a.nin; i++) input_free(&ins[i]);
    report_figs_free(&figs);
    free(ins);
    free(first);
    free(a.inputs);
    return rc;
}

int report_fig_bars(report_figs *out, const report_input *in, const char *what, const char *title,
                    const char *caption, wc_plot_bars *p, report_err *err)
{
    FILE *f = report_fig_open(out, in, what, title, caption, err);
    if (!f) return -1;
    p->id = out->v[out->n - 1].id;
    p->style = in->style;
    wc_plot_write_bars(f, p);
    return report_fig_close(out, f, err);
}
