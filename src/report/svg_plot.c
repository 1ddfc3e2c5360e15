/*
 * svg_plot.c - the plotting module (svg_plot.h): bars, lines, timelines as
 * SVG.  Layout is computed before anything is written: the canvas grows
 * downwards for rotated labels and for as many legend rows as the entries
 * need, so nothing is clipped.  Text widths are estimated (0.6 em per
 * character, generous for sans-serif), since no font metrics are at hand.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "report/svg_plot.h"

#include <stdlib.h>

#include "report/plot_labels.h"

#define PH_MIN 60.0 /* the smallest plot area a --height can ask for */

/* The sizes of one figure, from its style: the defaults times the font
 * scale k (font / 12) for everything that holds text. */
typedef struct layout {
    double w;        /* canvas width */
    double ml;       /* left margin: y tick labels and the y title */
    double mr;       /* right margin: half of the last x tick label */
    double mt;       /* top margin: the title, class names of bands */
    double ph;       /* plot height of bars and lines */
    double font;     /* axis titles, tick labels, legend */
    double small;    /* category labels */
    double legend_h; /* one legend row */
    double k;        /* font / 12: the scale of the other text sizes */
    unsigned height; /* the canvas height asked for; 0: as the content needs */
} layout;

static layout layout_of(const wc_plot_style *st)
{
    double font = st && st->font ? st->font : WC_PLOT_FONT, k = font / WC_PLOT_FONT;
    return (layout){.w = st && st->width ? st->width : WC_PLOT_WIDTH,
                    .ml = 64.0 * k,
                    .mr = 34.0 * k,
                    .mt = 46.0 * k,
                    .ph = 300.0,
                    .font = font,
                    .small = 11.0 * k,
                    .legend_h = 18.0 * k,
                    .k = k,
                    .height = st ? st->height : 0};
}

/* The plot height that makes a canvas of natural height h (at plot height
 * L->ph) as tall as asked, but no less than PH_MIN. */
static double fit_height(const layout *L, double h)
{
    if (!L->height) return L->ph;
    double ph = L->ph + ((double)L->height - h);
    return ph < PH_MIN ? PH_MIN : ph;
}

/* ---- text ------------------------------------------------------------------ */

static double text_w(size_t chars, double size)
{
    return (double)chars * size * 0.6;
}

/* Writes s escaped for XML, at most max characters (an ellipsis "..." ends a
 * cut string; UTF-8 sequences are never split). */
static void xml_text(FILE *f, const char *s, size_t max)
{
    size_t n = 0, len = s ? strlen(s) : 0;
    bool cut = len > max && max >= 4;
    for (; s && *s; s++) {
        if ((*s & 0xC0) != 0x80) { /* a new character */
            if (cut && n == max - 3) break;
            n++;
        }
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
    if (cut) fputs("...", f);
}

static size_t chars_of(const char *s)
{
    size_t n = 0;
    for (; s && *s; s++) n += (*s & 0xC0) != 0x80;
    return n;
}

/* A text element; max_w: the width it may take (px), the text is cut to fit. */
static void text_at(FILE *f, double x, double y, const char *anchor, double size, double max_w,
                    const char *extra, const char *s)
{
    size_t max = (size_t)(max_w / (size * 0.6));
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%.0f\"%s>", x, y, anchor,
            size, extra ? extra : "");
    xml_text(f, s, max < 4 ? 4 : max);
    fputs("</text>\n", f);
}

/* ---- ticks ----------------------------------------------------------------- */

double wc_plot_nice_step(double range, int want)
{
    if (!(range > 0) || !isfinite(range)) return 1;
    double raw = range / (want > 0 ? want : 1);
    double mag = pow(10, floor(log10(raw)));
    double norm = raw / mag;
    double step = norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10;
    return step * mag;
}

/* A tick value with the decimals its step needs.  On an axis reaching
 * 10000 (top) with steps of whole thousands, every label is in k (20000 as
 * "20k") or, with steps of whole millions, in M - one unit per axis. */
static void tick_label(double v, double step, double top, char *buf, size_t n)
{
    if (fabs(v) < step * 1e-9) v = 0;
    if (v == 0 && step >= 1) {
        snprintf(buf, n, "0");
    } else if (step >= 1e6 && fmod(step, 1e6) == 0) {
        snprintf(buf, n, "%.0fM", v / 1e6);
    } else if (step >= 1e3 && fmod(step, 1e3) == 0 && fabs(top) >= 1e4) {
        snprintf(buf, n, "%.0fk", v / 1e3);
    } else {
        int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
        snprintf(buf, n, "%.*f", dec, v);
    }
}

