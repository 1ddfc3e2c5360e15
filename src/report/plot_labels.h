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
 *   3. When a label is still longer than max characters, the workload
 *      parts are numbered "1", "2", ... (one number per workload, in order
 *      of appearance) and the kernels kept: "3 [gramschmidt_kernel1]".
 * The result depends only on the names (deterministic figures).
 */
#ifndef WC_REPORT_PLOT_LABELS_H
#define WC_REPORT_PLOT_LABELS_H

#include <stddef.h>

/* The n short labels of full[0..n) (malloc'd strings in a malloc'd array),
 * or NULL when out of memory.  Free with wc_plot_labels_free. */
char **wc_plot_labels_shorten(const char *const *full, size_t n, size_t max);
void wc_plot_labels_free(char **labels, size_t n);

/* The entries of the key for short labels shown[0..n) of full[0..n): the
 * pairs (short, full) in order, once each; a " [kernel]" that ends both is
 * left out of both ("1 [k1]" for "atax [k1]" and "1 [k2]" for "atax [k2]"
 * make one entry "1 atax").  malloc'd strings into keys[] and names[] (n
 * each); returns their number, or 0 when out of memory (freed). */
size_t wc_plot_labels_key(const char *const *shown, const char *const *full, size_t n, char **keys,
                          char **names);

#endif
