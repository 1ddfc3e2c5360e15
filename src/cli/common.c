/*
 * common.c - options and behaviour every subcommand shares.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"

const wc_opt wc_cli_common_opts[] = {
    {WC_CLI_O_CONFIG, 'c', "config", "FILE",
     "GPGPU-Sim configuration (gpgpusim.config syntax); default: the\n"
     "seeds' Fermi baseline (configs/fermi-16k.config)",
     0},
    {WC_CLI_O_DESIGN, 0, "design", "NAME",
     "apply configs/designs/NAME.config (or a .config path) after the\n"
     "file and before -o; 'warpcache list designs' shows them",
     0},
    {WC_CLI_O_SET, 'o', NULL, "NAME=VALUE",
     "set any option, after the file and design (repeatable); see\n"
     "'warpcache config --options'; l1_sets/l1_assoc/l1_line/l1_size\n"
     "rewrite one field of the L1 geometry",
     WC_OPT_SETTING},
    {WC_CLI_O_LENIENT, 0, "lenient-config", NULL,
     "skip (and list) option names of the --config file that neither\n"
     "warpcache nor GPGPU-Sim knows, instead of stopping on them",
     0},
    {WC_CLI_O_SEED, 0, "seed", "N", "seed of every random choice (default 1)", 0},
    {WC_CLI_O_JSON, 0, "json", "FILE|-", "write statistics as JSON ('-' = stdout)", 0},
    {WC_CLI_O_CSV, 0, "csv", "FILE|-", "write statistics as CSV ('-' = stdout)", 0},
    {WC_CLI_O_QUIET, 'q', "quiet", NULL, "no progress line, no notes on stderr", 0},
    {0},
};

void wc_cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("warpcache: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void wc_cli_common_init(wc_cli_common *c)
{
    memset(c, 0, sizeof *c);
    wc_config_defaults(&c->cfg);
}

/* --seed: strtoull skips blanks and takes a sign ("' -5'" would be 2^64-5)
 * and reads "010" as octal: a digit must come first, and 0x is the only
 * prefix (hex), as in configuration files. */
static int parse_seed(const char *v, uint64_t *out)
{
    char *end;
    errno = 0;
    bool hex = v[0] == '0' && (v[1] == 'x' || v[1] == 'X');
    unsigned long long s = strtoull(v, &end, hex ? 16 : 10);
    if (errno || end == v || *end || !(v[0] >= '0' && v[0] <= '9') ||
        (hex && !((v[2] >= '0' && v[2] <= '9') || (v[2] >= 'a' && v[2] <= 'f') ||
                  (v[2] >= 'A' && v[2] <= 'F')))) {
        wc_cli_error("option --seed: '%s' is not an unsigned integer", v);
        return -1;
    }
    *out = s;
    return 0;
}

int wc_cli_common_take(wc_cli_common *c, const wc_opts *p, int id)
{
    const char *v = p->value;
    switch (id) {
    case WC_CLI_O_CONFIG: c->config_path = v; break;
    case WC_CLI_O_DESIGN: c->design = v; break;
    case WC_CLI_O_SET:
        if (c->n_overrides == sizeof c->overrides / sizeof c->overrides[0]) {
            wc_cli_error("too many -o options");
            return -1;
        }
        c->overrides[c->n_overrides++] = v;
        break;
    case WC_CLI_O_SEED:
        if (parse_seed(v, &c->seed) < 0) return -1;
        c->seed_set = true;
        break;
    case WC_CLI_O_JSON: c->json = v; break;
    case WC_CLI_O_CSV: c->csv = v; break;
    case WC_CLI_O_QUIET: c->quiet = true; break;
    case WC_CLI_O_LENIENT: c->lenient = true; break;
    default: return 0;
    }
    return 1;
}

typedef struct ignored_list {
    char text[2048];
    size_t len;
    unsigned n;
} ignored_list;

/* What a configuration file holds that is not used: GPGPU-Sim options that
 * are not modelled, and (--lenient-config) names nobody knows. */
typedef struct ignored_notes {
    ignored_list unmodelled, unknown;
} ignored_notes;

static void list_add(ignored_list *l, const char *name)
{
    l->n++;
    if (l->len + strlen(name) + 3 < sizeof l->text)
        l->len += (size_t)snprintf(l->text + l->len, sizeof l->text - l->len, "%s%s",
                                   l->n > 1 ? ", " : "", name);
}

