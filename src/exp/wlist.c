/*
 * wlist.c - workload arguments of multi-run commands: a workload spec, a
 * suite name, or a suite with parameters for every member
 * ("polybench:scale=0.125"), and the seeds' class labels of a workload
 * (used by `compare --by-class`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpcache/experiment.h"
#include "warpcache/workloads.h"

static int push(char ***names, size_t *n, const char *a, const char *b, wc_err *err)
{
    char **r = realloc(*names, (*n + 1) * sizeof *r);
    if (!r) return wc_errf(err, "out of memory");
    *names = r;
    size_t len = strlen(a) + (b ? strlen(b) + 1 : 0) + 1;
    char *s = malloc(len);
    if (!s) return wc_errf(err, "out of memory");
    snprintf(s, len, "%s%s%s", a, b ? ":" : "", b ? b : "");
    r[(*n)++] = s;
    return 0;
}

int wc_expand_workloads(const char *arg, char ***names, size_t *n, wc_err *err)
{
    char base[128];
    const char *colon = strchr(arg, ':');
    size_t len = colon ? (size_t)(colon - arg) : strlen(arg);
    if (len == 0 || len >= sizeof base) return wc_errf(err, "bad workload name '%s'", arg);
    memcpy(base, arg, len);
    base[len] = 0;
    if (wc_workload_find(base)) return push(names, n, arg, NULL, err);
    size_t count, added = 0;
    const wc_workload *const *all = wc_workload_list(&count);
    for (size_t i = 0; i < count; i++)
        if (strcmp(all[i]->suite, base) == 0) {
            if (push(names, n, all[i]->name, colon ? colon + 1 : NULL, err) < 0) return -1;
            added++;
        }
    char near[128];
    if (!added && wc_workload_suggest(base, near, sizeof near))
        return wc_errf(err,
                       "unknown workload or suite '%s' (did you mean '%s'? warpcache list "
                       "shows them)",
                       base, near);
    if (!added)
        return wc_errf(err, "unknown workload or suite '%s' (warpcache list shows them)", base);
    return 0;
}

void wc_workload_classes(const char *spec, const char *seed, char *buf, size_t n)
{
    char base[128];
    size_t len = strcspn(spec, ":");
    buf[0] = 0;
    if (len >= sizeof base) return;
    memcpy(base, spec, len);
    base[len] = 0;
    const wc_workload *w = wc_workload_find(base);
    if (!w || !w->classes) return;
    size_t used = 0, slen = strlen(seed);
    for (const char *p = w->classes; *p;) {
        size_t tl = strcspn(p, " ");
        if (tl > slen && strncmp(p, seed, slen) == 0 && p[slen] == ':' && used + tl + 2 <= n) {
            used += (size_t)snprintf(buf + used, n - used, "%s%.*s", used ? " " : "", (int)tl, p);
        }
        p += tl;
        while (*p == ' ') p++;
    }
}