void wc_plot_bytes_label(double bytes, char *buf, size_t n)
{
    static const char *const unit[] = {"B", "KB", "MB", "GB"};
    int u = 0;
    while (bytes >= 1024 && u < 3) bytes /= 1024, u++;
    snprintf(buf, n, "%.*f %s", bytes == floor(bytes) ? 0 : 1, bytes, unit[u]);
}

/* ---- styles: told apart in greyscale ---------------------------------------- */

#define NSTYLE 8

/* Bar fills: solid greys alternate with hatch patterns on white. */
static const char *const bar_solid[NSTYLE] = {"#222", NULL, "#aaa", NULL,
                                              "#666", NULL, "#ddd", NULL};

static void bar_defs(FILE *f, const char *id)
{
    /* 1: diagonal hatch, 3: cross hatch, 5: dots, 7: horizontal lines */
    fprintf(f,
            "<defs>\n"
            "<pattern id=\"%s-p1\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
            "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"white\"/>"
            "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#222\" stroke-width=\"2\"/>"
            "</pattern>\n"
            "<pattern id=\"%s-p3\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\">"
            "<rect width=\"6\" height=\"6\" fill=\"white\"/><path d=\"M0 0H6M0 0V6\" "
            "stroke=\"#222\" stroke-width=\"1.5\"/></pattern>\n"
            "<pattern id=\"%s-p5\" width=\"5\" height=\"5\" patternUnits=\"userSpaceOnUse\">"
            "<rect width=\"5\" height=\"5\" fill=\"white\"/><circle cx=\"2.5\" cy=\"2.5\" "
            "r=\"1.2\" fill=\"#222\"/></pattern>\n"
            "<pattern id=\"%s-p7\" width=\"6\" height=\"4\" patternUnits=\"userSpaceOnUse\">"
            "<rect width=\"6\" height=\"4\" fill=\"white\"/><line x1=\"0\" y1=\"1\" x2=\"6\" "
            "y2=\"1\" stroke=\"#222\" stroke-width=\"1.2\"/></pattern>\n"
            "</defs>\n",
            id, id, id, id);
}

static void bar_fill(FILE *f, const char *id, size_t k)
{
    k %= NSTYLE;
    if (bar_solid[k])
        fprintf(f, "fill=\"%s\"", bar_solid[k]);
    else
        fprintf(f, "fill=\"url(#%s-p%zu)\"", id, k);
}

static const char *const line_stroke[NSTYLE] = {"#000", "#000", "#666", "#000",
                                                "#666", "#999", "#333", "#999"};
static const char *const line_dash[NSTYLE] = {"", "6 3", "", "2 3", "8 3 2 3", "", "4 2", "2 2"};

/* Marker k at (x, y): circle, square, triangle, diamond, cross; the styles
 * from 5 on repeat the shapes hollow/filled the other way round. */
static void marker(FILE *f, size_t k, double x, double y)
{
    k %= NSTYLE;
    const char *col = line_stroke[k];
    bool hollow = (k % 2 == 1) != (k >= 5);
    char fill[32];
    snprintf(fill, sizeof fill, "%s", hollow ? "white" : col);
    switch (k % 5) {
    case 0:
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.2\" fill=\"%s\" stroke=\"%s\"/>\n", x, y,
                fill, col);
        break;
    case 1:
        fprintf(f,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"6\" height=\"6\" fill=\"%s\" "
                "stroke=\"%s\"/>\n",
                x - 3, y - 3, fill, col);
        break;
    case 2:
        fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\" stroke=\"%s\"/>\n", x,
                y - 4, x + 3.6, y + 2.6, x - 3.6, y + 2.6, fill, col);
        break;
    case 3:
        fprintf(f,
                "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\" "
                "stroke=\"%s\"/>\n",
                x, y - 4, x + 4, y, x, y + 4, x - 4, y, fill, col);
        break;
    default:
        fprintf(f,
                "<path d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\" stroke=\"%s\" "
                "stroke-width=\"1.8\"/>\n",
                x - 3.5, y - 3.5, x + 3.5, y + 3.5, x - 3.5, y + 3.5, x + 3.5, y - 3.5, col);
    }
}

static void line_attrs(FILE *f, size_t k)
{
    k %= NSTYLE;
    fprintf(f, "fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\"", line_stroke[k]);
    if (line_dash[k][0]) fprintf(f, " stroke-dasharray=\"%s\"", line_dash[k]);
}

