/*
 * cmd_validate_hw.c - `warpcache validate --hw FILE`: the simulator against a
 * real GPU's counters (issue 17, item 5).  Reads an Nsight Compute CSV export
 * (src/hw/ncu_csv.c), simulates the workload or trace it was measured on
 * with the given configuration, pairs the launches by kernel name and
 * occurrence, and prints per kernel the hardware and simulated L1 hit rate,
 * L2 read sectors and cycles with their errors, and the mean absolute errors
 * - the report performance engineers ask for.  cmd_validate.c hands over to
 * it when --hw is given.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "hw/ncu_csv.h"
#include "report/report.h"

static const char hw_help[] =
    "usage: warpcache validate --hw FILE.csv (--workload NAME ... | --trace PATH) [options]\n"
    "\n"
    "Compares the simulator with a real GPU: FILE.csv is an Nsight Compute export of the\n"
    "program the workload or trace stands for, e.g.\n"
    "  ncu --csv --print-units base --metrics \\\n"
    "    l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,\\\n"
    "    lts__t_sectors_srcunit_tex_op_read.sum,gpc__cycles_elapsed.max ./app > hw.csv\n"
    "(the details page or --page raw).  Launches are paired with the simulated kernels by\n"
    "name and occurrence (the 2nd launch of f with the 2nd simulated f), or with --launches\n"
    "by position: the listed launches (the file's ID column), in order, with the simulated\n"
    "kernels of the workloads, in order, whatever their names.  Prints per kernel the L1 hit\n"
    "rate (global loads), L2 read sectors and cycles of both, their errors, and the mean\n"
    "absolute errors.  One run simulates one L1 size: launches measured with different\n"
    "shared-memory carveouts (a unified L1/shared array) are named on stderr; run each\n"
    "carveout with its own -o l1_assoc=N.  Metrics read, most specific first:\n"
    "%s"
    "\n"
    "%s"
    "\n"
    "Use the configuration of the GPU that was measured (e.g. configs/h100.config).\n"
    "Exit status: 0 ok, 2 bad input (also: no launch matches a simulated kernel), 1 an\n"
    "internal failure or a write that failed once the output was open (a full disk); an\n"
    "output that cannot be created is bad input.\n";

enum { O_HW = 1, O_WORKLOAD, O_TRACE, O_KERNELS, O_LAUNCHES };
static const wc_opt hw_table[] = {
    {O_HW, 0, "hw", "FILE", "the Nsight Compute CSV export", 0},
    {O_WORKLOAD, 'w', "workload", "NAME",
     "built-in workload (with parameters) that issues the same addresses; repeatable: "
     "their kernels in order",
     0},
    {O_TRACE, 't', "trace", "PATH", "or an NVBit/Accel-Sim, .trc or .wct trace of the program", 0},
    {O_KERNELS, 0, "kernels", "LIST", "with --trace: simulate only these kernels", 0},
    {O_LAUNCHES, 0, "launches", "IDS",
     "pair these launches (ID column; 20-25,43 ...), in order, with the simulated kernels", 0},
    {0},
};
static const wc_opt *const hw_tables[] = {hw_table, wc_cli_common_opts, NULL};

typedef struct hw_row {
    char kernel[256];
    uint32_t id;            /* the kernel's launch number, counted over the workloads in order */
    const wc_hw_kernel *hw; /* NULL: no launch of this kernel in the file */
    double sim_l1, sim_l2, sim_cycles;
} hw_row;

enum { MAX_WORKLOADS = 64, MAX_LAUNCHES = 1024 };

typedef struct hw_cli {
    wc_cli_common c;
    const char *hw_path, *trace, *kernels, *launches;
    const char *workloads[MAX_WORKLOADS];
    unsigned n_workloads;
    char simulated[2048]; /* the workloads or trace, for the outputs' header */
    wc_hw_set hw;
    long listed[MAX_LAUNCHES]; /* --launches: indices into hw.k, in the order given */
    size_t n_listed;
    hw_row *rows;
    size_t n_rows, cap_rows;
    bool *hw_used; /* per launch of the file: paired with a simulated kernel */
    char config_name[600];
} hw_cli;

