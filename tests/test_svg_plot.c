/*
 * test_svg_plot.c - the plotting module (src/report/svg_plot.c): round tick
 * steps, power-of-two size ticks in lines and bytes (the old mrc plot read
 * 2.039, 4.156 ...), the legend inside the canvas, bar geometry, missing
 * values, escaping.  Every figure is written to memory and searched.
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "report/svg_plot.h"

/* The SVG of a writer call, NUL-terminated (freed by the caller). */
#define CAPTURE(buf, call)                                                                         \
    do {                                                                                           \
        size_t len_;                                                                               \
        FILE *f = open_memstream(&(buf), &len_);                                                   \
        call;                                                                                      \
        fclose(f);                                                                                 \
    } while (0)

static size_t count(const char *s, const char *needle)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p++) n++;
    return n;
}

/* The value of the first attribute `name="..."` after `from`. */
static double attr(const char *from, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, " %s=\"", name);
    const char *p = strstr(from, key);
    return p ? atof(p + strlen(key)) : NAN;
}

static void test_nice_step(void)
{
    /* raw = range / want; the step is the next of 1, 2, 5 x 10^k at or above it */
    CHECK(wc_plot_nice_step(1, 5) == 0.2);                 /* raw 0.2 */
    CHECK(wc_plot_nice_step(47, 6) == 10);                 /* raw 7.83 -> 10 */
    CHECK(fabs(wc_plot_nice_step(0.95, 6) - 0.2) < 1e-12); /* raw 0.158 -> 0.2 */
    CHECK(wc_plot_nice_step(48000, 8) == 10000);           /* raw 6000 -> 10000 */
    CHECK(wc_plot_nice_step(30, 6) == 5);                  /* raw 5 exactly */
    CHECK(wc_plot_nice_step(0, 6) == 1);                   /* degenerate */
}

static void test_bytes_label(void)
{
    char b[32];
    wc_plot_bytes_label(128, b, sizeof b);
    CHECK(strcmp(b, "128 B") == 0);
    wc_plot_bytes_label(8192, b, sizeof b);
    CHECK(strcmp(b, "8 KB") == 0);
    wc_plot_bytes_label(1536, b, sizeof b);
    CHECK(strcmp(b, "1.5 KB") == 0);
    wc_plot_bytes_label(1 << 20, b, sizeof b);
    CHECK(strcmp(b, "1 MB") == 0);
}

/* An mrc-like curve at sizes 1, 2, 3, 4, 6, ... 64 lines of 128 B: ticks
 * at the powers of two 1 .. 64 only, each also in bytes (64 x 128 B = 8 KB). */
static void test_log2_ticks_and_legend(void)
{
    static const double x[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64};
    double y[12];
    for (int i = 0; i < 12; i++) y[i] = 1.0 - i / 12.0;
    wc_plot_series s[3] = {{"fully associative LRU", x, y, 12},
                           {"32 sets (H index), size = sets x ways, a long label", x, y, 12},
                           {"a<b&c", x, y, 12}};
    wc_plot_lines p = {.id = "t",
                       .title = "MRC",
                       .xlabel = "size",
                       .ylabel = "miss ratio",
                       .xlog2 = true,
                       .line_bytes = 128,
                       .ymin = 0,
                       .ymax = 1,
                       .series = s,
                       .nseries = 3};
    char *svg = NULL;
    CAPTURE(svg, wc_plot_write_lines(f, &p));
    CHECK(svg != NULL);
    if (!svg) return;
    static const char *const want[] = {">1</text>",    ">2</text>",     ">4</text>",
                                       ">8</text>",    ">16</text>",    ">32</text>",
                                       ">64</text>",   ">128 B</text>", ">1 KB</text>",
                                       ">8 KB</text>", ">0.0</text>",   ">1.0</text>"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        if (!strstr(svg, want[i])) fprintf(stderr, "missing %s\n", want[i]);
        CHECK(strstr(svg, want[i]) != NULL);
    }
    CHECK(strstr(svg, ">3</text>") == NULL);   /* sizes that are not powers of two: no tick */
    CHECK(strstr(svg, ">128</text>") == NULL); /* nothing beyond the data's 64 */
    CHECK(strstr(svg, "a&lt;b&amp;c") != NULL);
    CHECK(attr(svg, "width") <= 900);
    /* the legend: below the plot (y > 46 + 300) and inside the canvas */
    double h = attr(svg, "height");
    const char *lg = strstr(svg, "<g class=\"legend\">");
    CHECK(lg != NULL);
    for (const char *t = lg; t && (t = strstr(t, "<text ")); t++) {
        double ty = attr(t, "y");
        CHECK(ty > 346 && ty < h);
        double tx = attr(t, "x");
        CHECK(tx >= 0 && tx < 800);
    }
    CHECK_EQ(count(lg, "<text "), 3);
    free(svg);
}

/* Stacked bars, top fixed at 100 over the 300 px plot: 25 and 75 become
 * 75 px and 225 px tall; the next group's NaN draws nothing. */
static void test_stacked_bars(void)
{
    const char *groups[] = {"one", "two"};
    const char *series[] = {"low", "high"};
    double v[] = {25, 75, NAN, NAN};
    wc_plot_bars b = {.id = "s",
                      .title = "stack",
                      .xlabel = "x",
                      .ylabel = "%",
                      .groups = groups,
                      .ngroups = 2,
                      .series = series,
                      .nseries = 2,
                      .v = v,
                      .ref = NAN,
                      .stacked = true,
                      .ymax = 100};
    char *svg = NULL;
    CAPTURE(svg, wc_plot_write_bars(f, &b));
    CHECK(svg != NULL);
    if (!svg) return;
    CHECK(strstr(svg, "height=\"75.00\"") != NULL);
    CHECK(strstr(svg, "height=\"225.00\"") != NULL);
    /* bars are the rects with two-decimal coordinates: exactly the two of "one" */
    CHECK_EQ(count(svg, "<rect x=\"") - count(svg, "width=\"22\""), 2);
    /* the hatch patterns the series use are defined, with the figure's id */
    CHECK(strstr(svg, "<pattern id=\"s-p1\"") != NULL);
    CHECK(strstr(svg, "url(#s-p1)") != NULL);
    free(svg);
}