/* ---- frame: header, title, legend ------------------------------------------- */

static void header(FILE *f, const layout *L, const char *id, const char *title, double h)
{
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"%s\" width=\"%.0f\" "
            "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Arial, "
            "sans-serif\" font-size=\"%.0f\" role=\"img\">\n<title>",
            id, L->w, h, L->w, h, L->font);
    xml_text(f, title, 1000);
    fputs("</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n", f);
    text_at(f, L->w / 2, 24 * L->k, "middle", 15 * L->k, L->w - 20, " font-weight=\"bold\"", title);
}

/* Legend entries flow left to right in rows inside [L->ml, L->w-L->mr]; the layout
 * is computed the same way when measuring and when drawing. */
static double legend_entry_w(const layout *L, const char *label)
{
    return 30 + text_w(chars_of(label) > 60 ? 60 : chars_of(label), L->font) + 18;
}

static int legend_rows(const layout *L, const char *const *labels, size_t n)
{
    if (!labels || n == 0) return 0;
    int rows = 1;
    double x = L->ml;
    for (size_t k = 0; k < n; k++) {
        double w = legend_entry_w(L, labels[k]);
        if (x > L->ml && x + w > L->w - L->mr) rows++, x = L->ml;
        x += w;
    }
    return rows;
}

/* kind: 'b' bar swatches, 'l' line swatches. */
static void legend(FILE *f, const layout *L, const char *id, char kind, const char *const *labels,
                   size_t n, double y0)
{
    if (!labels || n == 0) return;
    double x = L->ml, y = y0;
    fprintf(f, "<g class=\"legend\">\n");
    for (size_t k = 0; k < n; k++) {
        double w = legend_entry_w(L, labels[k]);
        if (x > L->ml && x + w > L->w - L->mr) y += L->legend_h, x = L->ml;
        if (kind == 'b') {
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"22\" height=\"11\" ", x, y - 9);
            bar_fill(f, id, k);
            fputs(" stroke=\"#000\" stroke-width=\"0.8\"/>\n", f);
        } else {
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" ", x, y - 4, x + 24,
                    y - 4);
            line_attrs(f, k);
            fputs("/>\n", f);
            marker(f, k, x + 12, y - 4);
        }
        text_at(f, x + 30, y, "start", L->font, w - 36, NULL, labels[k]);
        x += w;
    }
    fprintf(f, "</g>\n");
}

/* The number of ticks from a to b by step: at most 200, so that absurd
 * values (1e308, overflowing to infinity) cannot loop forever. */
static int ticks(double a, double b, double step)
{
    double n = floor((b - a) / step + 1e-6);
    return isfinite(n) && n >= 0 ? (n > 200 ? 200 : (int)n) : 0;
}

/* A value axis on the left of the plot [top, top+ph]: gridlines, ticks. */
static void y_axis(FILE *f, const layout *L, double y0, double y1, double step, double top,
                   double ph, const char *ylabel)
{
    for (int i = 0, nt = ticks(y0, y1, step); i <= nt; i++) {
        double v = y0 + step * i;
        double py = top + ph - (v - y0) / (y1 - y0) * ph;
        char lab[32];
        tick_label(v, step, y1, lab, sizeof lab);
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n"
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                L->ml, py, L->w - L->mr, py, L->ml - 6, py + 4, lab);
    }
    fprintf(f, "<text transform=\"translate(%.0f %.1f) rotate(-90)\" text-anchor=\"middle\">",
            16 * L->k, top + ph / 2);
    xml_text(f, ylabel, (size_t)(ph / (L->font * 0.6)));
    fputs("</text>\n", f);
}

static void axes_box(FILE *f, const layout *L, double top, double ph)
{
    fprintf(f, "<path d=\"M%.1f %.1fV%.1fH%.1f\" stroke=\"#000\" fill=\"none\"/>\n", L->ml, top,
            top + ph, L->w - L->mr);
}

/* A round upper bound for values up to vmax (0 and NaN: 1). */
static double round_top(double vmax, double *step)
{
    if (!(vmax > 0) || !isfinite(vmax)) vmax = 1;
    *step = wc_plot_nice_step(vmax, 6);
    double top = ceil(vmax / *step - 1e-9) * *step;
    return top > 0 ? top : *step;
}

/* ---- bars ------------------------------------------------------------------ */

/* The class bands of grouped bars: a dotted line where the class changes,
 * the class name centred above its groups (between the title and the plot). */