static int parse(hw_cli *v, int argc, char **argv)
{
    /* before the values: "--hw --help" asks for help */
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            char *text = wc_opts_help_text(hw_tables);
            printf(hw_help, wc_ncu_metrics_help, text ? text : "");
            free(text);
            return 1;
        }
    wc_opts p;
    wc_opts_init(&p, "validate --hw", hw_tables, argc, argv);
    for (int id; (id = wc_opts_next(&p)) != WC_OPT_DONE;) {
        int rc = wc_cli_common_take(&v->c, &p, id);
        if (rc < 0) return -1;
        if (rc > 0) continue;
        const char **dst = NULL;
        switch (id) {
        case WC_OPT_BAD: return -1;
        case WC_OPT_ARG:
            wc_cli_error("validate --hw: unexpected argument '%s' (warpcache validate --hw --help)",
                         p.value);
            return -1;
        case O_HW: dst = &v->hw_path; break;
        case O_WORKLOAD:
            if (v->n_workloads == MAX_WORKLOADS) {
                wc_cli_error("validate --hw: more than %d workloads", MAX_WORKLOADS);
                return -1;
            }
            v->workloads[v->n_workloads++] = p.value;
            continue;
        case O_TRACE: dst = &v->trace; break;
        case O_KERNELS: dst = &v->kernels; break;
        case O_LAUNCHES: dst = &v->launches; break;
        }
        if (!dst) continue;
        if (*dst) {
            wc_cli_error("validate --hw: %s given twice", wc_opts_name(&p));
            return -1;
        }
        *dst = p.value;
    }
    if (!v->hw_path) {
        wc_cli_error("validate --hw: give the Nsight Compute CSV file after --hw");
        return -1;
    }
    if (!v->n_workloads == !v->trace) {
        wc_cli_error("validate --hw: give exactly one of --workload and --trace");
        return -1;
    }
    if (v->kernels && !v->trace) {
        wc_cli_error("validate --hw: --kernels applies to --trace only");
        return -1;
    }
    const char *outs[] = {v->c.json, v->c.csv}, *names[] = {"--json", "--csv"};
    const char *ins[] = {v->hw_path, v->trace};
    return wc_out_check_io(&v->c, ins, 2, outs, names, 2);
}

/* The base name of a simulated kernel: traces carry mangled names
 * ("_Z12atax_kernel1PfS_S_" -> "atax_kernel1"); built-in workloads plain ones. */
static void sim_base_name(const char *name, char *out, size_t cap)
{
    if (strncmp(name, "_Z", 2) == 0 && name[2] >= '1' && name[2] <= '9') {
        char *end;
        unsigned long n = strtoul(name + 2, &end, 10);
        if (n > 0 && n < cap && strlen(end) >= n) {
            memcpy(out, end, n);
            out[n] = '\0';
            return;
        }
    }
    snprintf(out, cap, "%s", name);
}

/* The `occ`-th (0-based) launch of kernel `name` in the file, or -1. */
static long find_launch(const wc_hw_set *hw, const char *name, unsigned occ)
{
    for (size_t i = 0; i < hw->n; i++)
        if (strcmp(hw->k[i].name, name) == 0 && occ-- == 0) return (long)i;
    return -1;
}

/* The launch whose ID column reads `id`, or -1. */
static long launch_by_id(const wc_hw_set *hw, const char *id)
{
    for (size_t i = 0; i < hw->n; i++)
        if (strcmp(hw->k[i].id, id) == 0) return (long)i;
    return -1;
}

static int list_launch(hw_cli *v, const char *id)
{
    long h = launch_by_id(&v->hw, id);
    if (h < 0) {
        wc_cli_error("validate --hw: --launches: %s has no launch with ID '%s'", v->hw_path, id);
        return -1;
    }
    if (v->n_listed == MAX_LAUNCHES) {
        wc_cli_error("validate --hw: --launches: more than %d launches", MAX_LAUNCHES);
        return -1;
    }
    v->listed[v->n_listed++] = h;
    return 0;
}

/* --launches "20-25,43": IDs and inclusive ranges of numeric IDs, each of
 * which must be in the file (a range with a gap is an error, not skipped). */