/* Grouped bars with a mean group and a reference line at 1: the top is the
 * round value above 2.3 (step 0.5 for about 6 ticks: 2.5). */
static void test_grouped_bars_means(void)
{
    const char *groups[] = {"polybench/atax:scale=0.125", "b", "GM all (2)"};
    const char *series[] = {"base", "other"};
    double v[] = {1, 2.3, 1, 0.5, 1, 1.07};
    wc_plot_bars b = {.id = "g",
                      .title = "t",
                      .xlabel = "x",
                      .ylabel = "y",
                      .groups = groups,
                      .ngroups = 3,
                      .nmeans = 1,
                      .series = series,
                      .nseries = 2,
                      .v = v,
                      .ref = 1.0};
    char *svg = NULL;
    CAPTURE(svg, wc_plot_write_bars(f, &b));
    CHECK(svg != NULL);
    if (!svg) return;
    CHECK(strstr(svg, ">2.5</text>") != NULL);
    CHECK(strstr(svg, ">3.0</text>") == NULL);
    CHECK(strstr(svg, "stroke-dasharray=\"3 3\"") != NULL); /* the means' separator */
    CHECK(strstr(svg, "stroke-dasharray=\"6 3\"") != NULL); /* the line at 1 */
    CHECK_EQ(count(svg, "<g class=\"group\">"), 3);
    CHECK(strstr(svg, "class=\"band\"") == NULL); /* no bands asked for */
    free(svg);
}

/* Class bands over 4 groups + 1 mean: classes IW, IW, XW, "" -> two
 * dotted separators (before XW and before the unnamed class), two names;
 * the mean group is in no band. */
static void test_bands(void)
{
    const char *groups[] = {"a", "b", "c", "d", "GM"};
    const char *bands[] = {"IW", "IW", "XW", "", NULL};
    double v[] = {1, 2, 3, 4, 5};
    wc_plot_bars b = {.id = "b",
                      .title = "t",
                      .xlabel = "x",
                      .ylabel = "y",
                      .groups = groups,
                      .ngroups = 5,
                      .nmeans = 1,
                      .bands = bands,
                      .v = v,
                      .ref = NAN};
    char *svg = NULL;
    CAPTURE(svg, wc_plot_write_bars(f, &b));
    CHECK(svg != NULL);
    if (!svg) return;
    CHECK_EQ(count(svg, "stroke-dasharray=\"1 2\""), 2);
    CHECK_EQ(count(svg, "class=\"band\""), 2);
    CHECK(strstr(svg, "class=\"band\">IW</text>") != NULL);
    CHECK(strstr(svg, "class=\"band\">XW</text>") != NULL);
    free(svg);
}

/* A timeline lane 0 -> 1 at cycle 100 -> 0 at 300, run of 400 cycles.
 * Left margin: "l1_bypass SM 0" is 14 characters x 11 px x 0.6 + 14 =
 * 106.4; plot width 800 - 106.4 - 44 = 649.6; x step 50 ends at 400.
 * Cycle 100 is at 106.4 + 649.6 / 4 = 268.8, cycle 300 at 593.6. */
static void test_timeline(void)
{
    static const double x[] = {0, 100, 300}, y[] = {0, 1, 0};
    wc_plot_series lane = {"l1_bypass SM 0", x, y, 3};
    wc_plot_timeline t = {
        .id = "tl", .title = "T", .xlabel = "cycle", .lanes = &lane, .nlanes = 1, .xmax = 400};
    char *svg = NULL;
    CAPTURE(svg, wc_plot_write_timeline(f, &t));
    CHECK(svg != NULL);
    if (!svg) return;
    CHECK(strstr(svg, "H268.80") != NULL);
    CHECK(strstr(svg, "H593.60") != NULL);
    CHECK(strstr(svg, ">l1_bypass SM 0</text>") != NULL);
    CHECK(strstr(svg, ">400</text>") != NULL);
    free(svg);
}

/* Cycles to 15000: step 2000 (raw 1875), axis to 16000 >= 10000, so every
 * label is in thousands - "2k" ... "16k", never "8000" beside "10k". */
static void test_axis_units(void)
{
    static const double x[] = {0, 15000}, y[] = {1, 2};
    wc_plot_series lane = {"swl limit", x, y, 2};
    wc_plot_timeline t = {
        .id = "u", .title = "T", .xlabel = "cycle", .lanes = &lane, .nlanes = 1, .xmax = 15000};
    char *svg = NULL;
    CAPTURE(svg, wc_plot_write_timeline(f, &t));
    CHECK(svg != NULL);
    if (!svg) return;
    CHECK(strstr(svg, ">0</text>") != NULL);
    CHECK(strstr(svg, ">2k</text>") != NULL);
    CHECK(strstr(svg, ">8k</text>") != NULL);
    CHECK(strstr(svg, ">16k</text>") != NULL);
    CHECK(strstr(svg, ">8000</text>") == NULL);
    free(svg);
}

int main(void)
{
    RUN(test_nice_step);
    RUN(test_bytes_label);
    RUN(test_log2_ticks_and_legend);
    RUN(test_stacked_bars);
    RUN(test_grouped_bars_means);
    RUN(test_bands);
    RUN(test_timeline);
    RUN(test_axis_units);
    return check_summary("svg_plot");
}
