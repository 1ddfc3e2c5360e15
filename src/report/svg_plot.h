/*
 * svg_plot.h - the one plotting module of warpcache: every figure it draws
 * (`mrc --svg`, every figure of `warpcache report`) is one of these kinds,
 * written as a standalone SVG document that can also be inlined in HTML.
 *
 *   bars      grouped bars (normalised per workload, the seed papers' style)
 *             with trailing mean groups after a separator, or stacked bars
 *             (line utilisation, miss classes), or a histogram (one series)
 *   lines     curves over a linear or a log2 x axis; on log2 sizes the ticks
 *             are powers of two labelled in lines and in B/KB/MB
 *   timeline  step functions over cycles, one lane per series with its own
 *             value range (adaptive mechanisms' on/off states and limits)
 *
 * Common promises: width 800 px unless a style says otherwise, axes labelled, ticks at round values
 * (1, 2, 5 x 10^k; powers of two on log2 axes), the legend inside the
 * canvas below the plot (never clipped, never over the data), series told
 * apart without colour (grey levels, hatch patterns, dashes, markers), and
 * byte-identical output for the same input.  Every id inside an SVG starts
 * with its figure id, so many figures can share one HTML page.
 */
#ifndef WC_REPORT_SVG_PLOT_H
#define WC_REPORT_SVG_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The canvas width of every figure, in px, unless a style says otherwise. */
#define WC_PLOT_WIDTH 800
/* The base font size (axis titles, legend), px; the other sizes scale with it. */
#define WC_PLOT_FONT 12

/* The size of a figure: every field 0 (or a NULL style) is today's default.
 * width: the canvas width; height: the canvas height (the plot area takes
 * what the title, labels and legends leave, at least a minimum, so a too
 * small height gives a taller canvas); font: the base font size, margins
 * and legend rows grow with it. */
typedef struct wc_plot_style {
    unsigned width, height, font;
} wc_plot_style;

/* Long category labels of bars are abbreviated: the parts every label
 * shares (a prefix or suffix ending at '/', ':', ',', '=' or ' ') are left
 * out, a trailing " [kernel]" is always kept whole, and labels still longer
 * than this are numbered; a key below the plot then maps each short label
 * to its full name. */
#define WC_PLOT_LABEL_MAX 20

typedef struct wc_plot_bars {
    const char *id; /* [A-Za-z0-9_-]; the <svg> id and the prefix of its inner ids */
    const char *title, *xlabel, *ylabel;
    const char *const *groups; /* x categories (workloads, bins), in order */
    size_t ngroups;
    size_t nmeans;             /* the last nmeans groups are means, after a separator */
    const char *const *bands;  /* NULL, or per group its class: consecutive groups of one
                                  class are labelled once above the plot, dotted lines
                                  between classes (means are in no class) */
    const char *const *series; /* legend entries (designs, segments); NULL: no legend */
    size_t nseries;
    const double *v; /* v[g * nseries + s]; NaN: no value (no bar) */
    double ref;      /* a dashed reference line at this y (1 when normalised); NaN: none */
    bool stacked;    /* the series of a group stack into one bar */
    double ymax;     /* 0: a round value above the data */
    const wc_plot_style *style; /* NULL: the default size */
} wc_plot_bars;

typedef struct wc_plot_series {
    const char *label;
    const double *x, *y;
    size_t n;
} wc_plot_series;

typedef struct wc_plot_lines {
    const char *id, *title, *xlabel, *ylabel;
    bool xlog2;          /* x in log2 scale (sizes); ticks at powers of two */
    unsigned line_bytes; /* xlog2 with x in lines: a second tick row in bytes; 0: none */
    double ymin, ymax;   /* ymin == ymax: round values around the data */
    const wc_plot_series *series;
    size_t nseries;
    const wc_plot_style *style; /* NULL: the default size */
} wc_plot_lines;

typedef struct wc_plot_timeline {
    const char *id, *title, *xlabel;
    const wc_plot_series *lanes; /* x: cycles of the changes, y: the value from then on */
    size_t nlanes;
    double xmax; /* the run's last cycle: the last value lasts until here; 0: last x */
    const wc_plot_style *style; /* NULL: the default size */
} wc_plot_timeline;

void wc_plot_write_bars(FILE *f, const wc_plot_bars *b);
void wc_plot_write_lines(FILE *f, const wc_plot_lines *p);
void wc_plot_write_timeline(FILE *f, const wc_plot_timeline *t);

/* A "nice" tick step (1, 2 or 5 x 10^k) for about `want` ticks over range. */
double wc_plot_nice_step(double range, int want);
/* A size in bytes as "128 B", "8 KB", "1.5 MB" (for tick labels). */
void wc_plot_bytes_label(double bytes, char *buf, size_t n);

#endif
