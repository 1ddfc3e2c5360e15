/*
 * registry.c - every built-in workload by name.  Adding a workload: define a
 * `const wc_workload` in its own file and add it to the list below.
 */
#include <stdio.h>
#include <string.h>

#include "util/nearest.h"
#include "warpcache/workloads.h"

extern const wc_workload wc_wl_micro_stream, wc_wl_micro_stride, wc_wl_micro_colcopy;
/* polybench */
extern const wc_workload wc_wl_pb_atax, wc_wl_pb_bicg, wc_wl_pb_gesummv, wc_wl_pb_mvt,
    wc_wl_pb_syrk, wc_wl_pb_syr2k, wc_wl_pb_gemm, wc_wl_pb_2mm, wc_wl_pb_3mm, wc_wl_pb_2dconv,
    wc_wl_pb_3dconv, wc_wl_pb_fdtd2d, wc_wl_pb_correlation, wc_wl_pb_covariance,
    wc_wl_pb_gramschmidt, wc_wl_pb_lu, wc_wl_pb_jacobi2d, wc_wl_pb_doitgen, wc_wl_pb_gemver,
    wc_wl_pb_adi;
/* seed micro-benchmarks */
extern const wc_workload wc_wl_seed_assoc, wc_wl_seed_assoc_stride, wc_wl_seed_mshr,
    wc_wl_seed_atax_col, wc_wl_seed_srad_preload, wc_wl_seed_syrk_conflict;
/* rodinia */
extern const wc_workload wc_wl_rodinia_kmeans;
extern const wc_workload wc_wl_rodinia_bfs;
extern const wc_workload wc_wl_rodinia_hotspot;
extern const wc_workload wc_wl_rodinia_srad_v1;
extern const wc_workload wc_wl_rodinia_srad_v2;
extern const wc_workload wc_wl_rodinia_nw;
extern const wc_workload wc_wl_rodinia_pathfinder;
extern const wc_workload wc_wl_rodinia_backprop;
extern const wc_workload wc_wl_rodinia_gaussian;
extern const wc_workload wc_wl_rodinia_lud;
extern const wc_workload wc_wl_rodinia_streamcluster;
extern const wc_workload wc_wl_rodinia_particlefilter;
extern const wc_workload wc_wl_rodinia_bptree;
extern const wc_workload wc_wl_rodinia_cfd;
extern const wc_workload wc_wl_rodinia_leukocyte;
extern const wc_workload wc_wl_rodinia_heartwall;
extern const wc_workload wc_wl_rodinia_myocyte;
/* parboil */
extern const wc_workload wc_wl_parboil_spmv;
extern const wc_workload wc_wl_parboil_stencil;
extern const wc_workload wc_wl_parboil_histo;
extern const wc_workload wc_wl_parboil_mri_gridding;
extern const wc_workload wc_wl_parboil_sgemm;
extern const wc_workload wc_wl_parboil_lbm;
extern const wc_workload wc_wl_parboil_cutcp;
/* lonestar */
extern const wc_workload wc_wl_lonestar_sssp;
extern const wc_workload wc_wl_lonestar_bh;
/* seed 001's CUDA SDK and SHOC kernels */
extern const wc_workload wc_wl_sdk_matrixmul;
extern const wc_workload wc_wl_shoc_fft;
/* seed 002's CUDA SDK, GPGPU-Sim (ISPASS 2009), Mars and Rodinia hotspot3D kernels */
extern const wc_workload wc_wl_sdk_blackscholes;
extern const wc_workload wc_wl_sdk_scalarprod;
extern const wc_workload wc_wl_sdk_vectoradd;
extern const wc_workload wc_wl_sdk_fwt;
extern const wc_workload wc_wl_sdk_convsep;
extern const wc_workload wc_wl_sdk_mcpi;
extern const wc_workload wc_wl_ispass_nn;
extern const wc_workload wc_wl_mars_invertedindex;
extern const wc_workload wc_wl_rodinia_hotspot3d;

/* One entry per line (merges stay trivial); clang-format would pack them. */
// clang-format off
static const wc_workload *const workloads[] = {
    &wc_wl_micro_stream,
    &wc_wl_micro_stride,
    &wc_wl_micro_colcopy,
    /* polybench */
    &wc_wl_pb_atax,
    &wc_wl_pb_bicg,
    &wc_wl_pb_gesummv,
    &wc_wl_pb_mvt,
    &wc_wl_pb_syrk,
    &wc_wl_pb_syr2k,
    &wc_wl_pb_gemm,
    &wc_wl_pb_2mm,
    &wc_wl_pb_3mm,
    &wc_wl_pb_2dconv,
    &wc_wl_pb_3dconv,
    &wc_wl_pb_fdtd2d,
    &wc_wl_pb_correlation,
    &wc_wl_pb_covariance,
    &wc_wl_pb_gramschmidt,
    &wc_wl_pb_lu,
    &wc_wl_pb_jacobi2d,
    &wc_wl_pb_doitgen,
    &wc_wl_pb_gemver,
    &wc_wl_pb_adi,
    /* seed micro-benchmarks */
    &wc_wl_seed_assoc,
    &wc_wl_seed_assoc_stride,
    &wc_wl_seed_mshr,
    &wc_wl_seed_atax_col,
    &wc_wl_seed_srad_preload,
    &wc_wl_seed_syrk_conflict,
    /* rodinia */
    &wc_wl_rodinia_kmeans,
    &wc_wl_rodinia_bfs,
    &wc_wl_rodinia_hotspot,
    &wc_wl_rodinia_srad_v1,
    &wc_wl_rodinia_srad_v2,
    &wc_wl_rodinia_nw,
    &wc_wl_rodinia_pathfinder,
    &wc_wl_rodinia_backprop,
    &wc_wl_rodinia_gaussian,
    &wc_wl_rodinia_lud,
    &wc_wl_rodinia_streamcluster,
    &wc_wl_rodinia_particlefilter,
    &wc_wl_rodinia_bptree,
    &wc_wl_rodinia_cfd,
    &wc_wl_rodinia_leukocyte,
    &wc_wl_rodinia_heartwall,
    &wc_wl_rodinia_myocyte,
    /* parboil */
    &wc_wl_parboil_spmv,
    &wc_wl_parboil_stencil,
    &wc_wl_parboil_histo,
    &wc_wl_parboil_mri_gridding,
    &wc_wl_parboil_sgemm,
    &wc_wl_parboil_lbm,
    &wc_wl_parboil_cutcp,
    /* lonestar */
    &wc_wl_lonestar_sssp,
    &wc_wl_lonestar_bh,
    /* seed 001's CUDA SDK and SHOC kernels */
    &wc_wl_sdk_matrixmul,
    &wc_wl_shoc_fft,
    /* seed 002's CUDA SDK, GPGPU-Sim (ISPASS 2009), Mars and Rodinia hotspot3D kernels */
    &wc_wl_sdk_blackscholes,
    &wc_wl_sdk_scalarprod,
    &wc_wl_sdk_vectoradd,
    &wc_wl_sdk_fwt,
    &wc_wl_sdk_convsep,
    &wc_wl_sdk_mcpi,
    &wc_wl_ispass_nn,
    &wc_wl_mars_invertedindex,
    &wc_wl_rodinia_hotspot3d,
};
// clang-format on

