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

const char wc_cli_common_help[] =
    "  --config FILE     GPGPU-Sim configuration (gpgpusim.config syntax); default: the\n"
    "                    seeds' Fermi baseline (configs/fermi-16k.config)\n"
    "  --design NAME     apply configs/designs/NAME.config (or a .config path) after the\n"
    "                    file and before -o; 'warpcache list designs' shows them\n"
    "  -o NAME=VALUE     set any option, after the file and design (repeatable); see\n"
    "                    'warpcache config --options'; l1_sets/l1_assoc/l1_line/l1_size\n"
    "                    rewrite one field of the L1 geometry\n"
    "  --seed N          seed of every random choice (default 1)\n"
    "  --json FILE|-     write statistics as JSON ('-' = stdout)\n"
    "  --csv FILE|-      write statistics as CSV ('-' = stdout)\n"
    "  -q, --quiet       no progress line, no notes on stderr\n";

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

static const char *value_of(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        wc_cli_error("option %s needs a value", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

int wc_cli_common_arg(wc_cli_common *c, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    const char *v;
    if (strcmp(a, "--config") == 0 || strcmp(a, "-c") == 0) {
        if (!(v = value_of(argc, argv, i))) return -1;
        c->config_path = v;
    } else if (strcmp(a, "--design") == 0) {
        if (!(v = value_of(argc, argv, i))) return -1;
        c->design = v;
    } else if (strcmp(a, "-o") == 0) {
        if (!(v = value_of(argc, argv, i))) return -1;
        if (c->n_overrides == sizeof c->overrides / sizeof c->overrides[0]) {
            wc_cli_error("too many -o options");
            return -1;
        }
        c->overrides[c->n_overrides++] = v;
    } else if (strcmp(a, "--seed") == 0) {
        if (!(v = value_of(argc, argv, i))) return -1;
        char *end;
        errno = 0;
        /* strtoull skips blanks and takes a sign ("' -5'" would be 2^64-5)
         * and reads "010" as octal: a digit must come first, and 0x is the
         * only prefix (hex), as in configuration files. */
        bool hex = v[0] == '0' && (v[1] == 'x' || v[1] == 'X');
        unsigned long long s = strtoull(v, &end, hex ? 16 : 10);
        if (errno || end == v || *end || !(v[0] >= '0' && v[0] <= '9') ||
            (hex && !((v[2] >= '0' && v[2] <= '9') || (v[2] >= 'a' && v[2] <= 'f') ||
                      (v[2] >= 'A' && v[2] <= 'F')))) {
            wc_cli_error("option --seed: '%s' is not an unsigned integer", v);
            return -1;
        }
        c->seed = s;
        c->seed_set = true;
    } else if (strcmp(a, "--json") == 0) {
        if (!(v = value_of(argc, argv, i))) return -1;
        c->json = v;
    } else if (strcmp(a, "--csv") == 0) {
        if (!(v = value_of(argc, argv, i))) return -1;
        c->csv = v;
    } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
        c->quiet = true;
    } else {
        return 0;
    }
    return 1;
}

typedef struct ignored_list {
    char text[2048];
    size_t len;
    unsigned n;
} ignored_list;

static void note_ignored(void *ctx, const char *name, const char *where)
{
    ignored_list *l = ctx;
    l->n++;
    if (l->len + strlen(name) + 3 < sizeof l->text)
        l->len += (size_t)snprintf(l->text + l->len, sizeof l->text - l->len, "%s%s",
                                   l->n > 1 ? ", " : "", name);
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
            sets = strcmp(a, b) != 0;
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
        wc_cli_error("%s: unknown option '%s' (warpcache config --options lists them)", where,
                     name);
        return -1;
    }
    return 0;
}

int wc_cli_build_config(const wc_cli_common *c, const char *design, const wc_cli_setting *extra,
                        size_t n_extra, wc_config *out, bool notes)
{
    wc_err err = {{0}};
    ignored_list ign = {{0}, 0, 0};
    wc_config_defaults(out);
    if (c->config_path && wc_config_load_file(out, c->config_path, note_ignored, &ign, &err) < 0) {
        wc_cli_error("%s", err.msg);
        return -1;
    }
    if (ign.n && notes)
        fprintf(stderr, "warpcache: %s: %u options not modelled, ignored: %s\n", c->config_path,
                ign.n, ign.text);
    wc_design_info d;
    if (design) {
        ignored_list dign = {{0}, 0, 0};
        if (wc_cli_find_design(design, &d) < 0) return -1;
        if (wc_config_load_file(out, d.path, note_ignored, &dign, &err) < 0) {
            wc_cli_error("%s", err.msg);
            return -1;
        }
        /* A design exists to change modelled options: one that is ignored is a mistake. */
        if (dign.n) {
            wc_cli_error("design %s (%s): options not modelled: %s", d.name, d.path, dign.text);
            return -1;
        }
    }
    for (unsigned i = 0; i < c->n_overrides; i++) {
        char name[128];
        const char *eq = strchr(c->overrides[i], '=');
        if (!eq || eq == c->overrides[i] || (size_t)(eq - c->overrides[i]) >= sizeof name) {
            wc_cli_error("-o %s: expected NAME=VALUE", c->overrides[i]);
            return -1;
        }
        snprintf(name, sizeof name, "%.*s", (int)(eq - c->overrides[i]), c->overrides[i]);
        if (apply_setting(out, name, eq + 1, "-o") < 0) return -1;
    }
    for (size_t i = 0; i < n_extra; i++)
        if (apply_setting(out, extra[i].name, extra[i].value, "-g") < 0) return -1;
    if (c->seed_set) out->seed = c->seed;
    if (wc_config_validate(out, &err) < 0) {
        print_invalid(c, design ? &d : NULL, extra, n_extra, err.msg);
        return -1;
    }
    /* Its profile comes from a profiling run the oracle makes first; alone
     * it would silently be the conventional L1. */
    if (strcmp(out->l1_org, "profiled-bypass") == 0) {
        wc_cli_error("option -l1_org: profiled-bypass needs the reference counts of a profiling "
                     "run: run it with `warpcache oracle profiled-bypass`");
        return -1;
    }
    return 0;
}

int wc_cli_load_config(wc_cli_common *c)
{
    return wc_cli_build_config(c, c->design, NULL, 0, &c->cfg, !c->quiet);
}

/* ---- progress ------------------------------------------------------------ */

double wc_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void wc_progress_init(wc_progress *p, const char *label, bool quiet)
{
    p->enabled = !quiet && isatty(2);
    p->t0 = wc_now_seconds();
    p->label = label;
}

void wc_progress_cb(void *ctx, const wc_kernel *k, uint64_t done, uint64_t total, uint64_t cycle)
{
    wc_progress *p = ctx;
    if (!p->enabled) return;
    double el = wc_now_seconds() - p->t0;
    double frac = total ? (double)done / (double)total : 1.0;
    fprintf(stderr,
            "\r\033[K%s: kernel %u %.24s: %5.1f%% of %llu blocks, cycle %llu (%.2f M cycles/s), "
            "%.1fs",
            p->label, k->id, k->name, 100.0 * frac, (unsigned long long)total,
            (unsigned long long)cycle, el > 0 ? (double)cycle / el / 1e6 : 0.0, el);
    if (frac > 0.01 && frac < 1.0) fprintf(stderr, ", kernel ETA %.0fs", el * (1.0 - frac) / frac);
    fflush(stderr);
}

void wc_progress_end(wc_progress *p)
{
    if (p->enabled) fputs("\r\033[K", stderr);
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
