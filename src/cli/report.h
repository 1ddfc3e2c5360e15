/*
 * report.h - what `warpcache report` (cmd_report.c) shares with its input
 * kinds: every kind of results file (run, compare, sweep, model, mrc,
 * validate, validate --hw) is a report_kind that recognises its documents and
 * turns them into figures (report_run.c, report_batch.c, report_model.c,
 * report_hw.c).  The command reads the files, asks the registry which kind
 * each one is, and writes the figures into one HTML page and, optionally, one
 * SVG file each.
 */
#ifndef WC_CLI_REPORT_H
#define WC_CLI_REPORT_H

#include <stdio.h>

#include "cli/jsondoc.h"
#include "report/svg_plot.h"

/* One results file: a single JSON value, or a JSON Lines file (sweep). */
typedef struct report_input {
    const char *path;
    int index;    /* 1-based position on the command line: figure ids */
    wc_jv **docs; /* the file's values in order */
    size_t ndocs;
    const char *kind;           /* filled in by the command */
    const wc_plot_style *style; /* every figure's size (--width, --height, --font-size) */
} report_input;

typedef struct report_fig {
    char id[64]; /* "f<input>-<what>": the <figure> and <svg> id, the .svg name */
    char *title, *caption, *svg;
    size_t svg_len;
} report_fig;

typedef struct report_figs {
    report_fig *v;
    size_t n, cap;
} report_figs;

typedef struct report_err {
    int line;
    char msg[256];
} report_err;

typedef struct report_kind {
    const char *name;
    /* Whether the file holds this kind's results (only shape is looked at). */
    bool (*matches)(const report_input *in);
    /* Appends the figures; -1 with err (line of the offending value) on
     * input that has the shape but not the content expected. */
    int (*build)(const report_input *in, report_figs *out, report_err *err);
} report_kind;

extern const report_kind wc_report_run, wc_report_compare, wc_report_sweep, wc_report_model,
    wc_report_mrc, wc_report_validate, wc_report_validate_hw;

/* A new figure with id "f<in->index>-<what>", title and caption (copied);
 * its SVG is written to the returned stream, and report_fig_close() keeps
 * it.  NULL (err set) when out of memory. */
FILE *report_fig_open(report_figs *out, const report_input *in, const char *what, const char *title,
                      const char *caption, report_err *err);
int report_fig_close(report_figs *out, FILE *f, report_err *err);
/* A whole bar chart as one figure: open, write p (its id set), close. */
int report_fig_bars(report_figs *out, const report_input *in, const char *what, const char *title,
                    const char *caption, wc_plot_bars *p, report_err *err);
void report_figs_free(report_figs *f);
/* Sets err from v's line and a message; returns -1. */
int report_fail(report_err *err, const wc_jv *v, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* s with every character outside [A-Za-z0-9_-] replaced by '-', into buf. */
void report_slug(const char *s, char *buf, size_t n);

#endif
