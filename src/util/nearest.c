/*
 * nearest.c - edit distance and the nearest candidate name (nearest.h).
 */
#include <string.h>

#include "util/nearest.h"

#define MAX_NAME 128

/* A swap is one typo ("cat" for "cta"), so it costs one edit, not two. */
unsigned wc_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la >= MAX_NAME || lb >= MAX_NAME) return MAX_NAME;
    unsigned d[3][MAX_NAME + 1]; /* rows i-2, i-1 and i of the table, in turn */
    for (size_t j = 0; j <= lb; j++) d[0][j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++) {
        unsigned *cur = d[i % 3], *up = d[(i - 1) % 3], *up2 = d[(i + 1) % 3];
        cur[0] = (unsigned)i;
        for (size_t j = 1; j <= lb; j++) {
            unsigned best = up[j - 1] + (a[i - 1] != b[j - 1]);
            if (up[j] + 1 < best) best = up[j] + 1;
            if (cur[j - 1] + 1 < best) best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                up2[j - 2] + 1 < best)
                best = up2[j - 2] + 1;
            cur[j] = best;
        }
    }
    return d[la % 3][lb];
}

void wc_nearest_init(wc_nearest *n, const char *name)
{
    /* A third of the name, at least one and at most three edits: "l1" is no
     * typo of "l2", but "gpgpu_shader_cat" is one of "gpgpu_shader_cta". */
    size_t len = strlen(name);
    unsigned limit = len / 3 < 1 ? 1 : len / 3 > 3 ? 3 : (unsigned)(len / 3);
    n->name = name;
    n->best = NULL;
    n->dist = limit + 1;
}

void wc_nearest_consider(wc_nearest *n, const char *candidate)
{
    if (!candidate) return;
    unsigned d = wc_edit_distance(n->name, candidate);
    if (d < n->dist) {
        n->dist = d;
        n->best = candidate;
    }
}

const char *wc_nearest_best(const wc_nearest *n)
{
    return n->best && n->dist > 0 ? n->best : NULL;
}