const wc_workload *const *wc_workload_list(size_t *count)
{
    *count = sizeof workloads / sizeof workloads[0];
    return workloads;
}

const wc_workload *wc_workload_find(const char *name)
{
    size_t n;
    const wc_workload *const *all = wc_workload_list(&n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(all[i]->name, name) == 0) return all[i];
    /* Unambiguous short names: "atax" for "polybench/atax". */
    const wc_workload *hit = NULL;
    for (size_t i = 0; i < n; i++) {
        const char *slash = strchr(all[i]->name, '/');
        if (slash && strcmp(slash + 1, name) == 0) {
            if (hit) return NULL;
            hit = all[i];
        }
    }
    return hit;
}

bool wc_workload_suggest(const char *name, char *buf, size_t n)
{
    return wc_workload_suggest_with(name, NULL, 0, buf, n);
}

bool wc_workload_suggest_with(const char *name, const char *const *also, size_t n_also, char *buf,
                              size_t n)
{
    size_t count;
    const wc_workload *const *all = wc_workload_list(&count);
    wc_nearest best;
    wc_nearest_init(&best, name);
    for (size_t i = 0; i < n_also; i++) wc_nearest_consider(&best, also[i]);
    /* full names, the short names wc_workload_find takes, and suites */
    for (size_t i = 0; i < count; i++) {
        const char *slash = strchr(all[i]->name, '/');
        wc_nearest_consider(&best, all[i]->name);
        if (slash && !strchr(name, '/')) wc_nearest_consider(&best, slash + 1);
        wc_nearest_consider(&best, all[i]->suite);
    }
    const char *near = wc_nearest_best(&best);
    if (!near || !n) return false;
    /* a short name is shown as the full one it stands for */
    const wc_workload *w = wc_workload_find(near);
    snprintf(buf, n, "%s", w ? w->name : near);
    return true;
}

const wc_workload *wc_workload_suite_member(const char *name)
{
    size_t count;
    const wc_workload *const *all = wc_workload_list(&count);
    for (size_t i = 0; i < count; i++)
        if (all[i]->suite && strcmp(all[i]->suite, name) == 0) return all[i];
    return NULL;
}

/* " (did you mean 'X'?" or "": the start of a message's parenthesis. */
static void did_you_mean(const char *name, char *buf, size_t n)
{
    char near[128];
    if (wc_workload_suggest(name, near, sizeof near))
        snprintf(buf, n, "did you mean '%s'? ", near);
    else
        buf[0] = 0;
}

int wc_workload_params(const wc_workload *w, wc_param_log *log, wc_err *err)
{
    wc_params p;
    memset(log, 0, sizeof *log);
    if (wc_params_parse("", w->name, &p, err) < 0) return -1;
    p.log = log;
    /* a workload reads its parameters when it is opened: open it and drop it */
    wc_source *src = w->open(&p, 1, err);
    if (!src) return -1;
    wc_source_destroy(src);
    return 0;
}

wc_source *wc_workload_open(const char *spec, uint64_t seed, wc_err *err)
{
    char name[128];
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    if (len >= sizeof name) {
        wc_errf(err, "workload name too long: %s", spec);
        return NULL;
    }
    memcpy(name, spec, len);
    name[len] = 0;
    const wc_workload *w = wc_workload_find(name);
    const wc_workload *member = w ? NULL : wc_workload_suite_member(name);
    if (member) {
        /* a suite where one workload is wanted (model, mrc, trace convert): say so */
        wc_errf(err,
                "'%s' is a suite, not one workload: name one of its members (e.g. %s), or give "
                "the suite to run, validate or compare, which run every member",
                name, member->name);
        return NULL;
    }
    if (!w) {
        char hint[160];
        did_you_mean(name, hint, sizeof hint);
        wc_errf(err, "unknown workload '%s' (%swarpcache list shows them)", name, hint);
        return NULL;
    }
    wc_params p;
    if (wc_params_parse(colon ? colon + 1 : "", w->name, &p, err) < 0) return NULL;
    wc_source *src = w->open(&p, seed, err);
    if (!src) return NULL;
    if (wc_params_check_unused(&p, err) < 0) {
        wc_source_destroy(src);
        return NULL;
    }
    return src;
}
