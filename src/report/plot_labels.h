/*
 * plot_labels.h - short category labels for bar charts (svg_plot.c): when
 * long names ("polybench/atax:scale=0.125 [kernel]") would be drawn
 * vertically and cut, the plot shows only what tells them apart and a key
 * maps every short label to its full name.
 *
 *   1. The part every name shares at its start or end is left out, cut at
 *      a separator ('/', ':', ',', '=', ' '), never leaving a name empty.
 *   2. A trailing " [kernel]" is never shortened: it is what tells the
 *      kernels of one workload apart (validate, per-kernel compare); when
 *      every name has the same workload part, the label is the kernel.
 *   3. Labels still longer than max characters are numbered "1", "2", ...
 *      (with the kernel when "N [kernel]" fits).
 * The result depends only on the names (deterministic figures).
 */
#ifndef WC_REPORT_PLOT_LABELS_H
#define WC_REPORT_PLOT_LABELS_H

#include <stddef.h>

/* The n short labels of full[0..n) (malloc'd strings in a malloc'd array),
 * or NULL when out of memory.  Free with wc_plot_labels_free. */
char **wc_plot_labels_shorten(const char *const *full, size_t n, size_t max);
void wc_plot_labels_free(char **labels, size_t n);

#endif
