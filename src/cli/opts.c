/*
 * opts.c - the table-driven GNU-style option parser of every command and
 * the help text printed from the same tables (opts.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opts.h"
#include "util/nearest.h"

void wc_opts_init(wc_opts *p, const char *cmd, const wc_opt *const *tables, int argc, char **argv)
{
    memset(p, 0, sizeof *p);
    p->cmd = cmd;
    p->tables = tables;
    p->argc = argc;
    p->argv = argv;
    p->next = 1;
}

static const wc_opt *find_long(const wc_opts *p, const char *name, size_t len)
{
    for (const wc_opt *const *t = p->tables; *t; t++)
        for (const wc_opt *o = *t; o->id; o++)
            if (o->long_name && strlen(o->long_name) == len &&
                strncmp(o->long_name, name, len) == 0)
                return o;
    return NULL;
}

static const wc_opt *find_short(const wc_opts *p, char c)
{
    for (const wc_opt *const *t = p->tables; *t; t++)
        for (const wc_opt *o = *t; o->id; o++)
            if (o->short_name && o->short_name == c) return o;
    return NULL;
}

const char *wc_opts_name(const wc_opts *p)
{
    return p->as_given;
}

/* The nearest option to what was typed ("--confg", "-workload"), as it is
 * spelt: "--config"; "" when none is close. */
static void suggest(const wc_opts *p, const char *typed, char *buf, size_t cap)
{
    char name[128];
    typed += strspn(typed, "-");
    snprintf(name, sizeof name, "%.*s", (int)strcspn(typed, "="), typed);
    buf[0] = 0;
    if (!name[0]) return;
    wc_nearest near;
    wc_nearest_init(&near, name);
    for (const wc_opt *const *t = p->tables; *t; t++)
        for (const wc_opt *o = *t; o->id; o++) {
            /* the right name with the wrong number of dashes */
            if (o->long_name && strcmp(o->long_name, name) == 0) {
                snprintf(buf, cap, "--%s", o->long_name);
                return;
            }
            if (o->short_name && name[0] == o->short_name && !name[1]) {
                snprintf(buf, cap, "-%c", o->short_name);
                return;
            }
            wc_nearest_consider(&near, o->long_name);
        }
    if (strcmp(name, "help") != 0 && wc_nearest_best(&near)) snprintf(buf, cap, "--%s", near.best);
}

static int unknown(const wc_opts *p, const char *arg)
{
    char near[160];
    suggest(p, arg, near, sizeof near);
    if (near[0])
        wc_cli_error("%s: unknown option '%s' (did you mean %s? 'warpcache %s --help' lists them)",
                     p->cmd, arg, near, p->cmd);
    else
        wc_cli_error("%s: unknown option '%s' ('warpcache %s --help' lists them)", p->cmd, arg,
                     p->cmd);
    return WC_OPT_BAD;
}

/* Whether a separate value is rather the next option: "-q", "--json";
 * not "-" (stdin/stdout), a negative number, or -name=value where the
 * option takes NAME=VALUE. */
static bool looks_like_option(const char *v, unsigned flags)
{
    if (v[0] != '-' || !v[1]) return false;
    if ((v[1] >= '0' && v[1] <= '9') || v[1] == '.') return false;
    if ((flags & WC_OPT_SETTING) && v[1] != '-' && strchr(v, '=')) return false;
    return true;
}

/* "a file name" for FILE, PATH and DIR values, else the value's name. */
static const char *what_value(const char *arg)
{
    if (strstr(arg, "DIR")) return "a folder name";
    if (strstr(arg, "FILE") || strstr(arg, "PATH") || strstr(arg, "OUT")) return "a file name";
    return NULL;
}

static int take_separate_value(wc_opts *p, const wc_opt *o)
{
    const char *what = what_value(o->arg);
    if (p->next >= p->argc) {
        if (what)
            wc_cli_error("%s: option %s needs a value: %s (%s)", p->cmd, p->as_given, what, o->arg);
        else
            wc_cli_error("%s: option %s needs a value (%s)", p->cmd, p->as_given, o->arg);
        return WC_OPT_BAD;
    }
    const char *v = p->argv[p->next];
    if (looks_like_option(v, o->flags)) {
        bool is_long = p->as_given[1] == '-';
        wc_cli_error("%s: option %s needs %s (%s), but '%s' is an option; if '%s' is meant, "
                     "write %s%s%s",
                     p->cmd, p->as_given, what ? what : "a value", o->arg, v, v, p->as_given,
                     is_long ? "=" : "", v);
        return WC_OPT_BAD;
    }
    p->next++;
    p->value = v;
    return o->id;
}