static int parse_launches(hw_cli *v)
{
    const char *p = v->launches;
    for (;;) {
        size_t n = strcspn(p, ",");
        char tok[64];
        if (n == 0 || n >= sizeof tok) {
            wc_cli_error("validate --hw: --launches '%s': expected IDs or ranges A-B separated by "
                         "commas",
                         v->launches);
            return -1;
        }
        memcpy(tok, p, n);
        tok[n] = '\0';
        char *dash = strchr(tok, '-'), *e1, *e2;
        if (dash) {
            *dash = '\0';
            unsigned long a = strtoul(tok, &e1, 10), b = strtoul(dash + 1, &e2, 10);
            if (e1 == tok || *e1 || e2 == dash + 1 || *e2 || b < a || b - a >= MAX_LAUNCHES) {
                wc_cli_error("validate --hw: --launches: '%s-%s' is not a range A-B of launch IDs "
                             "with A <= B",
                             tok, dash + 1);
                return -1;
            }
            for (unsigned long i = a; i <= b; i++) {
                char id[32];
                snprintf(id, sizeof id, "%lu", i);
                if (list_launch(v, id) < 0) return -1;
            }
        } else if (list_launch(v, tok) < 0) {
            return -1;
        }
        if (!p[n]) return 0;
        p += n + 1;
    }
}

/* Appends st's kernels as rows; `first_id` numbers them on from the kernels
 * of the workloads simulated before. */
static int add_rows(hw_cli *v, const wc_stats *st, uint32_t first_id)
{
    for (size_t k = 0; k < st->n_kernels; k++) {
        if (v->n_rows == v->cap_rows) {
            size_t cap = v->cap_rows ? 2 * v->cap_rows : 16;
            hw_row *r = realloc(v->rows, cap * sizeof *r);
            if (!r) {
                wc_cli_error("validate --hw: out of memory");
                return WC_EXIT_FAIL;
            }
            v->rows = r;
            v->cap_rows = cap;
        }
        const wc_kstats *ks = &st->kernels[k];
        hw_row *r = &v->rows[v->n_rows++];
        memset(r, 0, sizeof *r);
        sim_base_name(ks->name, r->kernel, sizeof r->kernel);
        r->id = first_id + ks->id;
        r->sim_l1 = 100.0 * (1.0 - wc_kstats_l1_read_miss_rate(ks));
        r->sim_l2 = (double)ks->l2.read_bytes / 32.0;
        r->sim_cycles = (double)ks->cycles;
    }
    return WC_EXIT_OK;
}

/* Names the paired launches when they ran with different shared-memory
 * carveouts: on a unified L1/shared array their L1 sizes differ, and this
 * run simulates all of them with one L1. */
static void note_carveouts(const hw_cli *v)
{
    double first = NAN;
    bool differ = false;
    for (size_t i = 0; i < v->n_rows; i++) {
        const wc_hw_kernel *h = v->rows[i].hw;
        if (!h || isnan(h->shmem_config_bytes)) continue;
        if (isnan(first)) first = h->shmem_config_bytes;
        differ |= h->shmem_config_bytes != first;
    }
    if (!differ) return;
    const wc_cache_geom *g = &v->c.cfg.l1;
    fprintf(stderr,
            "warpcache: validate --hw: the paired launches ran with different shared-memory "
            "carveouts, but all are simulated with one %llu KB L1:",
            (unsigned long long)g->nsets * g->assoc * g->line_bytes / 1024);
    for (size_t i = 0; i < v->n_rows; i++) {
        const wc_hw_kernel *h = v->rows[i].hw;
        if (h && !isnan(h->shmem_config_bytes))
            fprintf(stderr, " %s:%.0fKB", h->id, h->shmem_config_bytes / 1024);
    }
    fputc('\n', stderr);
}

