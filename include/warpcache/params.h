/*
 * params.h - the one parameter schema of every plug-in family: L1
 * organisations, replacement policies, controllers, memory stages, warp
 * schedulers, the crossbar model.  A plug-in declares its parameters in a
 * wc_param_desc array next to its code (ended by an entry with a NULL key)
 * and points its ops table at it; everything else - parsing, every check,
 * `warpcache list`, `config --options`, docs/parameters.md - is derived from
 * that array.
 *
 * Two ways a value reaches a plug-in:
 * - options of the configuration (L1 organisations, replacement policies):
 *   `-ship_sig_bits 12` in a config file or `-o ship_sig_bits=12`; the value
 *   lives in the wc_config (wc_plugin_param_find walks the registries in
 *   src/cache/params.c) and the plug-in reads it by name with wc_cfg_param;
 * - the text after the plug-in's name in its option ("swl:warp_limit=4",
 *   "-mem_stage mrpb:len=16", "-icnt_model islip:speedup=2"): parsed once,
 *   by wc_param_parse, into a wc_param_values that create() gets and reads by
 *   name with wc_param_u / wc_param_d / wc_param_b.
 * Either way the same checks apply (wc_param_value): a number is plain
 * decimal (no sign, blank or 0x), within min..max, a power of two where the
 * schema says so, a word one of the enum's words; a key is known (else a
 * "did you mean") and given once.
 */
#ifndef WARPCACHE_PARAMS_H
#define WARPCACHE_PARAMS_H

#include "warpcache/config.h"

typedef enum wc_param_type {
    WC_PARAM_UNSIGNED, /* a whole number def/min/max (the zero value: old initialisers) */
    WC_PARAM_DOUBLE,   /* a decimal number fdef/fmin/fmax ("12.5") */
    WC_PARAM_BOOL,     /* 0 | 1 (def 0 or 1) */
    WC_PARAM_ENUM      /* one of words[]; the value is the word's index, def an index */
} wc_param_type;

typedef struct wc_param_desc {
    /* A configuration option's name (L1 organisations, replacement: unique
     * across plug-ins, prefixed with the plug-in's name) or a key of
     * "name:key=value" text (the other families: unique in its plug-in). */
    const char *key;
    uint64_t def, min, max;
    const char *help;
    wc_param_type type;
    bool pow2;                /* WC_PARAM_UNSIGNED: a power of two (min..max still apply) */
    bool required;            /* must be given: there is no sensible default (def unused) */
    const char *const *words; /* WC_PARAM_ENUM: the words, NULL-terminated */
    double fdef, fmin, fmax;  /* WC_PARAM_DOUBLE */
    const char *unit;         /* "cycles", "%", "flits" ...; NULL: none */
    const char *alias;        /* another accepted spelling of the key (GPGPU-Sim's), or NULL */
    const char *default_note; /* shown instead of def: "-gpgpu_l1_latency" when derived */
} wc_param_desc;

/* Most parameters one plug-in declares. */
#define WC_PARAMS_MAX 16

/* The values of one plug-in instance: every parameter of `schema`, parsed
 * and checked (given ones) or its default.  Plain data: copy it freely. */
typedef struct wc_param_values {
    const wc_param_desc *schema; /* NULL: a plug-in without parameters */
    const char *who;             /* the plug-in's name, for messages */
    unsigned n;
    uint32_t given; /* bit i: parameter i was given */
    uint64_t u[WC_PARAMS_MAX];
    double d[WC_PARAMS_MAX];
} wc_param_values;

/* Parses "key=value,key=value" (or "" / NULL: all defaults) against schema
 * (NULL: the plug-in takes no parameters) into *out.  Errors read
 * "WHO: key=value: reason" (WHO is the plug-in's name): an unknown key (with
 * the nearest known one), a pair without '=', a key given twice, a value
 * wc_param_value refuses, a required parameter missing. */
int wc_param_parse(wc_param_values *out, const wc_param_desc *schema, const char *who,
                   const char *text, wc_err *err);