static void note_ignored(void *ctx, const char *name, const char *where)
{
    ignored_notes *notes = ctx;
    /* the booksim file's notes read "name (booksim; ...)", and a missing
     * booksim file is reported as -inter_config_file: both are known */
    bool known = wc_config_is_gpgpusim_option(name) || strchr(name, ' ') ||
                 strcmp(name, "inter_config_file") == 0;
    list_add(known ? &notes->unmodelled : &notes->unknown, name);
}

static void print_notes(const char *path, const ignored_notes *notes)
{
    if (notes->unmodelled.n)
        fprintf(stderr, "warpcache: %s: %u options not modelled, ignored: %s\n", path,
                notes->unmodelled.n, notes->unmodelled.text);
    if (notes->unknown.n)
        fprintf(stderr, "warpcache: %s: %u unknown options skipped (--lenient-config): %s\n", path,
                notes->unknown.n, notes->unknown.text);
}

/* Prints a load error; an unknown option name also gets the way around it. */
static void print_load_error(const wc_err *err, bool lenient_helps)
{
    if (lenient_helps && strstr(err->msg, ": unknown option -"))
        wc_cli_error("%s; --lenient-config skips it", err->msg);
    else
        wc_cli_error("%s", err->msg);
}

/* Whether plug-in parameter `name` was set in cfg, even to its default. */
static bool sets_plugin_param(const wc_config *cfg, const char *name)
{
    for (uint32_t i = 0; i < cfg->n_plugin && i < WC_MAX_PLUGIN_PARAMS; i++)
        if (strcmp(cfg->plugin[i].key, name) == 0) return true;
    return false;
}

/* Whether the configuration file (or design) `path` gives option `name` a
 * value other than the built-in default (reloads the file: only on the error
 * path). */
static bool file_sets(const char *path, const char *name)
{
    wc_config *def = malloc(sizeof *def), *fil = malloc(sizeof *fil);
    char a[1024], b[1024];
    wc_err err;
    bool sets = true; /* when in doubt, blame the file, as the library does */
    if (def && fil) {
        wc_config_defaults(def);
        *fil = *def;
        if (wc_config_load_file(fil, path, NULL, NULL, &err) == 0 &&
            wc_config_get(def, name, a, sizeof a) == 0 &&
            wc_config_get(fil, name, b, sizeof b) == 0)
            sets = strcmp(a, b) != 0 || sets_plugin_param(fil, name);
    }
    free(def);
    free(fil);
    return sets;
}

static bool is_geometry_alias(const char *name)
{
    return strcmp(name, "l1_sets") == 0 || strcmp(name, "l1_assoc") == 0 ||
           strcmp(name, "l1_line") == 0 || strcmp(name, "l1_size") == 0;
}

/* Prints a validation error ("SOURCE: option -NAME: reason") naming where
 * option NAME got its value, latest layer first: a sweep's grid value, the
 * last -o that set it, the design, the file, else the built-in defaults.
 * The library only knows the file a configuration was loaded from (and
 * nothing when there is none). */
static void print_invalid(const wc_cli_common *c, const wc_design_info *design,
                          const wc_cli_setting *extra, size_t n_extra, const char *msg)
{
    const char *opt = strstr(msg, "option -");
    if (!opt) {
        wc_cli_error("%s", msg);
        return;
    }
    const char *name = opt + strlen("option -");
    size_t len = strcspn(name, ": ");
    const char *set_by = NULL;
    for (unsigned i = 0; i < c->n_overrides; i++) {
        const char *o = c->overrides[i];
        if (o[0] == '-') o++; /* -o -name=value works too */
        if (strncmp(o, name, len) == 0 && o[len] == '=') set_by = c->overrides[i];
    }
    char option[128];
    snprintf(option, sizeof option, "%.*s", (int)(len < 127 ? len : 127), name);
    for (size_t i = n_extra; i-- > 0;) {
        bool alias = strcmp(option, "gpgpu_cache:dl1") == 0 && is_geometry_alias(extra[i].name);
        if (alias || strcmp(extra[i].name, option) == 0) {
            wc_cli_error("-g %s=%s: %s", extra[i].name, extra[i].value, opt);
            return;
        }
    }
    if (set_by)
        wc_cli_error("-o %s: %s", set_by, opt);
    else if (design && file_sets(design->path, option))
        wc_cli_error("design %s (%s): %s", design->name, design->path, opt);
    else if (c->config_path && file_sets(c->config_path, option))
        wc_cli_error("%s: %s", c->config_path, opt);
    else
        wc_cli_error("built-in defaults: %s", opt);
}