static void bands(FILE *f, const layout *L, const wc_plot_bars *b, double gw)
{
    size_t n = b->ngroups - b->nmeans;
    for (size_t g = 0; g < n;) {
        size_t e = g + 1;
        while (e < n && strcmp(b->bands[e], b->bands[g]) == 0) e++;
        double x0 = L->ml + gw * (double)g, x1 = L->ml + gw * (double)e;
        if (g > 0)
            fprintf(f,
                    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#666\" "
                    "stroke-dasharray=\"1 2\"/>\n",
                    x0, L->mt - 10, x0, L->mt + L->ph);
        if (b->bands[g][0])
            text_at(f, (x0 + x1) / 2, L->mt - 3, "middle", 10 * L->k, x1 - x0, " class=\"band\"",
                    b->bands[g]);
        g = e;
    }
}

/* The category labels as drawn: long ones shortened (plot_labels.h) when
 * they would not be drawn whole otherwise; the mean groups keep theirs.  *keyed: some label differs
 * from its name, so a key is drawn.  NULL when out of memory. */
static const char **shown_labels(const layout *L, const wc_plot_bars *b, double gw,
                                 char ***shortened, size_t *nnamed, bool *keyed)
{
    size_t ng = b->ngroups, named = b->nmeans < ng ? ng - b->nmeans : 0, longest = 0, all = 0;
    for (size_t g = 0; g < ng; g++) {
        size_t c = chars_of(b->groups[g]);
        if (c > all) all = c;
        if (g < named && c > longest) longest = c;
    }
    const char **shown = malloc((ng ? ng : 1) * sizeof *shown);
    if (!shown) return NULL;
    /* drawn whole only when the longest fits its group (vertical labels are
     * cut at 34 characters, horizontal ones at the group's width) */
    bool whole = text_w(all, L->small) <= gw - 4;
    *shortened = !whole && longest > WC_PLOT_LABEL_MAX
                     ? wc_plot_labels_shorten(b->groups, named, WC_PLOT_LABEL_MAX)
                     : NULL;
    *nnamed = named, *keyed = false;
    for (size_t g = 0; g < ng; g++) {
        shown[g] = *shortened && g < named ? (*shortened)[g] : b->groups[g];
        *keyed |= strcmp(shown[g], b->groups[g]) != 0;
    }
    return shown;
}

/* Writes characters [from, from + count) of s, escaped for XML (a key
 * entry's name continued over rows); returns the index after them. */
static size_t xml_span(FILE *f, const char *s, size_t from, size_t count)
{
    size_t i = 0, c = 0, len = strlen(s);
    for (; i < len && c < from; c += (s[++i] & 0xC0) != 0x80) {
    }
    size_t start = i;
    for (size_t k = 0; i < len && k < count; k += (s[++i] & 0xC0) != 0x80) {
    }
    char *part = strndup(s + start, i - start);
    if (part) xml_text(f, part, SIZE_MAX);
    free(part);
    return from + count;
}

/* The key of shortened labels: entries "SHORT full name" flowing left to
 * right in rows across the canvas; a name too long for a row goes on over
 * the next rows, never cut.  The layout is the same when measuring (f
 * NULL) and when drawing.  Returns the number of rows. */
static int key(FILE *f, const layout *L, const char *const *shown, const char *const *full,
               size_t n, double y0)
{
    double x0 = 16 * L->k, x1 = L->w - 16 * L->k, x = x0, y = y0, fs = L->small;
    int rows = n ? 1 : 0;
    if (f && n) fputs("<g class=\"key\">\n", f);
    for (size_t k = 0; k < n; k++) {
        double ws = text_w(chars_of(shown[k]) + 1, fs);
        size_t cf = chars_of(full[k]);
        double w = ws + text_w(cf, fs) + 18;
        if (x > x0 && x + w > x1) rows++, y += L->legend_h, x = x0;
        size_t per = (size_t)((x1 - x - ws) / (fs * 0.6)); /* characters of the name per row */
        if (per < 8) per = 8;
        if (f) {
            fprintf(f,
                    "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\"><tspan font-weight=\"bold\">",
                    x, y, fs);
            xml_text(f, shown[k], SIZE_MAX);
            fputs("</tspan> ", f);
        }
        if (cf <= per) { /* the whole entry in this row */
            if (f) xml_text(f, full[k], SIZE_MAX), fputs("</text>\n", f);
            x += w;
            continue;
        }
        for (size_t from = 0; from < cf; from += per) {
            if (from) {
                rows++, y += L->legend_h;
                if (f) fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\">", x + ws, y, fs);
            }
            if (f) xml_span(f, full[k], from, per), fputs("</text>\n", f);
        }
        x = x1; /* the row is full: the next entry starts a new one */
    }
    if (f && n) fputs("</g>\n", f);
    return rows;
}

