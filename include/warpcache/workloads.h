/*
 * workloads.h - built-in benchmark kernels as instruction sources.
 *
 * A workload is named "suite/name" ("micro/stream", "polybench/atax") and
 * takes parameters after a colon: "micro/stride:stride=8,n=65536".  Opening
 * one yields a wc_source that generates the kernel's warp instructions on
 * demand (nothing is materialised).  The registry (src/workloads/registry.c)
 * maps names to descriptors; a new workload is one file and one registry line.
 */
#ifndef WARPCACHE_WORKLOADS_H
#define WARPCACHE_WORKLOADS_H

#include "warpcache/plugin.h"
#include "warpcache/trace.h"

#define WC_MAX_PARAMS 16

/* A parameter a workload reads, with its default and range (recorded by
 * wc_workload_params, for `warpcache list WORKLOAD`). */
typedef struct wc_param_info {
    char key[32];
    bool is_float;
    uint64_t def, min, max;  /* integers */
    double fdef, fmin, fmax; /* is_float */
} wc_param_info;
#define WC_MAX_PARAM_INFO 32
typedef struct wc_param_log {
    wc_param_info v[WC_MAX_PARAM_INFO];
    unsigned n;
} wc_param_log;

/* "key=value,key=value" parameters; each must be consumed by the workload. */
typedef struct wc_params {
    unsigned n;
    struct {
        char key[32];
        char val[96];
        bool used;
    } kv[WC_MAX_PARAMS];
    char workload[128]; /* for messages */
    wc_param_log *log;  /* when set, every parameter read is recorded here */
} wc_params;

int wc_params_parse(const char *text, const char *workload, wc_params *p, wc_err *err);
/* Reads an unsigned parameter in [min, max]; absent -> def. */
int wc_params_u64(wc_params *p, const char *key, uint64_t def, uint64_t min, uint64_t max,
                  uint64_t *out, wc_err *err);
int wc_params_f64(wc_params *p, const char *key, double def, double min, double max, double *out,
                  wc_err *err);
/* Error if a parameter was given that the workload does not know. */
int wc_params_check_unused(const wc_params *p, wc_err *err);

typedef struct wc_workload {
    const char *name;    /* "micro/stream" */
    const char *suite;   /* "micro", "polybench", "rodinia", "parboil", "lonestar", "seed", "sdk",
                            "shoc",   "ispass", "mars" */
    const char *kernels; /* kernels in launch order, human readable */
    const char *size;    /* default problem size, human readable */
    const char *classes; /* the seeds' class labels, e.g. "002:streaming 004:CI" */
    const char *help;    /* one line, plus parameters */
    wc_source *(*open)(wc_params *p, uint64_t seed, wc_err *err);
} wc_workload;

const wc_workload *const *wc_workload_list(size_t *count);
const wc_workload *wc_workload_find(const char *name);
/* The workload or suite name nearest to a misspelt `name` (no parameters):
 * false when none is close. */
bool wc_workload_suggest(const char *name, char *buf, size_t n);
/* The same, with `also` (n_also names, e.g. a command's own words) among the
 * candidates. */
bool wc_workload_suggest_with(const char *name, const char *const *also, size_t n_also, char *buf,
                              size_t n);
/* The first workload of suite `suite` ("polybench"), or NULL when no suite
 * is called so. */
const wc_workload *wc_workload_suite_member(const char *suite);
/* The parameters workload w reads when opened with none given (defaults
 * and ranges), in the order it reads them.  -1 when it cannot be opened. */
int wc_workload_params(const wc_workload *w, wc_param_log *log, wc_err *err);
/* Opens "name[:k=v,...]". */
wc_source *wc_workload_open(const char *spec, uint64_t seed, wc_err *err);

#endif
