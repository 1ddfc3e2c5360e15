/*
 * params.c - "key=value,key=value" workload parameters, with range checks
 * and a complaint about any parameter the workload did not use.  Integers
 * are decimal (hexadecimal after 0x), as in configuration files.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpcache/workloads.h"

int wc_params_parse(const char *text, const char *workload, wc_params *p, wc_err *err)
{
    memset(p, 0, sizeof *p);
    snprintf(p->workload, sizeof p->workload, "%s", workload);
    if (!text || !*text) return 0;
    const char *s = text;
    while (*s) {
        const char *end = strchr(s, ',');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        const char *eq = memchr(s, '=', len);
        if (!eq || eq == s)
            return wc_errf(err, "workload %s: parameter '%.*s' is not key=value", workload,
                           (int)len, s);
        if (p->n == WC_MAX_PARAMS)
            return wc_errf(err, "workload %s: more than %d parameters", workload, WC_MAX_PARAMS);
        size_t klen = (size_t)(eq - s), vlen = len - klen - 1;
        if (klen >= sizeof p->kv[0].key || vlen >= sizeof p->kv[0].val)
            return wc_errf(err, "workload %s: parameter '%.*s' is too long", workload, (int)len, s);
        memcpy(p->kv[p->n].key, s, klen);
        memcpy(p->kv[p->n].val, eq + 1, vlen);
        p->n++;
        s += len;
        if (*s == ',') s++;
    }
    return 0;
}

static int find_key(wc_params *p, const char *key)
{
    if (!p) return -1;
    for (unsigned i = 0; i < p->n; i++)
        if (strcmp(p->kv[i].key, key) == 0) {
            p->kv[i].used = true;
            return (int)i;
        }
    return -1;
}

/* The entry of `key` in the log, appended when new; NULL when there is no
 * log (an ordinary open) or it is full. */
static wc_param_info *logged(wc_params *p, const char *key)
{
    if (!p || !p->log) return NULL;
    wc_param_log *log = p->log;
    for (unsigned i = 0; i < log->n; i++)
        if (strcmp(log->v[i].key, key) == 0) return NULL; /* the first read's default */
    if (log->n == WC_MAX_PARAM_INFO) return NULL;
    wc_param_info *e = &log->v[log->n++];
    memset(e, 0, sizeof *e);
    snprintf(e->key, sizeof e->key, "%s", key);
    return e;
}

int wc_params_u64(wc_params *p, const char *key, uint64_t def, uint64_t min, uint64_t max,
                  uint64_t *out, wc_err *err)
{
    wc_param_info *e = logged(p, key);
    if (e) {
        e->def = def;
        e->min = min;
        e->max = max;
    }
    int i = find_key(p, key);
    if (i < 0) {
        *out = def;
        return 0;
    }
    const char *v = p->kv[i].val;
    /* Decimal, or hexadecimal after 0x, like configuration values: strtoull
     * with base 0 would read "010" as octal 8, and it skips blanks and takes
     * a sign, so a digit must come first. */
    bool hex = v[0] == '0' && (v[1] == 'x' || v[1] == 'X');
    const char *digits = hex ? v + 2 : v;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(digits, &end, hex ? 16 : 10);
    bool first_ok = hex ? isxdigit((unsigned char)digits[0]) : isdigit((unsigned char)digits[0]);
    if (errno || end == digits || *end || !first_ok)
        return wc_errf(err, "workload %s: parameter %s=%s is not an unsigned integer", p->workload,
                       key, v);
    if (x < min || x > max)
        return wc_errf(err, "workload %s: parameter %s=%s out of range [%llu, %llu]", p->workload,
                       key, v, (unsigned long long)min, (unsigned long long)max);
    *out = x;
    return 0;
}

int wc_params_f64(wc_params *p, const char *key, double def, double min, double max, double *out,
                  wc_err *err)
{
    wc_param_info *e = logged(p, key);
    if (e) {
        e->is_float = true;
        e->fdef = def;
        e->fmin = min;
        e->fmax = max;
    }
    int i = find_key(p, key);
    if (i < 0) {
        *out = def;
        return 0;
    }
    const char *v = p->kv[i].val;
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (errno || end == v || *end)
        return wc_errf(err, "workload %s: parameter %s=%s is not a number", p->workload, key, v);
    if (!(x >= min && x <= max))
        return wc_errf(err, "workload %s: parameter %s=%s out of range [%g, %g]", p->workload, key,
                       v, min, max);
    *out = x;
    return 0;
}

int wc_params_check_unused(const wc_params *p, wc_err *err)
{
    for (unsigned i = 0; i < p->n; i++)
        if (!p->kv[i].used)
            return wc_errf(err, "workload %s: unknown parameter '%s'", p->workload, p->kv[i].key);
    return 0;
}