/* The vertical layout of a bar chart below the plot area: label height,
 * x title, legend and key rows; the canvas height for plot height L->ph. */
typedef struct bars_frame {
    bool vertical;
    size_t every; /* label every this many groups (very narrow groups) */
    double lab_h, xt, legend_y, key_y, h;
} bars_frame;

static bars_frame frame_bars(const layout *L, const wc_plot_bars *b, const char *const *shown,
                             double gw, int key_rows)
{
    bars_frame fr;
    size_t maxc = 0;
    for (size_t g = 0; g < b->ngroups; g++)
        if (chars_of(shown[g]) > maxc) maxc = chars_of(shown[g]);
    if (maxc > 34) maxc = 34;
    /* horizontal when the longest fits its group, else vertical */
    fr.vertical = text_w(maxc, L->small) > gw - 4;
    fr.every = fr.vertical && gw < L->small + 2 ? (size_t)ceil((L->small + 2) / gw) : 1;
    fr.lab_h = fr.vertical ? text_w(maxc, L->small) + 10 : 20 * L->k;
    fr.xt = L->mt + L->ph + fr.lab_h + 16 * L->k; /* x title baseline */
    int rows = legend_rows(L, b->series, b->series ? b->nseries : 0);
    fr.legend_y = fr.xt + 24 * L->k;
    fr.h = fr.xt + 10 * L->k + rows * L->legend_h + (rows ? 8 * L->k : 0);
    fr.key_y = fr.h + 14 * L->k;
    if (key_rows) fr.h += key_rows * L->legend_h + 8 * L->k;
    return fr;
}

/* One category label below its group, horizontal or vertical. */
static void category_label(FILE *f, const layout *L, const bars_frame *fr, double cx, double gw,
                           const char *s)
{
    if (fr->vertical) {
        fprintf(f,
                "<text transform=\"translate(%.1f %.1f) rotate(-90)\" text-anchor=\"end\" "
                "font-size=\"%.0f\">",
                cx + L->small / 3, L->mt + L->ph + 6, L->small);
        xml_text(f, s, 34);
        fputs("</text>\n", f);
    } else {
        text_at(f, cx, L->mt + L->ph + 15 * L->k, "middle", L->small, gw, NULL, s);
    }
}

