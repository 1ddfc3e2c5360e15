/*
 * results.h - what `sweep`, `merge` and `report` share about sweep results
 * files (results.c): reading one with bounds, the fields every line begins
 * with, the sweep identity, and the lock a sweep holds on its file.
 */
#ifndef WC_CLI_RESULTS_H
#define WC_CLI_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A results line is a few KB (the totals of one point); a file holds at
 * most 1000000 points.  Anything beyond these is not a results file. */
#define WC_RESULTS_MAX_LINE  ((size_t)1 << 20)   /* 1 MiB */
#define WC_RESULTS_MAX_BYTES ((uint64_t)4 << 30) /* 4 GiB */
/* The longest point key a line can carry (longer keys are refused up front
 * by sweep: a line's strings are read back into 4 KB). */
#define WC_RESULTS_MAX_KEY 4000
/* The sweep identity: 16 lowercase hex digits of a 64-bit FNV-1a hash. */
#define WC_SWEEP_ID_LEN 16

/* Reads a results file whole into a NUL-terminated buffer (free() it): a
 * regular file only (a folder, a pipe or a device is refused), at most
 * WC_RESULTS_MAX_BYTES, no line longer than WC_RESULTS_MAX_LINE.  NULL with
 * the error printed (exit 2); with `missing` given, a file that does not
 * exist sets *missing and prints nothing. */
char *wc_results_read(const char *path, size_t *len, bool *missing);

/* -1 with a message when path exists and is not a regular file. */
int wc_results_check_regular(const char *path);

/* The fields every sweep line begins with. */
typedef struct wc_results_head {
    char key[WC_RESULTS_MAX_KEY + 1];
    char sweep_id[WC_SWEEP_ID_LEN + 1];
    uint64_t point;
    bool has_schema, has_key, has_point, has_sweep_id;
} wc_results_head;

/* Scans one line (without its newline): 0 when it is a JSON object with
 * schema_version, a key of at most WC_RESULTS_MAX_KEY bytes and a point
 * index below 1000000 (sweep_id is optional here: has_sweep_id says, and
 * a present one is well formed), -1 otherwise. */
int wc_results_scan_head(const char *line, size_t len, wc_results_head *h);

/* 64-bit FNV-1a, continued from h (start with WC_FNV1A64_INIT). */
#define WC_FNV1A64_INIT 14695981039346656037ULL
uint64_t wc_fnv1a64(uint64_t h, const void *data, size_t n);

/* The lock a sweep holds on its results file while it runs: an exclusive
 * flock() on ".NAME.lock" beside the file, which the kernel releases when
 * the process ends in any way (kill -9 included), so it never goes stale. */
typedef struct wc_results_lock {
    int fd;
    int slot; /* the lock file in outfile.c's signal-cleanup registry */
    char path[4200];
} wc_results_lock;
/* Takes the lock, or fails with a message naming the holder: -1 (exit 2). */
int wc_results_lock_take(wc_results_lock *l, const char *results);
/* Removes the lock file and releases the lock (no-op when not held). */
void wc_results_lock_release(wc_results_lock *l);

#endif
