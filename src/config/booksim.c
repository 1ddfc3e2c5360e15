/*
 * booksim.c - reads GPGPU-Sim's interconnect file (-inter_config_file, a
 * booksim/intersim2 configuration) for the values warpcache's crossbar
 * model takes from it (src/mem/xbar.c, -icnt_model islip).
 *
 * A GPGPU-Sim configuration with -network_mode 1 names such a file; GPGPU-Sim
 * opens it from its working directory, which for the files it ships (and
 * Accel-Sim's run folders) is the configuration's own directory, so that is
 * where it is looked for.  When it is there, `-icnt_model auto` becomes
 * `islip:speedup=S,buf=N` with the file's internal_speedup and vc_buf_size
 * (wc_config_load_file); when it is not, the option is reported as ignored
 * and auto becomes islip with its defaults (the values of GPGPU-Sim 4.x's
 * tested files up to Turing).
 *
 * The format: `name = value;` statements, `//` comments to the end of a
 * line, values that are numbers, words or `{...}` lists (which may span
 * lines).  Only four names are read; the rest describe booksim's traffic
 * and simulation modes, which GPGPU-Sim does not use, or router details
 * that are the same in every file GPGPU-Sim ships.  A topology other than
 * fly and a num_vcs other than 1 (booksim's defaults are torus and 16) are
 * reported through `ignored`: the model is one crossbar with one virtual
 * channel.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config/config_internal.h"

typedef struct bk_scan {
    const char *t;
    size_t len, pos;
    int line;
    const char *path;
} bk_scan;

/* Skips blanks, newlines and // comments. */
static void bk_skip(bk_scan *s)
{
    while (s->pos < s->len) {
        char c = s->t[s->pos];
        if (c == '\n') {
            s->line++;
            s->pos++;
        } else if (isspace((unsigned char)c)) {
            s->pos++;
        } else if (c == '/' && s->pos + 1 < s->len && s->t[s->pos + 1] == '/') {
            while (s->pos < s->len && s->t[s->pos] != '\n') s->pos++;
        } else {
            return;
        }
    }
}

/* Reads one statement `name = value ;` into name/value (value: up to the
 * semicolon, a {...} list kept whole).  Returns 1, 0 at the end, -1. */
static int bk_statement(bk_scan *s, char *name, size_t nn, char *value, size_t nv, int *line,
                        bool *cut, wc_err *err)
{
    bk_skip(s);
    if (s->pos >= s->len) return 0;
    *line = s->line;
    size_t n = 0;
    while (s->pos < s->len && (isalnum((unsigned char)s->t[s->pos]) || s->t[s->pos] == '_')) {
        if (n + 1 >= nn) return wc_errf(err, "%s:%d: name too long", s->path, s->line);
        name[n++] = s->t[s->pos++];
    }
    name[n] = 0;
    if (!n)
        return wc_errf(err, "%s:%d: expected a name (\"name = value;\"), found '%c'", s->path,
                       s->line, isprint((unsigned char)s->t[s->pos]) ? s->t[s->pos] : '?');
    bk_skip(s);
    if (s->pos >= s->len || s->t[s->pos] != '=')
        return wc_errf(err, "%s:%d: expected '=' after %s", s->path, s->line, name);
    s->pos++;
    bk_skip(s);
    n = 0;
    int depth = 0;
    while (s->pos < s->len) {
        char c = s->t[s->pos];
        if (c == ';' && depth == 0) break;
        if (c == '/' && s->pos + 1 < s->len && s->t[s->pos + 1] == '/') {
            bk_skip(s);
            continue;
        }
        if (c == '{') depth++;
        if (c == '}' && --depth < 0)
            return wc_errf(err, "%s:%d: '}' without '{' in the value of %s", s->path, s->line,
                           name);
        if (c == '\n') s->line++;
        if (n + 1 < nv) value[n] = c;
        n++; /* a longer value is cut (only short ones are read: wc_booksim_parse) */
        s->pos++;
    }
    if (s->pos >= s->len)
        return wc_errf(err, "%s:%d: the value of %s does not end with ';'", s->path, *line, name);
    s->pos++; /* the ';' */
    *cut = n >= nv;
    if (*cut) n = nv - 1;
    while (n && isspace((unsigned char)value[n - 1])) n--;
    value[n] = 0;
    return 1;
}