/* GPGPU-Sim's positional form "v1:v2:..." (two_level_active:6:0:1): the
 * values of schema's parameters in order, checked the same way. */
int wc_param_parse_positional(wc_param_values *out, const wc_param_desc *schema, const char *who,
                              const char *text, wc_err *err);

/* Checks one value text against d: *u gets it (a number, 0/1, a word's
 * index), *f a double parameter's value.  Reason only ("must be ..."). */
int wc_param_value(const wc_param_desc *d, const char *text, uint64_t *u, double *f, wc_err *err);

/* The parameter `key` (or its alias) of schema, or NULL. */
const wc_param_desc *wc_param_lookup(const wc_param_desc *schema, const char *key);

/* Values by name.  Asking for a key the schema does not declare is a bug in
 * the plug-in: it aborts with a message. */
uint64_t wc_param_u(const wc_param_values *p, const char *key);
double wc_param_d(const wc_param_values *p, const char *key);
bool wc_param_b(const wc_param_values *p, const char *key);
bool wc_param_given(const wc_param_values *p, const char *key);

/* "unsigned 1..1024, default 8", "oldest|all, default oldest", ... (the
 * listings and docs/parameters.md). */
void wc_param_describe(const wc_param_desc *d, char *buf, size_t n);

/* Splits a plug-in spec "name[:params]" of len bytes: name into name[n]
 * (false when it does not fit), *params at the text after ':' ("" if none,
 * pointing into spec; params_len its length). */
bool wc_spec_split(const char *spec, size_t len, char *name, size_t n, const char **params,
                   size_t *params_len);

/* ---- every plug-in of every family (src/config/plugins.c) ---------------- */

typedef enum wc_plugin_style {
    WC_PLUGIN_SPEC,   /* parameters follow the name in its option: NAME:key=value,... */
    WC_PLUGIN_OPTIONS /* parameters are configuration options: -key value */
} wc_plugin_style;

typedef struct wc_plugin_info {
    const char *family; /* "controllers", "stages", "schedulers", "icnt", "l1", "replacement" */
    const char *option; /* the option that chooses it: "-controllers", "-mem_stage" ... */
    const char *name;
    const char *help;            /* NULL: none (or a second schema of the same plug-in) */
    const wc_param_desc *params; /* NULL: it has none */
    wc_plugin_style style;
} wc_plugin_info;

/* Calls fn (may be NULL: only the answer) for every registered plug-in of
 * `family` (NULL: every family), registry order; false when no family has
 * that name. */
bool wc_plugins_each(const char *family, void (*fn)(void *ctx, const wc_plugin_info *p), void *ctx);

/* The parameter called `key` (a leading '-' is ignored) of any registered
 * plug-in, or NULL; *owner (may be NULL) gets the plug-in's name. */
const wc_param_desc *wc_plugin_param_find(const char *key, const char **owner);

/* Calls fn for every plug-in parameter, registry order. */
void wc_plugin_params_each(void (*fn)(void *ctx, const char *owner, const wc_param_desc *d),
                           void *ctx);

/* The value of parameter d in cfg: the one set, else its default.  cfg may
 * be NULL (defaults). */
uint64_t wc_param_get(const wc_config *cfg, const wc_param_desc *d);

/* The value of schema's parameter `key` in cfg, by name (aborts when the
 * schema does not declare it: a bug in the plug-in). */
uint64_t wc_cfg_param(const wc_config *cfg, const wc_param_desc *schema, const char *key);

/* Whether a plug-in that cfg uses reads parameter d: the L1 organisation
 * (-l1_org) or the replacement policy of the L1 or the L2 (the rp letter of
 * -gpgpu_cache:dl1/dl2).  Else, `users` (may be NULL) gets who would read it,
 * e.g. "replacement policy pdp (rp letter P)". */
bool wc_plugin_param_used(const wc_config *cfg, const wc_param_desc *d, char *users, size_t n);

/* Checks v against d's range and power-of-two rule; reason only ("... out
 * of range ...") on error. */
int wc_param_check(const wc_param_desc *d, uint64_t v, wc_err *err);

#endif
