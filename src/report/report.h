/*
 * report.h - small output helpers shared by the report writers and the CLI.
 */
#ifndef WC_REPORT_REPORT_H
#define WC_REPORT_REPORT_H

#include <stdio.h>

#include "warpcache/common.h"
#include "warpcache/stats.h"

void wc_json_string(FILE *f, const char *s);
void wc_json_number(FILE *f, double v, bool is_float);
void wc_csv_field(FILE *f, const char *s);
/* The run's timeline member of its JSON object (timeline.c), or nothing. */
void wc_json_timeline(const wc_stats *st, FILE *f);

#endif
