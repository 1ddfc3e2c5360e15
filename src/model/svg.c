/*
 * svg.c - a tiny SVG line-plot writer (miss-ratio curves of `warpcache mrc`):
 * one or more series on linear or log2 x axes, ticks, a legend.  No
 * dependencies; the output opens in any browser.
 */
#include <math.h>
#include <string.h>

#include "warpcache/model.h"

#define W  640.0
#define H  400.0
#define ML 70.0 /* margins */
#define MR 160.0
#define MT 40.0
#define MB 50.0

static const char *const colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                      "#9467bd", "#8c564b", "#e377c2", "#17becf"};

static void xml_text(FILE *f, const char *s)
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

static double xval(const wc_svg_plot *p, double x)
{
    return p->xlog2 ? log2(x > 0 ? x : 1e-300) : x;
}

void wc_svg_write_lines(const wc_svg_plot *p, const wc_svg_series *s, size_t n, FILE *f)
{
    double x0 = INFINITY, x1 = -INFINITY, y0 = p->ymin, y1 = p->ymax;
    bool auto_y = p->ymin == p->ymax;
    if (auto_y) y0 = INFINITY, y1 = -INFINITY;
    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; i < s[k].n; i++) {
            if (p->xlog2 && s[k].x[i] <= 0) continue;
            double x = xval(p, s[k].x[i]);
            if (x < x0) x0 = x;
            if (x > x1) x1 = x;
            if (auto_y && s[k].y[i] < y0) y0 = s[k].y[i];
            if (auto_y && s[k].y[i] > y1) y1 = s[k].y[i];
        }
    if (!(x0 < x1)) x0 = isfinite(x0) ? x0 - 1 : 0, x1 = x0 + 2;
    if (!(y0 < y1)) y0 = isfinite(y0) ? y0 - 1 : 0, y1 = y0 + 2;
    double pw = W - ML - MR, ph = H - MT - MB;
#define PX(x) (ML + ((x)-x0) / (x1 - x0) * pw)
#define PY(y) (MT + ph - ((y)-y0) / (y1 - y0) * ph)
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "font-family=\"sans-serif\" font-size=\"12\">\n",
            W, H);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(f, "<text x=\"%.1f\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">", ML + pw / 2);
    xml_text(f, p->title);
    fprintf(f, "</text>\n");
    /* axes and ticks */
    fprintf(f, "<path d=\"M%.1f %.1fV%.1fH%.1f\" stroke=\"black\" fill=\"none\"/>\n", ML, MT,
            MT + ph, ML + pw);
    for (int i = 0; i <= 5; i++) {
        double y = y0 + (y1 - y0) * i / 5;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", ML,
                PY(y), ML + pw, PY(y));
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.3g</text>\n", ML - 6,
                PY(y) + 4, y);
    }
    int nt = p->xlog2 ? (int)(x1 - x0) : 5;
    if (nt < 1) nt = 1;
    int step = nt > 12 ? (nt + 11) / 12 : 1;
    for (int i = 0; i <= nt; i += step) {
        double x = x0 + (x1 - x0) * i / nt;
        double label = p->xlog2 ? exp2(x) : x;
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.4g</text>\n", PX(x),
                MT + ph + 16, label);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", ML + pw / 2, H - 12);
    xml_text(f, p->xlabel);
    fprintf(f,
            "</text>\n<text transform=\"translate(16 %.1f) rotate(-90)\" "
            "text-anchor=\"middle\">",
            MT + ph / 2);
    xml_text(f, p->ylabel);
    fprintf(f, "</text>\n");
    /* series */
    for (size_t k = 0; k < n; k++) {
        const char *col = colours[k % (sizeof colours / sizeof colours[0])];
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", col);
        for (size_t i = 0; i < s[k].n; i++) {
            if (p->xlog2 && s[k].x[i] <= 0) continue;
            fprintf(f, "%.1f,%.1f ", PX(xval(p, s[k].x[i])), PY(s[k].y[i]));
        }
        fprintf(f, "\"/>\n");
        double ly = MT + 14 + 18.0 * (double)k;
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                "stroke-width=\"2\"/>\n",
                ML + pw + 12, ly, ML + pw + 32, ly, col);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", ML + pw + 38, ly + 4);
        xml_text(f, s[k].label);
        fprintf(f, "</text>\n");
    }
    fprintf(f, "</svg>\n");
#undef PX
#undef PY
}
