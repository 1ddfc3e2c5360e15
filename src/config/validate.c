/*
 * validate.c - wc_config_validate: every option's own checks (the same
 * ones wc_config_set applies) plus the checks that span several options.
 * Messages read "SOURCE: option -NAME: reason", SOURCE being the file the
 * configuration came from, so a user knows what to edit.
 */
#include "config/config_internal.h"
#include "mem/addrdec.h"
#include "warpcache/control.h"
#include "warpcache/params.h"

/* Most SMs a configuration may describe.  The largest GPUs have about 150;
 * every simulated SM holds its L1, MSHRs and warp state (about 65 KB with the
 * defaults), so 4096 x 64 = 262144 SMs took 17 GB before simulating anything.
 * docs/config.md documents the limit. */
#define WC_CONFIG_MAX_SM 1024u

static int cross_checks(const wc_config *cfg, const char *src, wc_err *err)
{
    uint32_t warps = cfg->max_threads_per_sm / cfg->warp_size;
    if (wc_config_n_sm(cfg) < 1)
        return wc_errf(err, "%s: option -gpgpu_n_clusters: no SMs (clusters x cores = 0)", src);
    /* Each factor is at most 4096 or 64 (option ranges): the product fits. */
    if (wc_config_n_sm(cfg) > WC_CONFIG_MAX_SM)
        return wc_errf(err,
                       "%s: option -gpgpu_n_clusters: %u clusters x %u cores per cluster = %u SMs; "
                       "at most %u are supported (-gpgpu_n_cores_per_cluster)",
                       src, cfg->n_clusters, cfg->cores_per_cluster, wc_config_n_sm(cfg),
                       WC_CONFIG_MAX_SM);
    if (cfg->n_sched_per_sm > warps)
        return wc_errf(err,
                       "%s: option -gpgpu_num_sched_per_core: %u schedulers but only %u warps "
                       "per SM (-gpgpu_shader_core_pipeline)",
                       src, cfg->n_sched_per_sm, warps);
    if (cfg->max_warp_limit > warps)
        return wc_errf(err,
                       "%s: option -max_warp_limit: %u is more than the %u warps per SM "
                       "(-gpgpu_shader_core_pipeline)",
                       src, cfg->max_warp_limit, warps);
    if (cfg->ipoly_poly && wc_log2(cfg->ipoly_poly) != wc_log2(cfg->l1.nsets))
        return wc_errf(err,
                       "%s: option -l1_ipoly_poly: polynomial %u has degree %u but the L1 has "
                       "%u sets, which needs degree %u (-gpgpu_cache:dl1)",
                       src, cfg->ipoly_poly, wc_log2(cfg->ipoly_poly), cfg->l1.nsets,
                       wc_log2(cfg->l1.nsets));
    if (cfg->l2_ipoly_poly && wc_log2(cfg->l2_ipoly_poly) != wc_log2(cfg->l2.nsets))
        return wc_errf(err,
                       "%s: option -l2_ipoly_poly: polynomial %u has degree %u but the L2 has "
                       "%u sets, which needs degree %u (-gpgpu_cache:dl2)",
                       src, cfg->l2_ipoly_poly, wc_log2(cfg->l2_ipoly_poly), cfg->l2.nsets,
                       wc_log2(cfg->l2.nsets));
    if (cfg->partition_interleave && cfg->partition_interleave < cfg->l2.line_bytes)
        return wc_errf(err,
                       "%s: option -partition_interleave: %u bytes is smaller than an L2 line "
                       "(%u bytes, -gpgpu_cache:dl2)",
                       src, cfg->partition_interleave, cfg->l2.line_bytes);
    wc_addrdec ad; /* the address map against the channel counts */
    wc_err why;
    if (wc_addrdec_init(&ad, cfg, &why) < 0) return wc_errf(err, "%s: %s", src, why.msg);
    return 0;
}

/* A controller that drives the L1's mode needs an organisation that has
 * modes (checked here so that `config` refuses what `run` would). */
static int l1_mode_check(void *ctx, const wc_controller_ops *ops, const wc_param_values *p,
                         wc_err *err)
{
    const wc_l1_ops *l1 = wc_l1_find(((const wc_config *)ctx)->l1_org);
    return l1 ? wc_controller_check_l1(ops, l1, err) : 0;
}

static int controller_checks(const wc_config *cfg, const char *src, wc_err *err)
{
    wc_err why;
    if (wc_controllers_parse(cfg->controllers, l1_mode_check, (void *)cfg, &why) < 0)
        return wc_errf(err, "%s: option -controllers: %s", src, why.msg);
    return 0;
}

/* A plug-in parameter that was set (a file line, -o) but that no plug-in of
 * the configuration reads would be silently ignored: the L1 organisation or
 * replacement policy it belongs to is not the one chosen.  Only the ones set
 * count (cfg->plugin), so a design that sets its own plug-in's parameters and
 * a dump (which writes only those) load; see docs/config.md. */
static int plugin_checks(const wc_config *cfg, const char *src, wc_err *err)
{
    for (uint32_t i = 0; i < cfg->n_plugin && i < WC_MAX_PLUGIN_PARAMS; i++) {
        const char *owner = NULL;
        const wc_param_desc *d = wc_plugin_param_find(cfg->plugin[i].key, &owner);
        char users[512];
        if (!d || wc_plugin_param_used(cfg, d, users, sizeof users)) continue;
        return wc_errf(err,
                       "%s: option -%s: only %s reads it, and this configuration does not use "
                       "it (-l1_org %s, rp letters %c and %c)",
                       src, d->key, users, cfg->l1_org, cfg->l1.repl, cfg->l2.repl);
    }
    return 0;
}

int wc_config_validate(const wc_config *cfg, wc_err *err)
{
    const char *src = cfg->source_file[0] ? cfg->source_file : "configuration";
    if (wc_cfg_check_options(cfg, src, err) < 0) return -1;
    if (cross_checks(cfg, src, err) < 0) return -1;
    if (controller_checks(cfg, src, err) < 0) return -1;
    return plugin_checks(cfg, src, err);
}