void wc_plot_write_bars(FILE *f, const wc_plot_bars *b)
{
    layout lay = layout_of(b->style);
    const layout *L = &lay;
    size_t ng = b->ngroups, ns = b->nseries ? b->nseries : 1;
    double pw = L->w - L->ml - L->mr;
    double slots = (double)ng + (b->nmeans && b->nmeans < ng ? 0.6 : 0);
    double gw = pw / (slots > 0 ? slots : 1);
    /* the data range */
    double vmax = 0;
    for (size_t g = 0; g < ng; g++) {
        double sum = 0;
        for (size_t s = 0; s < ns; s++) {
            double v = b->v[g * ns + s];
            if (!isfinite(v) || v < 0) continue;
            if (b->stacked)
                sum += v;
            else if (v > vmax)
                vmax = v;
        }
        if (sum > vmax) vmax = sum;
    }
    if (isfinite(b->ref) && b->ref > vmax) vmax = b->ref;
    double step, top = b->ymax > 0 ? b->ymax : round_top(vmax, &step);
    if (b->ymax > 0) step = wc_plot_nice_step(top, 6);
    char **shortened = NULL;
    size_t named = 0;
    bool keyed = false;
    const char **shown_v = shown_labels(L, b, gw, &shortened, &named, &keyed);
    const char *const *shown = shown_v ? shown_v : b->groups; /* out of memory: the names */
    char **kshort = keyed ? calloc(named, sizeof *kshort) : NULL;
    char **kfull = keyed ? calloc(named, sizeof *kfull) : NULL;
    size_t nkey = kshort && kfull ? wc_plot_labels_key(shown, b->groups, named, kshort, kfull) : 0;
    int key_rows =
        nkey ? key(NULL, L, (const char *const *)kshort, (const char *const *)kfull, nkey, 0) : 0;
    bars_frame fr = frame_bars(L, b, shown, gw, key_rows);
    if (L->height) { /* the plot area takes what the rest leaves of the height asked */
        lay.ph = fit_height(L, fr.h);
        fr = frame_bars(L, b, shown, gw, key_rows);
    }
    header(f, L, b->id, b->title, fr.h);
    if (b->series) bar_defs(f, b->id);
    y_axis(f, L, 0, top, step, L->mt, L->ph, b->ylabel);
#define PY(v) (L->mt + L->ph - ((v) > top ? top : (v)) / top * L->ph)
    if (b->bands) bands(f, L, b, gw);
    for (size_t g = 0; g < ng; g++) {
        bool mean = g >= ng - b->nmeans;
        double gx = L->ml + gw * ((double)g + (mean && b->nmeans < ng ? 0.6 : 0));
        if (mean && g == ng - b->nmeans && b->nmeans < ng)
            fprintf(f,
                    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" "
                    "stroke-dasharray=\"3 3\"/>\n",
                    gx - gw * 0.3, L->mt, gx - gw * 0.3, L->mt + L->ph);
        double inner = gw * (b->stacked || ns == 1 ? 0.7 : 0.84);
        double bw = b->stacked ? inner : inner / (double)ns;
        if (bw > 48) bw = 48, inner = b->stacked ? bw : bw * (double)ns; /* few groups */
        double x = gx + (gw - inner) / 2, base = 0;
        fprintf(f, "<g class=\"group\"><title>");
        xml_text(f, b->groups[g], 200);
        fprintf(f, "</title>\n");
        for (size_t s = 0; s < ns; s++) {
            double v = b->v[g * ns + s];
            double bx = b->stacked ? x : x + bw * (double)s;
            if (!isfinite(v)) continue;
            if (v < 0) v = 0;
            double y_hi = PY(base + v), y_lo = PY(base);
            fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" ", bx, y_hi, bw,
                    y_lo - y_hi);
            if (b->series)
                bar_fill(f, b->id, s);
            else
                fputs("fill=\"#555\"", f);
            fprintf(f, " stroke=\"#000\" stroke-width=\"%.1f\"/>\n", bw > 4 ? 0.6 : 0.2);
            if (!b->stacked && base + v > top) /* clipped: print the value */
                fprintf(f,
                        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                        "font-size=\"%.0f\">%.3g</text>\n",
                        bx + bw / 2, L->mt - 3, 9 * L->k, v);
            if (b->stacked) base += v;
        }
        fputs("</g>\n", f);
        if (g % fr.every && !mean) continue;
        category_label(f, L, &fr, gx + gw / 2, gw, shown[g]);
    }
    if (isfinite(b->ref) && b->ref <= top)
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" "
                "stroke-dasharray=\"6 3\" stroke-width=\"1.2\"/>\n",
                L->ml, PY(b->ref), L->w - L->mr, PY(b->ref));
#undef PY
    axes_box(f, L, L->mt, L->ph);
    text_at(f, L->ml + pw / 2, fr.xt, "middle", L->font, pw, NULL, b->xlabel);
    legend(f, L, b->id, 'b', b->series, b->series ? b->nseries : 0, fr.legend_y);
    if (nkey) key(f, L, (const char *const *)kshort, (const char *const *)kfull, nkey, fr.key_y);
    fputs("</svg>\n", f);
    wc_plot_labels_free(shortened, named);
    wc_plot_labels_free(kshort, nkey);
    wc_plot_labels_free(kfull, nkey);
    free(shown_v);
}

/* ---- lines ----------------------------------------------------------------- */

static bool usable(const wc_plot_lines *p, double x, double y)
{
    return isfinite(x) && isfinite(y) && (!p->xlog2 || x > 0);
}

