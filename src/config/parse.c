/*
 * parse.c - reads gpgpusim.config files (shared/specs/formats.md section 3).
 *
 * Syntax: `-name value` options, one per line (LF, CRLF or a lone CR ends a
 * line: files from old Mac editors use CR alone); `#` starts a comment anywhere
 * outside double quotes; a double-quoted value may span lines (GPGPU-Sim's
 * -gpgpu_dram_timing_opt does).  Every option goes through wc_config_set;
 * GPGPU-Sim options warpcache does not model are reported to the caller's
 * `ignored` callback with "PATH:LINE" so they can be listed once; a name
 * nobody knows (names.c) is an error with the nearest known name.  Errors read
 * "PATH:LINE: ..." with the line where the option started.  The text is
 * loaded into a copy of the configuration so a bad file changes nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_internal.h"

#define MAX_FILE_BYTES (16u << 20)
#define MAX_NAME       128

typedef struct scanner {
    const char *text;
    size_t len, pos;
    int line;
    const char *path;
} scanner;

/* How many characters of the text at `pos` a message may quote (the text is
 * not NUL-terminated when it comes from memory). */
static int quotable(const scanner *s, size_t pos, int max)
{
    size_t left = pos < s->len ? s->len - pos : 0;
    return left < (size_t)max ? (int)left : max;
}

static bool at_end(const scanner *s)
{
    return s->pos >= s->len;
}
static char peek(const scanner *s)
{
    return at_end(s) ? '\n' : s->text[s->pos];
}
static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\v' || c == '\f';
}
static bool is_eol(char c)
{
    return c == '\n' || c == '\r';
}
static bool ends_token(char c)
{
    return is_blank(c) || is_eol(c) || c == '#' || c == '"' || c == '\0';
}
/* Steps over the line end at s->pos (CRLF is one line end). */
static void skip_eol(scanner *s)
{
    if (s->text[s->pos] == '\r' && s->pos + 1 < s->len && s->text[s->pos + 1] == '\n') s->pos++;
    s->pos++;
    s->line++;
}

static void skip_blanks(scanner *s)
{
    while (!at_end(s) && is_blank(s->text[s->pos])) s->pos++;
}
static void skip_comment(scanner *s)
{
    while (!at_end(s) && !is_eol(s->text[s->pos])) s->pos++;
}

/* Reads the option name after '-' into name[MAX_NAME]. */
static int scan_name(scanner *s, char *name, wc_err *err)
{
    size_t start = s->pos;
    while (!at_end(s) && !ends_token(s->text[s->pos])) s->pos++;
    size_t n = s->pos - start;
    if (n == 0) return wc_errf(err, "%s:%d: '-' without an option name", s->path, s->line);
    if (n >= MAX_NAME)
        return wc_errf(err, "%s:%d: option name \"%.*s...\" is too long", s->path, s->line,
                       quotable(s, start, 40), s->text + start);
    memcpy(name, s->text + start, n);
    name[n] = '\0';
    return 0;
}

/* Reads the value of option `name` (started on line opt_line) into value,
 * which has room for the whole text. */
static int scan_value(scanner *s, const char *name, int opt_line, char *value, wc_err *err)
{
    skip_blanks(s);
    char c = peek(s);
    if (is_eol(c) || c == '#')
        return wc_errf(err, "%s:%d: option -%s has no value", s->path, opt_line, name);
    size_t start, end;
    if (c == '"') {
        start = ++s->pos;
        while (!at_end(s) && s->text[s->pos] != '"') {
            bool crlf =
                s->text[s->pos] == '\r' && s->pos + 1 < s->len && s->text[s->pos + 1] == '\n';
            if (is_eol(s->text[s->pos]) && !crlf) s->line++;
            s->pos++;
        }
        if (at_end(s))
            return wc_errf(err, "%s:%d: option -%s: quoted value has no closing '\"'", s->path,
                           opt_line, name);
        end = s->pos++;
    } else {
        start = s->pos;
        while (!at_end(s) && !ends_token(s->text[s->pos])) s->pos++;
        end = s->pos;
        if (peek(s) == '"')
            return wc_errf(err, "%s:%d: option -%s: stray '\"' inside the value", s->path, s->line,
                           name);
    }
    if (memchr(s->text + start, '\0', end - start))
        return wc_errf(err, "%s:%d: option -%s: NUL byte in the value", s->path, s->line, name);
    memcpy(value, s->text + start, end - start);
    value[end - start] = '\0';
    skip_blanks(s);
    c = peek(s);
    if (!is_eol(c) && c != '#')
        return wc_errf(err,
                       "%s:%d: option -%s: unexpected text \"%.*s\" after the value "
                       "(quote a value that contains blanks)",
                       s->path, s->line, name, quotable(s, s->pos, 20), s->text + s->pos);
    return 0;
}

/* An option warpcache does not model: GPGPU-Sim's are skipped (reported to
 * `ignored`), a name nobody knows is a typo unless the caller is lenient. */
