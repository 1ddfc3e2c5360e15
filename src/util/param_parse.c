/*
 * param_parse.c - the one parser and checker of plug-in parameters
 * (params.h): "key=value,..." text and single values against a plug-in's
 * wc_param_desc schema, and reading the parsed values by name.
 *
 * Every family (controllers, memory stages, schedulers, the crossbar model,
 * L1 organisations and replacement policies through the configuration)
 * goes through wc_param_value, so a value is refused for the same reasons,
 * in the same words, wherever it is written.  It runs when the
 * configuration is checked (`warpcache config` refuses what `run` would)
 * and once more when the simulator builds the plug-in; nothing after that
 * looks at the text again.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/nearest.h"
#include "warpcache/params.h"

static size_t schema_len(const wc_param_desc *schema)
{
    size_t n = 0;
    while (schema && schema[n].key) n++;
    return n;
}

const wc_param_desc *wc_param_lookup(const wc_param_desc *schema, const char *key)
{
    for (const wc_param_desc *d = schema; d && d->key; d++)
        if (strcmp(d->key, key) == 0 || (d->alias && strcmp(d->alias, key) == 0)) return d;
    return NULL;
}

/* A number written with a sign, a blank or a 0x prefix, which strtoul and
 * strtod would read without a word ("+8", " 8", "0x10" as a hex float). */
static bool decorated(const char *s)
{
    return s[0] == '+' || s[0] == '-' || strpbrk(s, " \t") ||
           (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'));
}

/* Decimal digits (and one '.' where fractions are allowed), nothing else. */
static bool decimal(const char *s, bool fraction)
{
    bool digit = false, dot = false;
    for (const char *p = s; *p; p++) {
        if (*p >= '0' && *p <= '9')
            digit = true;
        else if (*p == '.' && fraction && !dot)
            dot = true;
        else
            return false;
    }
    return digit;
}

static void words_list(const wc_param_desc *d, char *buf, size_t n)
{
    buf[0] = '\0';
    for (size_t i = 0; d->words && d->words[i]; i++)
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", i ? "|" : "", d->words[i]);
}

static int unsigned_value(const wc_param_desc *d, const char *text, uint64_t *u, wc_err *err)
{
    const char *unit = d->unit ? d->unit : "", *sp = *unit ? " " : "";
    unsigned long long lo = d->min, hi = d->max;
    if (decorated(text))
        return wc_errf(err, "%s=%s: numbers are plain decimal (no sign, blank or 0x)", d->key,
                       text);
    unsigned long long v =
        decimal(text, false) && strlen(text) <= 19 ? strtoull(text, NULL, 10) : 0;
    if (!decimal(text, false) || strlen(text) > 19 || v < lo || v > hi)
        return wc_errf(err, "%s=%s: must be a whole number from %llu to %llu%s%s", d->key, text, lo,
                       hi, sp, unit);
    if (d->pow2 && (v & (v - 1)))
        return wc_errf(err, "%s=%s: must be a power of two from %llu to %llu%s%s", d->key, text, lo,
                       hi, sp, unit);
    *u = v;
    return 0;
}

static int double_value(const wc_param_desc *d, const char *text, double *f, wc_err *err)
{
    const char *unit = d->unit ? d->unit : "", *sp = *unit ? " " : "";
    if (decorated(text))
        return wc_errf(err, "%s=%s: numbers are plain decimal (no sign, blank or 0x)", d->key,
                       text);
    double v = decimal(text, true) ? strtod(text, NULL) : NAN;
    if (!(v >= d->fmin && v <= d->fmax))
        return wc_errf(err, "%s=%s: must be a number from %g to %g%s%s", d->key, text, d->fmin,
                       d->fmax, sp, unit);
    *f = v;
    return 0;
}

int wc_param_value(const wc_param_desc *d, const char *text, uint64_t *u, double *f, wc_err *err)
{
    uint64_t u_ = 0;
    double f_ = 0;
    if (!u) u = &u_;
    if (!f) f = &f_;
    switch (d->type) {
    case WC_PARAM_UNSIGNED: return unsigned_value(d, text, u, err);
    case WC_PARAM_DOUBLE: return double_value(d, text, f, err);
    case WC_PARAM_BOOL:
        if (strcmp(text, "0") && strcmp(text, "1"))
            return wc_errf(err, "%s=%s: must be 0 or 1", d->key, text);
        *u = text[0] == '1';
        return 0;
    case WC_PARAM_ENUM:
        for (size_t i = 0; d->words && d->words[i]; i++)
            if (strcmp(text, d->words[i]) == 0) {
                *u = i;
                return 0;
            }
        char all[256];
        words_list(d, all, sizeof all);
        return wc_errf(err, "%s=%s: must be %s", d->key, text, all);
    }
    return wc_errf(err, "%s: internal: unknown parameter type", d->key);
}

static void set_defaults(wc_param_values *out, const wc_param_desc *schema, const char *who)
{
    memset(out, 0, sizeof *out);
    out->schema = schema;
    out->who = who;
    out->n = (unsigned)schema_len(schema);
    for (unsigned i = 0; i < out->n && i < WC_PARAMS_MAX; i++) {
        out->u[i] = schema[i].def;
        out->d[i] = schema[i].fdef;
    }
}

static int unknown_key(const wc_param_desc *schema, const char *who, const char *key, wc_err *err)
{
    if (!schema || !schema->key)
        return wc_errf(err, "%s: takes no parameters (got '%s')", who, key);
    wc_nearest near;
    wc_nearest_init(&near, key);
    char known[256] = "";
    for (const wc_param_desc *d = schema; d->key; d++) {
        wc_nearest_consider(&near, d->key);
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
                 d == schema ? "" : ", ", d->key);
    }
    const char *best = wc_nearest_best(&near);
    if (best)
        return wc_errf(err, "%s: unknown parameter '%s' (did you mean '%s'? known: %s)", who, key,
                       best, known);
    return wc_errf(err, "%s: unknown parameter '%s' (%s)", who, key, known);
}