void wc_plot_write_lines(FILE *f, const wc_plot_lines *p)
{
    layout lay = layout_of(p->style);
    const layout *L = &lay;
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (size_t k = 0; k < p->nseries; k++)
        for (size_t i = 0; i < p->series[k].n; i++) {
            double x = p->series[k].x[i], y = p->series[k].y[i];
            if (!usable(p, x, y)) continue;
            if (p->xlog2) x = log2(x);
            x0 = x < x0 ? x : x0, x1 = x > x1 ? x : x1;
            y0 = y < y0 ? y : y0, y1 = y > y1 ? y : y1;
        }
    if (!(x0 <= x1)) x0 = 0, x1 = 1;
    double xstep;
    if (p->xlog2) { /* whole powers of two, at most about 12 ticks */
        x0 = floor(x0), x1 = ceil(x1);
        if (x1 <= x0) x1 = x0 + 1;
        xstep = ceil((x1 - x0) / 12);
    } else {
        if (x1 <= x0) x1 = x0 + 1;
        xstep = wc_plot_nice_step(x1 - x0, 8);
        x0 = floor(x0 / xstep) * xstep, x1 = ceil(x1 / xstep - 1e-9) * xstep;
    }
    double ystep;
    if (p->ymin < p->ymax) {
        y0 = p->ymin, y1 = p->ymax;
        ystep = wc_plot_nice_step(y1 - y0, 5);
    } else {
        if (!(y0 <= y1)) y0 = 0, y1 = 1;
        if (y0 > 0) y0 = 0; /* ratios and counts read best from zero */
        y1 = round_top(y1 - y0, &ystep) + y0;
        y0 = floor(y0 / ystep) * ystep;
    }
    double pw = L->w - L->ml - L->mr;
    double tick_h = (p->xlog2 && p->line_bytes ? 32 : 18) * L->k;
    const char *labels[64];
    size_t nl = p->nseries < 64 ? p->nseries : 64;
    for (size_t k = 0; k < nl; k++) labels[k] = p->series[k].label;
    int rows = legend_rows(L, labels, nl);
    /* below the plot: ticks, the x title, the legend rows */
    double below = tick_h + 16 * L->k + 10 * L->k + rows * L->legend_h + (rows ? 8 * L->k : 0);
    lay.ph = fit_height(L, L->mt + L->ph + below);
    double xt = L->mt + L->ph + tick_h + 16 * L->k;
    double h = L->mt + L->ph + below;
    header(f, L, p->id, p->title, h);
    y_axis(f, L, y0, y1, ystep, L->mt, L->ph, p->ylabel);
#define PX(x) (L->ml + ((x)-x0) / (x1 - x0) * pw)
#define PY(y) (L->mt + L->ph - ((y)-y0) / (y1 - y0) * L->ph)
    for (int i = 0, nt = ticks(x0, x1, xstep); i <= nt; i++) {
        double x = x0 + xstep * i;
        char lab[32], bytes[32];
        if (p->xlog2)
            snprintf(lab, sizeof lab, "%.0f", exp2(x));
        else
            tick_label(x, xstep, x1, lab, sizeof lab);
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>\n"
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n"
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
                PX(x), L->mt, PX(x), L->mt + L->ph, PX(x), L->mt + L->ph, PX(x), L->mt + L->ph + 4,
                PX(x), L->mt + L->ph + 16 * L->k, lab);
        if (p->xlog2 && p->line_bytes) {
            wc_plot_bytes_label(exp2(x) * p->line_bytes, bytes, sizeof bytes);
            fprintf(f,
                    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"%.0f\" "
                    "fill=\"#444\">%s</text>\n",
                    PX(x), L->mt + L->ph + 30 * L->k, L->small, bytes);
        }
    }
    for (size_t k = 0; k < p->nseries; k++) {
        const wc_plot_series *s = &p->series[k];
        fprintf(f, "<g class=\"series\"><title>");
        xml_text(f, s->label, 200);
        fputs("</title>\n<polyline ", f);
        line_attrs(f, k);
        fputs(" points=\"", f);
        for (size_t i = 0; i < s->n; i++) {
            if (!usable(p, s->x[i], s->y[i])) continue;
            double x = p->xlog2 ? log2(s->x[i]) : s->x[i];
            fprintf(f, "%.1f,%.1f ", PX(x), PY(s->y[i]));
        }
        fputs("\"/>\n", f);
        size_t every = s->n > 40 ? (s->n + 39) / 40 : 1;
        for (size_t i = 0; i < s->n; i += every) {
            if (!usable(p, s->x[i], s->y[i])) continue;
            double x = p->xlog2 ? log2(s->x[i]) : s->x[i];
            marker(f, k, PX(x), PY(s->y[i]));
        }
        fputs("</g>\n", f);
    }
#undef PX
#undef PY
    axes_box(f, L, L->mt, L->ph);
    text_at(f, L->ml + pw / 2, xt, "middle", L->font, pw, NULL, p->xlabel);
    legend(f, L, p->id, 'l', labels, nl, xt + 24 * L->k);
    fputs("</svg>\n", f);
}

/* ---- timeline -------------------------------------------------------------- */

#define LANE_H   34.0
#define LANE_GAP 12.0