int wc_cli_status_of(const wc_err *err)
{
    /* The library marks its own failures "internal: ..." (a deadlock, an
     * impossible state) and reports exhausted memory as "out of memory";
     * everything else it reports is about the input. */
    if (strncmp(err->msg, "internal:", 9) == 0 || strstr(err->msg, ": internal:") ||
        strstr(err->msg, "out of memory"))
        return WC_EXIT_FAIL;
    return WC_EXIT_USAGE;
}

/* Applies one NAME=VALUE setting; `flag` ("-o", "-g") says where it came from. */
static int apply_setting(wc_config *cfg, const char *name, const char *value, const char *flag)
{
    wc_err err = {{0}};
    char where[160];
    snprintf(where, sizeof where, "%s %.64s=%.80s", flag, name, value);
    int rc = wc_exp_set_option(cfg, name, value, where, &err);
    if (rc < 0) {
        wc_cli_error("%s", err.msg);
        return -1;
    }
    if (rc > 0) {
        char near[128];
        if (wc_config_is_gpgpusim_option(name))
            wc_cli_error("%s: -%s is a GPGPU-Sim option warpcache does not model", where, name);
        else if (wc_config_suggest(name, near, sizeof near))
            wc_cli_error("%s: unknown option '%s' (did you mean '%s'?)", where, name, near);
        else
            wc_cli_error("%s: unknown option '%s' (warpcache config --options lists them)", where,
                         name);
        return -1;
    }
    return 0;
}

/* -o inter_config_file=FILE reads FILE (relative to the current directory)
 * as a configuration file's line does; an explicit crossbar model or a
 * network other than booksim would leave it unread, which is refused. */
static int apply_booksim_override(const char *set_by, wc_config *cfg, bool icnt_set,
                                  ignored_notes *notes)
{
    wc_err err = {{0}};
    if (cfg->network_mode != 1) {
        wc_cli_error("-o %s: the booksim file is read only under -network_mode 1 (this "
                     "configuration has -network_mode %u)",
                     set_by, cfg->network_mode);
        return -1;
    }
    if (icnt_set && strcmp(cfg->icnt_model, "auto") != 0) {
        wc_cli_error("-o %s: not read: -o icnt_model=%s chooses the crossbar model (-icnt_model "
                     "auto takes it from the booksim file)",
                     set_by, cfg->icnt_model);
        return -1;
    }
    if (wc_config_read_booksim(cfg, cfg->inter_config_file, note_ignored, notes, &err) < 0) {
        wc_cli_error("-o %s: %s", set_by, err.msg);
        return -1;
    }
    return 0;
}

/* Whether -o override `o` sets option `name` ("name=..." or "-name=..."). */
static bool override_sets(const char *o, const char *name)
{
    if (o[0] == '-') o++;
    size_t n = strlen(name);
    return strncmp(o, name, n) == 0 && o[n] == '=';
}

/* Builds the simulator the configuration describes and drops it: what only
 * the simulator checks (controllers, memory stage parameters ...) is refused
 * here, so that `config` refuses what `run` would, naming the same source. */
static int probe_simulator(const wc_cli_common *c, const wc_design_info *design,
                           const wc_cli_setting *extra, size_t n_extra, const wc_config *cfg)
{
    wc_err err = {{0}};
    wc_sim *sim = wc_sim_create(cfg, &err);
    int rc = sim ? wc_sim_check(sim, &err) : -1;
    wc_sim_destroy(sim);
    /* Memory running out is not the input's fault: the run reports it (exit
     * status 1) if it happens there too. */
    if (rc == 0 || wc_cli_status_of(&err) != WC_EXIT_USAGE) return 0;
    print_invalid(c, design, extra, n_extra, err.msg);
    return -1;
}

