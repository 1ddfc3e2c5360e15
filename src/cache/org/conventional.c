/*
 * conventional.c - the GPGPU-Sim-class L1 data cache ("conventional"): the
 * L1 core (l1_core.c: MSHRs, miss queue, write policies, bypass) around an
 * array-backed tag store chosen by the geometry's cache type
 * (-gpgpu_cache:dl1): N -> "line" (a miss fetches the whole line), S ->
 * "sector" (a miss fetches the missing requested 32 B sectors).  Lines of
 * 32..512 B; docs/cache.md states the semantics.
 */
#include "cache/l1_core.h"
#include "cache/l1_impl.h"

static wc_l1 *conv_create(const wc_config *cfg, const wc_l1_env *env, wc_err *err)
{
    char type = cfg->l1.type;
    if (type != 'N' && type != 'S') {
        wc_errf(err, "%s: -gpgpu_cache:dl1: cache type '%c' unknown (N or S)",
                wc_l1_config_where(cfg), type ? type : '?');
        return NULL;
    }
    return wc_l1_core_create(&wc_l1_conventional,
                             type == 'S' ? wc_tagstore_sector_create : wc_tagstore_line_create, cfg,
                             env, err);
}

const wc_l1_ops wc_l1_conventional = {
    .name = "conventional",
    .help = "GPGPU-Sim-class L1D: tag array + MSHRs + miss queue, policies from -gpgpu_cache:dl1",
    .create = conv_create,
    WC_L1_CORE_OPS,
};
WC_PLUGIN(l1_org, wc_l1_conventional, 10);
