/*
 * nearest.h - the "did you mean" of a misspelt name: the closest of a set of
 * candidates by edit distance.  One helper for every place a name can be
 * mistyped (configuration options, command-line options, workloads, suites,
 * designs, metrics), so they all judge a typo the same way.
 */
#ifndef WC_UTIL_NEAREST_H
#define WC_UTIL_NEAREST_H

#include <stddef.h>

/* Edits (insert, delete, substitute, swap two neighbours) from a to b. */
unsigned wc_edit_distance(const char *a, const char *b);

/* The search for the candidate nearest to `name`: feed every candidate to
 * wc_nearest_consider, then read wc_nearest_best. */
typedef struct wc_nearest {
    const char *name;
    const char *best; /* NULL until a candidate within the limit is seen */
    unsigned dist;    /* edits to best (limit + 1 while there is none) */
} wc_nearest;

void wc_nearest_init(wc_nearest *n, const char *name);
void wc_nearest_consider(wc_nearest *n, const char *candidate);
/* The nearest candidate that is a likely typo of the name, NULL if none is
 * (or if the name is itself a candidate). */
const char *wc_nearest_best(const wc_nearest *n);

#endif