int wc_cli_build_config(const wc_cli_common *c, const char *design, const wc_cli_setting *extra,
                        size_t n_extra, wc_config *out, bool notes)
{
    wc_err err = {{0}};
    ignored_notes ign;
    memset(&ign, 0, sizeof ign);
    unsigned flags = c->lenient ? WC_CONFIG_LENIENT : 0;
    wc_config_defaults(out);
    if (c->config_path &&
        wc_config_load_file_flags(out, c->config_path, flags, note_ignored, &ign, &err) < 0) {
        print_load_error(&err, !c->lenient);
        return -1;
    }
    if (notes && c->config_path) print_notes(c->config_path, &ign);
    wc_design_info d;
    if (design) {
        ignored_notes dign;
        memset(&dign, 0, sizeof dign);
        if (wc_cli_find_design(design, &d) < 0) return -1;
        if (wc_config_load_file(out, d.path, note_ignored, &dign, &err) < 0) {
            wc_cli_error("%s", err.msg);
            return -1;
        }
        /* A design exists to change modelled options: one that is ignored is a mistake. */
        if (dign.unmodelled.n || dign.unknown.n) {
            wc_cli_error("design %s (%s): options not modelled: %s", d.name, d.path,
                         dign.unmodelled.n ? dign.unmodelled.text : dign.unknown.text);
            return -1;
        }
    }
    const char *booksim_by = NULL;
    bool icnt_set = false;
    for (unsigned i = 0; i < c->n_overrides; i++) {
        char name[128];
        const char *eq = strchr(c->overrides[i], '=');
        if (!eq || eq == c->overrides[i] || (size_t)(eq - c->overrides[i]) >= sizeof name) {
            wc_cli_error("-o %s: expected NAME=VALUE", c->overrides[i]);
            return -1;
        }
        snprintf(name, sizeof name, "%.*s", (int)(eq - c->overrides[i]), c->overrides[i]);
        if (apply_setting(out, name, eq + 1, "-o") < 0) return -1;
        if (override_sets(c->overrides[i], "inter_config_file")) booksim_by = c->overrides[i];
        icnt_set |= override_sets(c->overrides[i], "icnt_model");
    }
    if (booksim_by) {
        ignored_notes bign;
        memset(&bign, 0, sizeof bign);
        if (apply_booksim_override(booksim_by, out, icnt_set, &bign) < 0) return -1;
        if (notes) print_notes(out->inter_config_file, &bign);
    }
    for (size_t i = 0; i < n_extra; i++)
        if (apply_setting(out, extra[i].name, extra[i].value, "-g") < 0) return -1;
    if (c->seed_set) out->seed = c->seed;
    if (wc_config_validate(out, &err) < 0) {
        print_invalid(c, design ? &d : NULL, extra, n_extra, err.msg);
        return -1;
    }
    /* GPGPU-Sim's files set options whose mechanism is a warpcache switch,
     * off by default: read and kept, but say that they do nothing now */
    char inert[512];
    unsigned n_inert = wc_config_inert_options(out, inert, sizeof inert);
    if (notes && n_inert)
        fprintf(stderr, "warpcache: %s: %u options read but inactive: %s\n",
                c->config_path ? c->config_path : "-o", n_inert, inert);
    /* Its profile comes from a profiling run the oracle makes first; alone
     * it would silently be the conventional L1. */
    if (strcmp(out->l1_org, "profiled-bypass") == 0) {
        wc_cli_error("option -l1_org: profiled-bypass needs the reference counts of a profiling "
                     "run: run it with `warpcache oracle profiled-bypass`");
        return -1;
    }
    return probe_simulator(c, design ? &d : NULL, extra, n_extra, out);
}

int wc_cli_load_config(wc_cli_common *c)
{
    return wc_cli_build_config(c, c->design, NULL, 0, &c->cfg, !c->quiet);
}

char *wc_cli_read_file(const char *path, size_t *len, bool *missing)
{
    if (missing) *missing = false;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (missing && errno == ENOENT)
            *missing = true;
        else
            wc_cli_error("cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    char *buf = NULL;
    size_t cap = 0;
    for (;;) {
        if (*len + 65536 + 1 > cap) {
            cap = cap ? 2 * cap : 1 << 20;
            char *r = realloc(buf, cap);
            if (!r) {
                free(buf);
                fclose(f);
                wc_cli_error("out of memory reading %s", path);
                return NULL;
            }
            buf = r;
        }
        size_t got = fread(buf + *len, 1, 65536, f);
        *len += got;
        if (got < 65536) break;
    }
    bool bad = ferror(f) != 0;
    fclose(f);
    if (bad) {
        wc_cli_error("cannot read %s", path);
        free(buf);
        return NULL;
    }
    buf[*len] = 0;
    return buf;
}