static int unmodelled(const char *name, const char *where, unsigned flags,
                      wc_config_ignored_fn ignored, void *ctx, wc_err *err)
{
    char near[MAX_NAME];
    if (!(flags & WC_CONFIG_LENIENT) && !wc_config_is_gpgpusim_option(name)) {
        if (wc_config_suggest(name, near, sizeof near))
            return wc_errf(err, "%s: unknown option -%s (did you mean -%s?)", where, name, near);
        return wc_errf(err, "%s: unknown option -%s (neither warpcache nor GPGPU-Sim has it)",
                       where, name);
    }
    if (ignored) ignored(ctx, name, where);
    return 0;
}

/* One `-name value` at s->pos (which holds the '-'). */
static int load_option(scanner *s, wc_config *cfg, char *value, unsigned flags,
                       wc_config_ignored_fn ignored, void *ctx, wc_err *err)
{
    char name[MAX_NAME], where[600];
    int opt_line = s->line;
    s->pos++;
    if (scan_name(s, name, err) < 0 || scan_value(s, name, opt_line, value, err) < 0) return -1;
    snprintf(where, sizeof where, "%s:%d", s->path, opt_line);
    int r = wc_config_set(cfg, name, value, where, err);
    if (r < 0) return -1;
    if (r == 1) return unmodelled(name, where, flags, ignored, ctx, err);
    return 0;
}

int wc_config_load_text(wc_config *cfg, const char *text, size_t len, const char *name,
                        wc_config_ignored_fn ignored, void *ctx, wc_err *err)
{
    return wc_config_load_text_flags(cfg, text, len, name, 0, ignored, ctx, err);
}

int wc_config_load_text_flags(wc_config *cfg, const char *text, size_t len, const char *name,
                              unsigned flags, wc_config_ignored_fn ignored, void *ctx, wc_err *err)
{
    scanner s = {text, len, 0, 1, name ? name : "(config)"};
    char *value = malloc(len + 1);
    wc_config *tmp = malloc(sizeof *tmp);
    int rc = 0;
    if (!value || !tmp) {
        rc = wc_errf(err, "%s: out of memory", s.path);
        goto done;
    }
    memcpy(tmp, cfg, sizeof *tmp);
    snprintf(tmp->source_file, sizeof tmp->source_file, "%s", s.path);
    while (rc == 0 && !at_end(&s)) {
        char c = s.text[s.pos];
        if (is_eol(c)) {
            skip_eol(&s);
        } else if (is_blank(c)) {
            s.pos++;
        } else if (c == '#') {
            skip_comment(&s);
        } else if (c == '-') {
            rc = load_option(&s, tmp, value, flags, ignored, ctx, err);
        } else {
            rc = wc_errf(err,
                         "%s:%d: expected an option (\"-name value\") or a comment, found \"%.*s\"",
                         s.path, s.line, quotable(&s, s.pos, 20), s.text + s.pos);
        }
    }
    if (rc == 0) memcpy(cfg, tmp, sizeof *tmp);
done:
    free(value);
    free(tmp);
    return rc;
}

/* Reads the whole file into a malloc'd buffer (pipes included). */
static int read_all(const char *path, char **out, size_t *out_len, wc_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) return wc_errf(err, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    int rc = 0;
    while (buf) {
        if (len == cap) {
            char *bigger = cap >= MAX_FILE_BYTES ? NULL : realloc(buf, cap * 2);
            if (!bigger) {
                rc = wc_errf(err, "%s: file is larger than %u MiB", path, MAX_FILE_BYTES >> 20);
                break;
            }
            buf = bigger;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) {
            if (ferror(f)) rc = wc_errf(err, "%s: cannot read: %s", path, strerror(errno));
            break;
        }
    }
    if (!buf) rc = wc_errf(err, "%s: out of memory", path);
    fclose(f);
    if (rc < 0) {
        free(buf);
        return rc;
    }
    *out = buf;
    *out_len = len;
    return 0;
}

int wc_config_load_file(wc_config *cfg, const char *path, wc_config_ignored_fn ignored, void *ctx,
                        wc_err *err)
{
    return wc_config_load_file_flags(cfg, path, 0, ignored, ctx, err);
}

int wc_config_load_file_flags(wc_config *cfg, const char *path, unsigned flags,
                              wc_config_ignored_fn ignored, void *ctx, wc_err *err)
{
    char *text = NULL;
    size_t len = 0;
    if (read_all(path, &text, &len, err) < 0) return -1;
    char before[sizeof cfg->inter_config_file];
    memcpy(before, cfg->inter_config_file, sizeof before);
    int rc = wc_config_load_text_flags(cfg, text, len, path, flags, ignored, ctx, err);
    free(text);
    /* GPGPU-Sim's booksim file, named by this file: its router's values
     * (booksim.c), when the crossbar model is left to choose itself */
    if (rc == 0 && cfg->network_mode == 1 && strcmp(cfg->icnt_model, "auto") == 0 &&
        cfg->inter_config_file[0] && strcmp(before, cfg->inter_config_file) != 0)
        rc = wc_booksim_apply(cfg, path, ignored, ctx, path, err);
    return rc;
}