static int pair(hw_cli *v)
{
    v->hw_used = calloc(v->hw.n ? v->hw.n : 1, sizeof *v->hw_used);
    if (!v->hw_used) {
        wc_cli_error("validate --hw: out of memory");
        return WC_EXIT_FAIL;
    }
    if (v->launches && v->n_listed != v->n_rows) {
        wc_cli_error("validate --hw: --launches lists %zu launches, the simulation has %zu "
                     "kernels; list one launch per simulated kernel, in order",
                     v->n_listed, v->n_rows);
        return WC_EXIT_USAGE;
    }
    size_t matched = 0;
    for (size_t k = 0; k < v->n_rows; k++) {
        hw_row *r = &v->rows[k];
        long h;
        if (v->launches) {
            h = v->listed[k];
        } else {
            unsigned occ = 0;
            for (size_t j = 0; j < k; j++) occ += strcmp(v->rows[j].kernel, r->kernel) == 0;
            h = find_launch(&v->hw, r->kernel, occ);
        }
        if (h >= 0) {
            r->hw = &v->hw.k[h];
            v->hw_used[h] = true;
            matched++;
        }
    }
    if (matched == 0) {
        wc_cli_error("validate --hw: %s: none of its %zu launches is a simulated kernel (first "
                     "launch '%s', first simulated kernel '%s'); was it measured on this "
                     "program?",
                     v->hw_path, v->hw.n, v->hw.n ? v->hw.k[0].name : "",
                     v->n_rows ? v->rows[0].kernel : "");
        return WC_EXIT_USAGE;
    }
    for (size_t i = 0; i < v->hw.n && !v->launches; i++)
        if (!v->hw_used[i])
            fprintf(stderr,
                    "warpcache: validate --hw: %s:%u: launch of '%s' has no simulated "
                    "counterpart (ignored)\n",
                    v->hw_path, v->hw.k[i].line, v->hw.k[i].name);
    note_carveouts(v);
    return WC_EXIT_OK;
}

/* Relative error of sim against hw, or NAN when hw is absent or zero. */
static double rel_err(double hw, double sim)
{
    return isnan(hw) || hw == 0 ? NAN : (sim - hw) / hw;
}

typedef struct mae {
    double l1, l2, cycles; /* points; fractions; fractions */
    size_t n_l1, n_l2, n_cycles;
} mae;

static mae mean_errors(const hw_cli *v)
{
    mae m = {0};
    for (size_t i = 0; i < v->n_rows; i++) {
        const hw_row *r = &v->rows[i];
        if (!r->hw) continue;
        if (!isnan(r->hw->l1_hit_pct)) {
            m.l1 += fabs(r->sim_l1 - r->hw->l1_hit_pct);
            m.n_l1++;
        }
        double e = rel_err(r->hw->l2_read_sectors, r->sim_l2);
        if (!isnan(e)) {
            m.l2 += fabs(e);
            m.n_l2++;
        }
        e = rel_err(r->hw->cycles, r->sim_cycles);
        if (!isnan(e)) {
            m.cycles += fabs(e);
            m.n_cycles++;
        }
    }
    m.l1 = m.n_l1 ? m.l1 / (double)m.n_l1 : NAN;
    m.l2 = m.n_l2 ? m.l2 / (double)m.n_l2 : NAN;
    m.cycles = m.n_cycles ? m.cycles / (double)m.n_cycles : NAN;
    return m;
}

static void put_num(FILE *f, int width, double v, const char *fmt)
{
    if (isnan(v))
        fprintf(f, "%*s", width, "-");
    else
        fprintf(f, fmt, width, v);
}

static void write_text(const hw_cli *v, FILE *f)
{
    const wc_cache_geom *g = &v->c.cfg.l1;
    fprintf(f, "hardware: %s (%zu launches)\nsimulated: %s\nconfig:    %s\nL1:        %llu KB\n\n",
            v->hw_path, v->hw.n, v->simulated, v->config_name,
            (unsigned long long)g->nsets * g->assoc * g->line_bytes / 1024);
    fprintf(f, "%-4s %-24s %6s %8s %8s %7s %12s %12s %8s %11s %11s %8s %7s\n", "id", "kernel",
            "launch", "L1hit hw", "sim", "|err|", "L2 rd hw", "sim", "err", "cycles hw", "sim",
            "err", "smem KB");
    for (size_t i = 0; i < v->n_rows; i++) {
        const hw_row *r = &v->rows[i];
        double hl1 = r->hw ? r->hw->l1_hit_pct : NAN, hl2 = r->hw ? r->hw->l2_read_sectors : NAN,
               hcy = r->hw ? r->hw->cycles : NAN;
        fprintf(f, "%-4u %-24.24s %6.6s ", r->id, r->kernel, r->hw ? r->hw->id : "-");
        put_num(f, 7, hl1, "%*.2f%%");
        put_num(f, 7, r->sim_l1, " %*.2f%%");
        put_num(f, 7, isnan(hl1) ? NAN : fabs(r->sim_l1 - hl1), " %*.2f");
        put_num(f, 12, hl2, " %*.0f");
        put_num(f, 12, r->sim_l2, " %*.0f");
        put_num(f, 7, 100 * rel_err(hl2, r->sim_l2), " %*.1f%%");
        put_num(f, 11, hcy, " %*.0f");
        put_num(f, 11, r->sim_cycles, " %*.0f");
        put_num(f, 7, 100 * rel_err(hcy, r->sim_cycles), " %*.1f%%");
        put_num(f, 8, r->hw ? r->hw->shmem_config_bytes / 1024 : NAN, " %*.0f");
        if (!r->hw)
            fputs("   (no launch in the file)", f);
        else if (strcmp(r->hw->name, r->kernel) != 0)
            fprintf(f, "   (hw: %s)", r->hw->name);
        fputc('\n', f);
    }
    mae m = mean_errors(v);
    fputs("\nmean absolute error:", f);
    if (m.n_l1) fprintf(f, " L1 hit rate %.2f points (%zu kernels);", m.l1, m.n_l1);
    if (m.n_l2) fprintf(f, " L2 read sectors %.1f %% (%zu);", 100 * m.l2, m.n_l2);
    if (m.n_cycles) fprintf(f, " cycles %.1f %% (%zu)", 100 * m.cycles, m.n_cycles);
    fputc('\n', f);
}