/* Stores the value text of parameter i; "WHO: reason" on error. */
static int store(wc_param_values *out, unsigned i, const char *text, wc_err *err)
{
    const wc_param_desc *d = &out->schema[i];
    wc_err why;
    if (out->given & (1u << i))
        return wc_errf(err, "%s: parameter '%s' is given twice", out->who, d->key);
    if (wc_param_value(d, text, &out->u[i], &out->d[i], &why) < 0)
        return wc_errf(err, "%s: %s", out->who, why.msg);
    out->given |= 1u << i;
    return 0;
}

static int check_required(const wc_param_values *out, wc_err *err)
{
    for (unsigned i = 0; i < out->n; i++)
        if (out->schema[i].required && !(out->given & (1u << i)))
            return wc_errf(err, "%s: give %s=N (%s)", out->who, out->schema[i].key,
                           out->schema[i].help ? out->schema[i].help : "required");
    return 0;
}

int wc_param_parse(wc_param_values *out, const wc_param_desc *schema, const char *who,
                   const char *text, wc_err *err)
{
    set_defaults(out, schema, who);
    if (out->n > WC_PARAMS_MAX) return wc_errf(err, "%s: internal: too many parameters", who);
    for (const char *p = text ? text : ""; *p;) {
        size_t n = strcspn(p, ",");
        char pair[128];
        if (n >= sizeof pair)
            return wc_errf(err, "%s: parameter \"%.*s\" is too long", who, (int)n, p);
        memcpy(pair, p, n);
        pair[n] = '\0';
        char *eq = strchr(pair, '=');
        if (!eq || eq == pair || !eq[1])
            return wc_errf(err, "%s: parameter \"%s\" is not key=value", who, pair);
        *eq = '\0';
        const wc_param_desc *d = wc_param_lookup(schema, pair);
        if (!d) return unknown_key(schema, who, pair, err);
        if (store(out, (unsigned)(d - schema), eq + 1, err) < 0) return -1;
        p += n;
        if (*p == ',' && !*++p) return wc_errf(err, "%s: \"%s\" ends with ','", who, text);
    }
    return check_required(out, err);
}

