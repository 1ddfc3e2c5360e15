/*
 * metrics.h - the one list of reported metrics.  The JSON, CSV and text
 * writers all walk this table, so a metric is named once: its dotted key is
 * its JSON path (below "kernels[i]" / "totals") and its CSV column.
 */
#ifndef WC_REPORT_METRICS_H
#define WC_REPORT_METRICS_H

#include "warpcache/stats.h"

typedef struct wc_metric {
    const char *key;   /* "l1.reservation_fails.line_alloc" */
    const char *label; /* text-table label */
    bool is_float;
    double (*get)(const wc_kstats *k);
} wc_metric;

const wc_metric *wc_metrics(size_t *count);
/* The reuse-distance metrics of -l1_rd_hist, written after the others by
 * runs whose statistics have rd_on (the default output is unchanged). */
const wc_metric *wc_rd_metrics(size_t *count);

#endif
