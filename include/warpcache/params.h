/*
 * params.h - plug-in parameters: numbers a plug-in (an L1 organisation, a
 * replacement policy) declares in its own file, next to its code, instead of
 * in the central option table (src/config/options.c, which keeps the
 * GPGPU-Sim options).
 *
 * A plug-in lists its parameters in a wc_param_desc array ended by an entry
 * with a NULL key and points its ops table at it.  The configuration layer
 * finds them through wc_plugin_param_find (src/cache/params.c walks the
 * registries), so `-o ship_sig_bits=12`, a `-ship_sig_bits 12` line in a
 * config file, `warpcache config --options` and the range checks (bad value:
 * "option -ship_sig_bits: ...", exit status 2) work without a central edit.
 * Values live in the wc_config (plain data, passed explicitly); the plug-in
 * reads them when it creates its instance with wc_param_get.
 */
#ifndef WARPCACHE_PARAMS_H
#define WARPCACHE_PARAMS_H

#include "warpcache/config.h"

typedef struct wc_param_desc {
    const char *key; /* option name, unique across plug-ins (prefix it with the plug-in's name) */
    uint64_t def, min, max;
    const char *help;
} wc_param_desc;

/* The parameter called `key` (a leading '-' is ignored) of any registered
 * plug-in, or NULL; *owner (may be NULL) gets the plug-in's name. */
const wc_param_desc *wc_plugin_param_find(const char *key, const char **owner);

/* Calls fn for every plug-in parameter, registry order. */
void wc_plugin_params_each(void (*fn)(void *ctx, const char *owner, const wc_param_desc *d),
                           void *ctx);

/* The value of parameter d in cfg: the one set, else its default.  cfg may
 * be NULL (defaults). */
uint64_t wc_param_get(const wc_config *cfg, const wc_param_desc *d);

/* Whether a plug-in that cfg uses reads parameter d: the L1 organisation
 * (-l1_org) or the replacement policy of the L1 or the L2 (the rp letter of
 * -gpgpu_cache:dl1/dl2).  Else, `users` (may be NULL) gets who would read it,
 * e.g. "replacement policy pdp (rp letter P)". */
bool wc_plugin_param_used(const wc_config *cfg, const wc_param_desc *d, char *users, size_t n);

/* Checks v against d's range; reason only ("... out of range ...") on error. */
int wc_param_check(const wc_param_desc *d, uint64_t v, wc_err *err);

#endif
