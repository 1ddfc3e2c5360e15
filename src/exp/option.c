/*
 * option.c - option setting for grids and designs: every configuration
 * option by name (wc_config_set) plus the L1 geometry aliases of sweeps,
 * which rewrite one field of the -gpgpu_cache:dl1 string and keep the rest
 * (policies, MSHRs, index function) of whatever configuration they apply to.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpcache/experiment.h"

/* Unsigned value with an optional K/M/G (x1024) suffix ("32K", "48k");
 * -1 with the reason in *why. */
static int parse_size(const char *v, uint64_t *out, wc_err *why)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (errno || end == v || !(*v >= '0' && *v <= '9'))
        return wc_errf(why, "\"%s\" is not an unsigned integer (K/M/G suffix allowed)", v);
    uint64_t mul = 1;
    if (*end == 'k' || *end == 'K')
        mul = 1024, end++;
    else if (*end == 'm' || *end == 'M')
        mul = 1024 * 1024, end++;
    else if (*end == 'g' || *end == 'G')
        mul = 1024ull * 1024 * 1024, end++;
    if (*end == 'B' || *end == 'b') end++;
    if (*end) return wc_errf(why, "\"%s\" is not an unsigned integer (K/M/G suffix allowed)", v);
    if (x == 0 || x * mul > UINT32_MAX) return wc_errf(why, "%s is out of range (1..2^32-1)", v);
    *out = x * mul;
    return 0;
}

/* Errors read like the configuration's: "WHERE: option NAME: reason". */
static int set_geometry(wc_config *cfg, const char *name, const char *value, const char *where,
                        wc_err *err)
{
    wc_cache_geom g = cfg->l1;
    uint64_t v = 0;
    wc_err why = {{0}};
    if (parse_size(value, &v, &why) < 0)
        return wc_errf(err, "%s: option %s: %s", where, name, why.msg);
    if (strcmp(name, "l1_sets") == 0)
        g.nsets = (uint32_t)v;
    else if (strcmp(name, "l1_assoc") == 0)
        g.assoc = (uint32_t)v;
    else if (strcmp(name, "l1_line") == 0)
        g.line_bytes = (uint32_t)v;
    else {
        uint64_t per_set = (uint64_t)g.line_bytes * g.assoc;
        if (v % per_set)
            return wc_errf(err, "%s: option %s: %s bytes is not a multiple of line x assoc = %llu",
                           where, name, value, (unsigned long long)per_set);
        g.nsets = (uint32_t)(v / per_set);
    }
    if (wc_cache_geom_check(&g, &why) < 0)
        return wc_errf(err, "%s: option %s: %s", where, name, why.msg);
    char text[160];
    wc_cache_geom_format(&g, text, sizeof text);
    return wc_config_set(cfg, "gpgpu_cache:dl1", text, where, err) == 0 ? 0 : -1;
}

int wc_exp_set_option(wc_config *cfg, const char *name, const char *value, const char *where,
                      wc_err *err)
{
    if (*name == '-') name++;
    if (strcmp(name, "l1_sets") == 0 || strcmp(name, "l1_assoc") == 0 ||
        strcmp(name, "l1_line") == 0 || strcmp(name, "l1_size") == 0)
        return set_geometry(cfg, name, value, where, err);
    return wc_config_set(cfg, name, value, where, err);
}