int wc_booksim_parse(const char *text, size_t len, const char *path, wc_booksim *out,
                     wc_config_ignored_fn ignored, void *ctx, wc_err *err)
{
    bk_scan s = {text, len, 0, 1, path};
    char name[64], value[64], where[600];
    int line;
    /* booksim's own defaults (booksim_config.cpp) for what a file leaves out */
    out->speedup_x100 = 100;
    out->vc_buf = 8;
    bool one_vc = false, fly = false;
    for (;;) {
        bool cut = false;
        int r = bk_statement(&s, name, sizeof name, value, sizeof value, &line, &cut, err);
        if (r < 0) return -1;
        if (r == 0) {
            if (!one_vc && ignored) ignored(ctx, "num_vcs (booksim; modelled as 1)", path);
            if (!fly && ignored) ignored(ctx, "topology (booksim; modelled as one crossbar)", path);
            return 0;
        }
        snprintf(where, sizeof where, "%s:%d", path, line);
        bool read = strcmp(name, "internal_speedup") == 0 || strcmp(name, "vc_buf_size") == 0 ||
                    strcmp(name, "num_vcs") == 0 || strcmp(name, "topology") == 0;
        if (read && cut) return wc_errf(err, "%s: the value of %s is too long", where, name);
        char *end;
        if (strcmp(name, "internal_speedup") == 0) {
            errno = 0;
            double d = strtod(value, &end);
            if (end == value || *end || errno || !(d >= 0.01 && d <= 64))
                return wc_errf(err, "%s: internal_speedup = %s: must be a number from 0.01 to 64",
                               where, value);
            out->speedup_x100 = (uint32_t)(d * 100 + 0.5);
        } else if (strcmp(name, "vc_buf_size") == 0) {
            errno = 0;
            unsigned long v = strtoul(value, &end, 10);
            if (end == value || *end || errno || v < 1 || v > 65536)
                return wc_errf(err, "%s: vc_buf_size = %s: must be a whole number from 1 to 65536",
                               where, value);
            out->vc_buf = (uint32_t)v;
        } else if (strcmp(name, "num_vcs") == 0) {
            one_vc = strcmp(value, "1") == 0;
        } else if (strcmp(name, "topology") == 0) {
            fly = strcmp(value, "fly") == 0;
        }
    }
}

/* Writes the model chosen out into the configuration, so that a dump of it
 * loads back to the same model wherever it is read. */
static void set_islip(wc_config *cfg, uint32_t speedup_x100, uint32_t buf)
{
    snprintf(cfg->icnt_model, sizeof cfg->icnt_model, "islip:speedup=%u.%02u,buf=%u",
             speedup_x100 / 100, speedup_x100 % 100, buf);
}

/* Reads booksim file `path` into cfg->icnt_model.  Returns 1, changing
 * nothing, when there is no such file. */
static int apply_file(wc_config *cfg, const char *path, wc_config_ignored_fn ignored, void *ctx,
                      wc_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 1;
    /* fopen opens a directory, which then reads as an empty file: booksim's
     * defaults, silently */
    struct stat sb;
    if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
        fclose(f);
        return wc_errf(err, "%s: not a regular file (a booksim configuration is expected)", path);
    }
    char *text = malloc(1 << 20);
    size_t len = text ? fread(text, 1, 1 << 20, f) : 0;
    bool big = text && len == 1 << 20 && fgetc(f) != EOF;
    bool bad = ferror(f) != 0;
    fclose(f);
    if (!text) return wc_errf(err, "%s: out of memory", path);
    if (big || bad) {
        free(text);
        return big ? wc_errf(err, "%s: larger than 1 MiB: not a booksim configuration", path)
                   : wc_errf(err, "%s: cannot read", path);
    }
    wc_booksim b;
    int rc = wc_booksim_parse(text, len, path, &b, ignored, ctx, err);
    free(text);
    if (rc < 0) return -1;
    set_islip(cfg, b.speedup_x100, b.vc_buf);
    return 0;
}

/* Reads the file named by cfg->inter_config_file, looked up in the
 * directory of `config_path`; see the header. */
int wc_booksim_apply(wc_config *cfg, const char *config_path, wc_config_ignored_fn ignored,
                     void *ctx, const char *where, wc_err *err)
{
    char path[sizeof cfg->inter_config_file + 1024];
    const char *slash = strrchr(config_path, '/');
    if (cfg->inter_config_file[0] == '/' || !slash)
        snprintf(path, sizeof path, "%s", cfg->inter_config_file);
    else
        snprintf(path, sizeof path, "%.*s/%s", (int)(slash - config_path), config_path,
                 cfg->inter_config_file);
    int rc = apply_file(cfg, path, ignored, ctx, err);
    if (rc == 1) { /* as GPGPU-Sim's shipped copies often travel without it */
        if (ignored) ignored(ctx, "inter_config_file", where);
        set_islip(cfg, 200, 64); /* -icnt_model auto's values (xbar.h) */
        return 0;
    }
    return rc;
}

int wc_config_read_booksim(wc_config *cfg, const char *path, wc_config_ignored_fn ignored,
                           void *ctx, wc_err *err)
{
    int rc = apply_file(cfg, path, ignored, ctx, err);
    if (rc == 1) return wc_errf(err, "%s: cannot open: %s", path, strerror(errno));
    return rc;
}
