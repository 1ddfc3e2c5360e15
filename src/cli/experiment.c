/*
 * experiment.c - what the multi-run commands (compare, sweep) and --design
 * share in the CLI: where design files are found, -j, and the one progress
 * line of a batch.  The library side (running, designs, metrics) is
 * src/exp/; this file adds only what depends on the environment and the
 * terminal.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

static bool is_dir(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static void add_dir(wc_cli_dirs *d, const char *path, size_t len)
{
    if (d->n == sizeof d->buf / sizeof d->buf[0] || len == 0 || len >= sizeof d->buf[0]) return;
    char raw[1024], real[PATH_MAX];
    snprintf(raw, sizeof raw, "%.*s", (int)len, path);
    if (!is_dir(raw)) return;
    /* "build/../configs/designs" reads better resolved; keep it if that fails */
    const char *use = realpath(raw, real) && strlen(real) < sizeof d->buf[0] ? real : raw;
    memcpy(d->buf[d->n], use, strlen(use) + 1);
    for (size_t i = 0; i < d->n; i++)
        if (strcmp(d->buf[i], d->buf[d->n]) == 0) return;
    d->dirs[d->n] = d->buf[d->n];
    d->n++;
}

void wc_cli_design_dirs(wc_cli_dirs *d)
{
    memset(d, 0, sizeof d->dirs);
    d->n = 0;
    const char *env = getenv("WARPCACHE_DESIGNS");
    for (const char *p = env; p && *p;) {
        size_t len = strcspn(p, ":");
        add_dir(d, p, len);
        p += len;
        if (*p == ':') p++;
    }
    /* Beside the executable: build/warpcache -> configs/designs of the source
     * tree; bin/warpcache -> share/warpcache/designs of an installation. */
    char exe[900];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *dir = dirname(exe);
        char path[1024];
        int len = snprintf(path, sizeof path, "%s/../configs/designs", dir);
        add_dir(d, path, (size_t)len);
        len = snprintf(path, sizeof path, "%s/../share/warpcache/designs", dir);
        add_dir(d, path, (size_t)len);
    }
    add_dir(d, "configs/designs", strlen("configs/designs"));
}

int wc_cli_find_design(const char *name, wc_design_info *info)
{
    wc_cli_dirs d;
    wc_err err = {{0}};
    wc_cli_design_dirs(&d);
    if (wc_design_find(name, d.dirs, d.n, info, &err) < 0) {
        wc_cli_error("option --design: %s", err.msg);
        return -1;
    }
    return 0;
}

int wc_cli_check_inputs(char *const *inputs, const bool *is_trace, size_t n, const char *kernels)
{
    for (size_t i = 0; i < n; i++) {
        wc_err err = {{0}};
        wc_run_spec spec = {.workload = is_trace[i] ? NULL : inputs[i],
                            .trace = is_trace[i] ? inputs[i] : NULL,
                            .kernels = is_trace[i] ? kernels : NULL};
        wc_source *src = wc_run_open_source(&spec, 1, &err);
        if (!src) {
            wc_cli_error("%s", err.msg);
            return -1;
        }
        wc_source_destroy(src);
    }
    return 0;
}

int wc_cli_parse_jobs(const char *v, unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long j = strtoul(v, &end, 10);
    if (errno || end == v || *end || *v == '-' || j < 1 || j > 1024) {
        wc_cli_error("option -j: '%s' is not a thread count from 1 to 1024", v);
        return -1;
    }
    *out = (unsigned)j;
    return 0;
}