void wc_plot_write_timeline(FILE *f, const wc_plot_timeline *t)
{
    layout lay = layout_of(t->style);
    const layout *L = &lay;
    double xmax = t->xmax, xmin = 0;
    size_t maxc = 0;
    for (size_t k = 0; k < t->nlanes; k++) {
        const wc_plot_series *s = &t->lanes[k];
        if (s->n && s->x[s->n - 1] > xmax) xmax = s->x[s->n - 1];
        if (chars_of(s->label) > maxc) maxc = chars_of(s->label);
    }
    if (maxc > 28) maxc = 28;
    double ml = text_w(maxc, L->small) + 14, mr = 44 * L->k;
    if (ml < L->ml) ml = L->ml;
    double xstep = wc_plot_nice_step(xmax > 0 ? xmax : 1, 8);
    double x1 = ceil((xmax > 0 ? xmax : 1) / xstep - 1e-9) * xstep;
    double pw = L->w - ml - mr;
    double lane_h = LANE_H, gap = LANE_GAP * L->k;
    double ph = (double)t->nlanes * (lane_h + gap) + gap;
    double below = 48 * L->k;     /* the tick labels and the x title */
    if (L->height && t->nlanes) { /* the lanes take what the rest leaves of the height asked */
        double h_lanes = (double)L->height - L->mt - below - gap * (double)(t->nlanes + 1);
        lane_h = h_lanes / (double)t->nlanes;
        if (lane_h < 12) lane_h = 12;
        ph = (double)t->nlanes * (lane_h + gap) + gap;
    }
    double xt = L->mt + ph + 36 * L->k;
    double h = L->mt + ph + below;
    header(f, L, t->id, t->title, h);
#define PX(x) (ml + ((x)-xmin) / (x1 - xmin) * pw)
    for (int i = 0, nt = ticks(0, x1, xstep); i <= nt; i++) {
        double x = xstep * i;
        char lab[32];
        tick_label(x, xstep, x1, lab, sizeof lab);
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n"
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
                PX(x), L->mt, PX(x), L->mt + ph + 4, PX(x), L->mt + ph + 18 * L->k, lab);
    }
    for (size_t k = 0; k < t->nlanes; k++) {
        const wc_plot_series *s = &t->lanes[k];
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < s->n; i++) {
            lo = s->y[i] < lo ? s->y[i] : lo;
            hi = s->y[i] > hi ? s->y[i] : hi;
        }
        if (lo > 0 && lo <= 1 && hi <= 1) lo = 0; /* an on/off lane that never turned off */
        if (!(lo < hi)) hi = (isfinite(lo) ? lo : 0) + 1, lo = hi - 1;
        double top = L->mt + gap + (double)k * (lane_h + gap), base = top + lane_h;
#define LY(v) (base - ((v)-lo) / (hi - lo) * lane_h)
        fprintf(f, "<g class=\"lane\"><title>");
        xml_text(f, s->label, 200);
        fputs("</title>\n", f);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\"/>\n", ml,
                base, ml + pw, base);
        text_at(f, ml - 6, top + lane_h / 2 + 4 * L->k, "end", L->small, ml - 8, NULL, s->label);
        char a[32], b[32];
        snprintf(a, sizeof a, "%.4g", lo);
        snprintf(b, sizeof b, "%.4g", hi);
        fprintf(f,
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\" fill=\"#444\">%s</text>\n"
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\" fill=\"#444\">%s</text>\n",
                ml + pw + 4, base, 9 * L->k, a, ml + pw + 4, top + 8 * L->k, 9 * L->k, b);
        if (s->n) { /* an area under the step function, from the first change on */
            fprintf(f, "<path d=\"M%.2f %.2f", PX(s->x[0]), base);
            for (size_t i = 0; i < s->n; i++) {
                double xe = i + 1 < s->n ? s->x[i + 1] : x1 < xmax ? x1 : xmax;
                fprintf(f, "V%.2fH%.2f", LY(s->y[i]), PX(xe));
            }
            fprintf(f, "V%.2fZ\" fill=\"#ccc\" stroke=\"#000\" stroke-width=\"1.2\"/>\n", base);
        }
        fputs("</g>\n", f);
#undef LY
    }
#undef PX
    fprintf(f, "<path d=\"M%.1f %.1fV%.1fH%.1f\" stroke=\"#000\" fill=\"none\"/>\n", ml, L->mt,
            L->mt + ph, ml + pw);
    text_at(f, ml + pw / 2, xt, "middle", L->font, pw, NULL, t->xlabel);
    fputs("</svg>\n", f);
}