int wc_param_parse_positional(wc_param_values *out, const wc_param_desc *schema, const char *who,
                              const char *text, wc_err *err)
{
    set_defaults(out, schema, who);
    unsigned i = 0;
    for (const char *p = text ? text : ""; *p; i++) {
        size_t n = strcspn(p, ":");
        char value[64];
        if (out->n == 0) return wc_errf(err, "%s: takes no parameters (got \"%s\")", who, text);
        if (i >= out->n)
            return wc_errf(err, "%s: more than %u values in \"%s\"", who, out->n, text);
        if (n >= sizeof value || n == 0)
            return wc_errf(err, "%s: value %u of \"%s\" is empty or too long", who, i + 1, text);
        memcpy(value, p, n);
        value[n] = '\0';
        if (store(out, i, value, err) < 0) return -1;
        p += n;
        if (*p == ':' && !*++p) return wc_errf(err, "%s: \"%s\" ends with ':'", who, text);
    }
    return check_required(out, err);
}

/* Index of `key` in p's schema; a key the plug-in did not declare is its
 * own bug, found by its first run, so it stops the program with a message. */
static unsigned index_of(const wc_param_values *p, const char *key)
{
    const wc_param_desc *d = wc_param_lookup(p->schema, key);
    if (!d) {
        fprintf(stderr, "warpcache: internal: %s reads parameter '%s' it does not declare\n",
                p->who ? p->who : "a plug-in", key);
        abort();
    }
    return (unsigned)(d - p->schema);
}

uint64_t wc_param_u(const wc_param_values *p, const char *key)
{
    return p->u[index_of(p, key)];
}

double wc_param_d(const wc_param_values *p, const char *key)
{
    return p->d[index_of(p, key)];
}

bool wc_param_b(const wc_param_values *p, const char *key)
{
    return p->u[index_of(p, key)] != 0;
}

bool wc_param_given(const wc_param_values *p, const char *key)
{
    return (p->given >> index_of(p, key)) & 1u;
}

void wc_param_describe(const wc_param_desc *d, char *buf, size_t n)
{
    const char *unit = d->unit ? d->unit : "";
    const char *sp = *unit ? " " : "";
    char def[96];
    if (d->required)
        snprintf(def, sizeof def, "required");
    else if (d->default_note)
        snprintf(def, sizeof def, "default %s", d->default_note);
    else if (d->type == WC_PARAM_DOUBLE)
        snprintf(def, sizeof def, "default %g", d->fdef);
    else if (d->type == WC_PARAM_ENUM)
        snprintf(def, sizeof def, "default %s", d->words ? d->words[d->def] : "?");
    else
        snprintf(def, sizeof def, "default %llu", (unsigned long long)d->def);
    char all[256];
    switch (d->type) {
    case WC_PARAM_UNSIGNED:
        snprintf(buf, n, "%s%llu..%llu%s%s, %s", d->pow2 ? "power of two " : "",
                 (unsigned long long)d->min, (unsigned long long)d->max, sp, unit, def);
        return;
    case WC_PARAM_DOUBLE:
        snprintf(buf, n, "%g..%g%s%s, %s", d->fmin, d->fmax, sp, unit, def);
        return;
    case WC_PARAM_BOOL: snprintf(buf, n, "0|1, %s", def); return;
    case WC_PARAM_ENUM:
        words_list(d, all, sizeof all);
        snprintf(buf, n, "%s, %s", all, def);
        return;
    }
    snprintf(buf, n, "?");
}

bool wc_spec_split(const char *spec, size_t len, char *name, size_t n, const char **params,
                   size_t *params_len)
{
    size_t base = 0;
    while (base < len && spec[base] != ':') base++;
    *params = base < len ? spec + base + 1 : spec + len;
    if (params_len) *params_len = base < len ? len - base - 1 : 0;
    if (base >= n) return false;
    memcpy(name, spec, base);
    name[base] = '\0';
    return true;
}
