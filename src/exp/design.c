/*
 * design.c - named designs: configs/designs/NAME.config files of option
 * overrides (gpgpusim.config syntax) that `--design NAME` applies after
 * --config and before -o.  This file only finds and describes them; which
 * directories to search is the caller's decision (the CLI: $WARPCACHE_DESIGNS,
 * then beside the executable), so the library reads no environment.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/nearest.h"
#include "warpcache/experiment.h"

static bool is_file(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ')) s[--n] = 0;
}

/* Reads the header comment: the first comment line is the description, a
 * "# paper:" line the paper.  Stops at the first option line. */
static void read_header(wc_design_info *d)
{
    FILE *f = fopen(d->path, "r");
    d->description[0] = d->paper[0] = 0;
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        const char *p = line + strspn(line, " \t");
        if (*p == '-') break;
        if (*p != '#') continue;
        p++;
        p += strspn(p, " \t");
        if (strncmp(p, "paper:", 6) == 0) {
            p += 6;
            p += strspn(p, " \t");
            snprintf(d->paper, sizeof d->paper, "%s", p);
            trim(d->paper);
        } else if (!d->description[0]) {
            snprintf(d->description, sizeof d->description, "%s", p);
            trim(d->description);
        }
    }
    fclose(f);
}

static bool is_path(const char *name)
{
    size_t n = strlen(name);
    return strchr(name, '/') || (n > 7 && strcmp(name + n - 7, ".config") == 0);
}

static void set_name_from_path(wc_design_info *d)
{
    const char *slash = strrchr(d->path, '/');
    const char *base = slash ? slash + 1 : d->path;
    size_t len = strlen(base);
    if (len > 7 && strcmp(base + len - 7, ".config") == 0) len -= 7;
    snprintf(d->name, sizeof d->name, "%.*s", (int)len, base);
}

int wc_design_find(const char *name, const char *const *dirs, size_t ndirs, wc_design_info *info,
                   wc_err *err)
{
    memset(info, 0, sizeof *info);
    if (is_path(name)) {
        if (!is_file(name)) return wc_errf(err, "design %s: no such file", name);
        snprintf(info->path, sizeof info->path, "%s", name);
        set_name_from_path(info);
        read_header(info);
        return 0;
    }
    for (size_t i = 0; i < ndirs; i++) {
        snprintf(info->path, sizeof info->path, "%s/%s.config", dirs[i], name);
        if (is_file(info->path)) {
            snprintf(info->name, sizeof info->name, "%s", name);
            read_header(info);
            return 0;
        }
    }
    /* Unknown: list what there is, so the user sees the spelling. */
    wc_design_info *all = NULL;
    size_t n = 0;
    char known[700] = "";
    char hint[160] = "";
    size_t used = 0;
    wc_nearest near;
    wc_nearest_init(&near, name);
    if (wc_design_list(dirs, ndirs, &all, &n, err) == 0)
        for (size_t i = 0; i < n; i++) {
            wc_nearest_consider(&near, all[i].name);
            if (used + strlen(all[i].name) + 3 < sizeof known)
                used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                                         all[i].name);
        }
    if (wc_nearest_best(&near)) snprintf(hint, sizeof hint, "did you mean '%s'? ", near.best);
    free(all);
    if (ndirs == 0) return wc_errf(err, "unknown design '%s' (no design directory found)", name);
    return wc_errf(err, "unknown design '%s' (%sknown: %s; searched %s%s)", name, hint,
                   n ? known : "none", dirs[0], ndirs > 1 ? " ..." : "");
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const wc_design_info *)a)->name, ((const wc_design_info *)b)->name);
}

int wc_design_list(const char *const *dirs, size_t ndirs, wc_design_info **out, size_t *n,
                   wc_err *err)
{
    *out = NULL;
    *n = 0;
    size_t cap = 0;
    for (size_t i = 0; i < ndirs; i++) {
        DIR *d = opendir(dirs[i]);
        if (!d) continue;
        struct dirent *e;
        while ((e = readdir(d))) {
            size_t len = strlen(e->d_name);
            if (len <= 7 || strcmp(e->d_name + len - 7, ".config") != 0 || len - 7 >= 64) continue;
            bool dup = false;
            for (size_t k = 0; k < *n && !dup; k++)
                dup = strncmp((*out)[k].name, e->d_name, len - 7) == 0 &&
                      (*out)[k].name[len - 7] == 0;
            if (dup) continue; /* an earlier directory has it */
            if (*n == cap) {
                cap = cap ? 2 * cap : 32;
                wc_design_info *r = realloc(*out, cap * sizeof *r);
                if (!r) {
                    closedir(d);
                    return wc_errf(err, "out of memory");
                }
                *out = r;
            }
            wc_design_info *di = &(*out)[(*n)++];
            memset(di, 0, sizeof *di);
            snprintf(di->path, sizeof di->path, "%s/%s", dirs[i], e->d_name);
            set_name_from_path(di);
            read_header(di);
        }
        closedir(d);
    }
    if (*n) qsort(*out, *n, sizeof **out, by_name);
    return 0;
}