static void json_num(FILE *f, const char *key, double v)
{
    fprintf(f, ", \"%s\": ", key);
    if (isnan(v))
        fputs("null", f);
    else
        fprintf(f, "%.9g", v);
}

static void write_json(const hw_cli *v, FILE *f)
{
    fprintf(f, "{\n  \"schema_version\": %d,\n  \"hardware_file\": ", WC_STATS_SCHEMA_VERSION);
    wc_json_string(f, v->hw_path);
    fputs(",\n  \"simulated\": ", f);
    wc_json_string(f, v->simulated);
    fputs(",\n  \"config\": ", f);
    wc_json_string(f, v->config_name);
    const wc_cache_geom *g = &v->c.cfg.l1;
    fprintf(f, ",\n  \"sim_l1_bytes\": %llu",
            (unsigned long long)g->nsets * g->assoc * g->line_bytes);
    fputs(",\n  \"kernels\": [", f);
    for (size_t i = 0; i < v->n_rows; i++) {
        const hw_row *r = &v->rows[i];
        fprintf(f, "%s{\"id\": %u, \"kernel\": ", i ? ",\n    " : "\n    ", r->id);
        wc_json_string(f, r->kernel);
        fputs(", \"hw_line\": ", f);
        if (r->hw)
            fprintf(f, "%u", r->hw->line);
        else
            fputs("null", f);
        fputs(", \"hw_id\": ", f);
        if (r->hw)
            wc_json_string(f, r->hw->id);
        else
            fputs("null", f);
        fputs(", \"hw_kernel\": ", f);
        if (r->hw)
            wc_json_string(f, r->hw->name);
        else
            fputs("null", f);
        json_num(f, "hw_l1_hit_pct", r->hw ? r->hw->l1_hit_pct : NAN);
        json_num(f, "sim_l1_hit_pct", r->sim_l1);
        json_num(f, "hw_l2_read_sectors", r->hw ? r->hw->l2_read_sectors : NAN);
        json_num(f, "sim_l2_read_sectors", r->sim_l2);
        json_num(f, "hw_cycles", r->hw ? r->hw->cycles : NAN);
        json_num(f, "sim_cycles", r->sim_cycles);
        json_num(f, "hw_shared_mem_config_bytes", r->hw ? r->hw->shmem_config_bytes : NAN);
        fputc('}', f);
    }
    mae m = mean_errors(v);
    fputs("\n  ],\n  \"mean_absolute_error\": {\"l1_hit_points\": ", f);
    fprintf(f, isnan(m.l1) ? "null" : "%.9g", m.l1);
    json_num(f, "l2_read_sectors_rel", m.l2);
    json_num(f, "cycles_rel", m.cycles);
    fputs("}\n}\n", f);
}

static void csv_num(FILE *f, double v)
{
    if (isnan(v))
        fputs(",", f);
    else
        fprintf(f, ",%.9g", v);
}