int wc_opts_next(wc_opts *p)
{
    p->opt = NULL;
    p->value = NULL;
    p->as_given[0] = 0;
    if (p->next >= p->argc) return WC_OPT_DONE;
    const char *a = p->argv[p->next++];
    if (p->only_args || a[0] != '-' || !a[1]) {
        p->value = a;
        return WC_OPT_ARG;
    }
    if (strcmp(a, "--") == 0) {
        p->only_args = true;
        return wc_opts_next(p);
    }
    const wc_opt *o;
    if (a[1] == '-') {
        const char *name = a + 2, *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        snprintf(p->as_given, sizeof p->as_given, "--%.*s", (int)len, name);
        if (!(o = find_long(p, name, len))) {
            if (!eq && strcmp(name, "help") == 0) return WC_OPT_HELP;
            return unknown(p, a);
        }
        p->opt = o;
        if (!o->arg && eq) {
            wc_cli_error("%s: option %s takes no value (got '%s')", p->cmd, p->as_given, a);
            return WC_OPT_BAD;
        }
        if (!o->arg) return o->id;
        if (eq) {
            p->value = eq + 1;
            return o->id;
        }
        return take_separate_value(p, o);
    }
    snprintf(p->as_given, sizeof p->as_given, "-%c", a[1]);
    if (!(o = find_short(p, a[1]))) {
        if (a[1] == 'h' && !a[2]) return WC_OPT_HELP;
        return unknown(p, a);
    }
    p->opt = o;
    if (!o->arg) return a[2] ? unknown(p, a) : o->id; /* no bundling: -qv is no option */
    if (a[2]) {
        p->value = a + 2;
        return o->id;
    }
    return take_separate_value(p, o);
}

/* ---- help ------------------------------------------------------------------ */

#define HELP_COLUMN 23 /* where the explanations start */

static void print_option(FILE *f, const wc_opt *o)
{
    char left[160];
    int n;
    if (o->short_name && o->long_name)
        n = snprintf(left, sizeof left, "  -%c, --%s", o->short_name, o->long_name);
    else if (o->short_name)
        n = snprintf(left, sizeof left, "  -%c", o->short_name);
    else
        n = snprintf(left, sizeof left, "  --%s", o->long_name);
    if (o->arg && n >= 0 && (size_t)n < sizeof left)
        snprintf(left + n, sizeof left - (size_t)n, " %s", o->arg);
    fputs(left, f);
    size_t used = strlen(left);
    if (used + 2 > HELP_COLUMN) {
        fputc('\n', f);
        used = 0;
    }
    for (const char *line = o->help; *line;) {
        size_t len = strcspn(line, "\n");
        fprintf(f, "%*s%.*s\n", (int)(HELP_COLUMN - used), "", (int)len, line);
        used = 0;
        line += len;
        if (*line) line++;
    }
}

/* Whether an option before `o` (in its table or an earlier one) has its
 * name: a command may word a common option its own way (sweep's --csv). */
static bool shown_before(const wc_opt *const *tables, const wc_opt *o)
{
    for (const wc_opt *const *t = tables; *t; t++)
        for (const wc_opt *e = *t; e->id; e++) {
            if (e == o) return false;
            if (e->help && ((o->long_name && e->long_name && !strcmp(e->long_name, o->long_name)) ||
                            (o->short_name && e->short_name == o->short_name)))
                return true;
        }
    return false;
}

char *wc_opts_help_text(const wc_opt *const *tables)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return NULL;
    for (const wc_opt *const *t = tables; *t; t++)
        for (const wc_opt *o = *t; o->id; o++)
            if (o->help && !shown_before(tables, o)) print_option(f, o);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

void wc_opts_print_help(const char *fmt, const wc_opt *const *tables)
{
    char *text = wc_opts_help_text(tables);
    printf(fmt, text ? text : "");
    free(text);
}
