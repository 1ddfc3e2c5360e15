/*
 * plug_dm.c - a test plug-in (tests/cli_plugins.sh): the L1 organisation
 * "plug_dm" is the conventional line cache with the geometry's associativity
 * forced to 1 (direct-mapped, same number of sets: a smaller cache).  It
 * exists to show that an L1 organisation is one file
 * (make PLUGINS=tests/plugins/plug_dm.c).
 */
#include <stdlib.h>

#include "cache/l1_core.h"

WC_PLUGIN(l1_org, plug_l1_dm, 1000); /* also the declaration create() needs */

/* The configuration is only read while the L1 is built: a copy will do. */
static wc_l1 *dm_create(const wc_config *cfg, const wc_l1_env *env, wc_err *err)
{
    wc_config *one_way = malloc(sizeof *one_way);
    if (!one_way) {
        wc_errf(err, "plug_dm L1: out of memory");
        return NULL;
    }
    *one_way = *cfg;
    one_way->l1.assoc = 1;
    wc_l1 *l1 = wc_l1_core_create(&plug_l1_dm, wc_tagstore_line_create, one_way, env, err);
    free(one_way);
    return l1;
}

const wc_l1_ops plug_l1_dm = {
    .name = "plug_dm",
    .help = "test plug-in: the conventional L1, direct-mapped",
    .create = dm_create,
    WC_L1_CORE_OPS,
};