static void write_csv(const hw_cli *v, FILE *f)
{
    fputs("id,kernel,hw_l1_hit_pct,sim_l1_hit_pct,hw_l2_read_sectors,sim_l2_read_sectors,"
          "hw_cycles,sim_cycles,hw_id,hw_kernel,hw_shared_mem_config_bytes\n",
          f);
    for (size_t i = 0; i < v->n_rows; i++) {
        const hw_row *r = &v->rows[i];
        fprintf(f, "%u,", r->id);
        wc_csv_field(f, r->kernel);
        csv_num(f, r->hw ? r->hw->l1_hit_pct : NAN);
        csv_num(f, r->sim_l1);
        csv_num(f, r->hw ? r->hw->l2_read_sectors : NAN);
        csv_num(f, r->sim_l2);
        csv_num(f, r->hw ? r->hw->cycles : NAN);
        csv_num(f, r->sim_cycles);
        fputc(',', f);
        if (r->hw) wc_csv_field(f, r->hw->id);
        fputc(',', f);
        if (r->hw) wc_csv_field(f, r->hw->name);
        csv_num(f, r->hw ? r->hw->shmem_config_bytes : NAN);
        fputc('\n', f);
    }
}

int wc_cmd_validate_hw(int argc, char **argv)
{
    hw_cli v;
    memset(&v, 0, sizeof v);
    wc_cli_common_init(&v.c);
    int rc = parse(&v, argc, argv);
    if (rc != 0) return rc > 0 ? WC_EXIT_OK : WC_EXIT_USAGE;
    rc = WC_EXIT_USAGE;
    wc_err err = {{0}};
    wc_stats st;
    wc_stats_init(&st);
    const char *paths[] = {v.c.json, v.c.csv};
    wc_out_set outs; /* opened first: a path that cannot be written fails now */
    bool opened = false;
    if (wc_ncu_read(v.hw_path, &v.hw, &err) < 0) {
        wc_cli_error("%s", err.msg);
        rc = wc_cli_status_of(&err);
        goto out;
    }
    if (wc_cli_load_config(&v.c) < 0 || wc_out_set_open(&outs, paths, 2) < 0) goto out;
    opened = true;
    snprintf(v.config_name, sizeof v.config_name, "%s%s%s",
             v.c.config_path ? v.c.config_path : "built-in Fermi baseline (fermi-16k)",
             v.c.design ? " + design " : "", v.c.design ? v.c.design : "");
    if (v.launches && parse_launches(&v) < 0) goto out;
    /* a trace, or each workload in turn: its kernels follow the previous ones */
    uint32_t first_id = 0;
    for (unsigned i = 0; i < (v.trace ? 1 : v.n_workloads); i++) {
        const char *name = v.trace ? v.trace : v.workloads[i];
        size_t at = strlen(v.simulated);
        snprintf(v.simulated + at, sizeof v.simulated - at, "%s%s", i ? " " : "", name);
        wc_run_spec spec = {.workload = v.trace ? NULL : name,
                            .trace = v.trace,
                            .kernels = v.kernels,
                            .config_name = v.config_name};
        wc_stats_free(&st);
        wc_stats_init(&st);
        if (wc_run_simulation(&v.c.cfg, &spec, &st, &err) < 0) {
            wc_cli_error("%s", err.msg);
            rc = wc_cli_status_of(&err);
            goto out;
        }
        if ((rc = add_rows(&v, &st, first_id)) != WC_EXIT_OK) goto out;
        first_id = v.n_rows ? v.rows[v.n_rows - 1].id : first_id;
    }
    if ((rc = pair(&v)) != WC_EXIT_OK) goto out;
    bool stdout_taken =
        (v.c.json && strcmp(v.c.json, "-") == 0) || (v.c.csv && strcmp(v.c.csv, "-") == 0);
    if (!stdout_taken) write_text(&v, stdout);
    FILE *f;
    if ((f = wc_out_set_file(&outs, 0))) write_json(&v, f);
    if ((f = wc_out_set_file(&outs, 1))) write_csv(&v, f);
    rc = wc_out_set_commit(&outs);
    opened = false;
out:
    if (opened) wc_out_set_abort(&outs);
    wc_stats_free(&st);
    wc_hw_set_free(&v.hw);
    free(v.rows);
    free(v.hw_used);
    return rc;
}
