/*
 * cmd_sweep.c - `warpcache sweep`: a grid of option values (-g NAME=V1,V2)
 * and/or designs over workloads, one JSON line per finished point appended
 * to a results file, resumable.
 *
 * Why the file stays valid: each line is formatted in memory and written
 * with one write() on an O_APPEND descriptor, then fdatasync'd, so an
 * interrupted sweep (SIGINT, kill -9, power loss) leaves complete lines plus
 * at most one torn last line, which --resume truncates away.  Lines are
 * written in point order (the batch runner delivers results in index order,
 * buffering early finishers), so the file is always a prefix of the complete
 * result and a resumed sweep appends exactly the missing suffix: the final
 * file is byte-identical to an uninterrupted run's, whatever -j was.
 *
 * Across machines: --shard I/N runs one contiguous slice of the points
 * (cmd_merge.c joins the slices), and warpcache-mpi runs the points on MPI
 * ranks through the executor seam of sweep_exec.h.  An MPI sweep appends
 * lines as points finish, in any order (nothing finished is kept only in
 * memory), so every sweep ends by putting the file into point order when it
 * is not - a no-op for a sweep run here, whose lines are already in order.
 *
 * What keeps a results file one sweep's: every line carries the sweep's
 * identity (sweep_identity), which --resume, merge and report check; and a
 * sweep holds a lock on its file while it runs (results.c), so two sweeps
 * cannot append to one file at once.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/jsonscan.h"
#include "cli/results.h"
#include "cli/sweep_exec.h"
#include "warpcache/common.h"
#include "warpcache/trace.h"
#include "report/metrics.h"
#include "report/report.h"

#define SWEEP_SCHEMA_VERSION 1
#define MAX_DIMS             16
#define MAX_VALUES           256
#define WC_CLI_MAX_DESIGNS   64

static const char sweep_help[] =
    "usage: warpcache sweep --results FILE (-g NAME=V1,V2,... | -G NAME=VALUE |\n"
    "                       --designs A,B,...)...\n"
    "                       (--workload NAME | --trace PATH)... [options]\n"
    "\n"
    "Simulates every point of the grid (designs x option values x workloads) and appends\n"
    "one JSON line per finished point to the results file, in point order.\n"
    "\n"
    "%s"
    "\n"
    "Order of settings per point: --config, design, -o, grid values, --seed.\n"
    "Exit status: 0 ok, 2 bad input (also a point that fails to simulate), 1 internal failure.\n";

typedef struct dim {
    char name[128];
    char *values[MAX_VALUES]; /* owned */
    size_t n;
} dim;

typedef struct point {
    size_t design, input;
    size_t value[MAX_DIMS]; /* index into dims[d].values */
    char *key;
} point;

/* A point's key and index, sorted by key: what a line's key is looked up in. */
typedef struct key_index {
    const char *key;
    size_t point;
} key_index;

/* The whole sweep; also what an executor (sweep_exec.h) holds. */
typedef struct wc_sweep_task {
    wc_cli_common c;
    wc_cli_batch b; /* --designs, inputs, --kernels, -j */
    dim dims[MAX_DIMS];
    size_t ndims;
    const char *results;
    bool resume, keep_going, mpi;
    size_t shard_i, shard_n; /* --shard I/N; shard_n 0 = every point */
    const wc_sweep_exec *ex; /* NULL: threads in this process */
    point *points;
    size_t np;
    key_index *by_key;            /* np entries */
    wc_config *cfgs;              /* one per (design, grid value) group: points / workloads */
    char id[WC_SWEEP_ID_LEN + 1]; /* the sweep identity every line carries */
    size_t *line_of;              /* point -> its line in the results file, 0 = none */
    wc_results_lock lock;
    /* writing */
    int fd;
    const size_t *order; /* job index -> point index (the points still to run) */
    size_t ntodo, ndone;
    wc_batch_progress prog;
    bool failed, write_failed;
    bool broken; /* a result for a point the sweep does not have (internal) */
    size_t failed_point, nfailed;
    int fail_status; /* 2 bad input, 1 internal or a failed write */
    wc_err fail_err;
} wc_sweep_task;
typedef wc_sweep_task sweep_cli;

/* ---- options ------------------------------------------------------------ */

/* The dimension called name[0..len), created (after the others) when new. */
static dim *find_dim(sweep_cli *o, const char *opt, const char *name, size_t len)
{
    for (size_t i = 0; i < o->ndims; i++)
        if (strlen(o->dims[i].name) == len && memcmp(o->dims[i].name, name, len) == 0)
            return &o->dims[i];
    if (len >= sizeof o->dims[0].name) {
        wc_cli_error("option %s %.*s...: the name is longer than %zu characters", opt, 32, name,
                     sizeof o->dims[0].name - 1);
        return NULL;
    }
    if (o->ndims == MAX_DIMS) {
        wc_cli_error("option %s: more than %d dimensions", opt, MAX_DIMS);
        return NULL;
    }
    dim *d = &o->dims[o->ndims++];
    snprintf(d->name, sizeof d->name, "%.*s", (int)len, name);
    return d;
}

static int add_value(dim *d, const char *opt, const char *v, size_t len)
{
    if (d->n == MAX_VALUES) {
        wc_cli_error("option %s %s: more than %d values", opt, d->name, MAX_VALUES);
        return -1;
    }
    if (!(d->values[d->n] = strndup(v, len))) {
        wc_cli_error("out of memory");
        return -1;
    }
    d->n++;
    return 0;
}

/* -g NAME=V1,V2,... (split at every comma) or -G NAME=VALUE (one value,
 * taken whole: plug-in parameter lists and cache geometries hold commas).
 * Both add to the dimension NAME, created where NAME first appears.  An
 * empty value is refused: "1,,2" is a typo, not a value. */
static int add_dim(sweep_cli *o, const char *opt, const char *arg, bool whole)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg) {
        wc_cli_error("option %s %s: expected %s", opt, arg,
                     whole ? "NAME=VALUE" : "NAME=V1,V2,...");
        return -1;
    }
    dim *d = find_dim(o, opt, arg, (size_t)(eq - arg));
    if (!d) return -1;
    const char *v = eq + 1;
    if (whole) {
        if (!*v) {
            wc_cli_error("option %s %s: an empty value", opt, arg);
            return -1;
        }
        return add_value(d, opt, v, strlen(v));
    }
    for (;;) {
        size_t len = strcspn(v, ",");
        if (len == 0) {
            wc_cli_error("option %s %s: an empty value (%s); a value that holds commas goes "
                         "whole into -G NAME=VALUE",
                         opt, arg,
                         !*v ? (v == eq + 1 ? "nothing after '='" : "after the last comma")
                         : v == eq + 1 ? "before the first comma"
                                       : "between two commas");
            return -1;
        }
        if (add_value(d, opt, v, len) < 0) return -1;
        if (!v[len]) return 0;
        v += len + 1;
    }
}

/* --shard I/N: 0 <= I < N. */
static int parse_shard(sweep_cli *o, const char *v)
{
    char *end = NULL;
    errno = 0;
    unsigned long long i = strtoull(v, &end, 10), n = 0;
    bool good = !errno && end != v && *end == '/' && *v != '-';
    if (good) {
        const char *ns = end + 1;
        n = strtoull(ns, &end, 10);
        good = !errno && end != ns && !*end && *ns != '-' && n >= 1 && n <= 1000000 && i < n;
    }
    if (!good) {
        wc_cli_error("option --shard: '%s' is not I/N with 0 <= I < N <= 1000000", v);
        return -1;
    }
    o->shard_i = (size_t)i;
    o->shard_n = (size_t)n;
    return 0;
}

/* The number of processes mpirun started, from the variables Open MPI, MPICH
 * and Slurm's PMI set; 0 when not started that way. */
static long launched_ranks(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"};
    for (size_t k = 0; k < sizeof vars / sizeof vars[0]; k++) {
        const char *v = getenv(vars[k]);
        if (v && *v) return strtol(v, NULL, 10);
    }
    return 0;
}

/* --mpi needs warpcache-mpi; and every rank of a plain sweep started by
 * mpirun would run the whole grid into the same file, so that is refused. */
static int check_launch(const sweep_cli *o)
{
    if (o->mpi && !o->ex) {
        wc_cli_error("option --mpi: this warpcache is built without MPI; install Open MPI "
                     "(apt-get install libopenmpi-dev openmpi-bin), run 'make mpi', then "
                     "'mpirun -np N build/warpcache-mpi sweep --mpi ...'");
        return -1;
    }
    if (o->mpi && o->shard_n) {
        wc_cli_error("sweep: give either --mpi or --shard");
        return -1;
    }
    long ranks = launched_ranks();
    if (!o->mpi && ranks > 1) {
        wc_cli_error("sweep: started by mpirun with %ld processes but without --mpi: each would "
                     "run the whole sweep into the same file (use warpcache-mpi sweep --mpi)",
                     ranks);
        return -1;
    }
    return 0;
}

enum { O_GRID = 1, O_GRID_WHOLE, O_RESULTS, O_RESUME, O_KEEP_GOING, O_SHARD, O_MPI };
static const wc_opt sweep_table[] = {
    {O_GRID, 'g', NULL, "NAME=V1,V2,...",
     "values of one option (repeatable; the last dimension varies\n"
     "fastest); any option of 'warpcache config --options', or\n"
     "l1_sets, l1_assoc, l1_line, l1_size (rewrite that field of the L1)",
     WC_OPT_SETTING},
    {O_GRID_WHOLE, 'G', NULL, "NAME=VALUE",
     "one value taken whole, commas included (repeatable):\n"
     "-G mem_stage=mrpb:len=4,latency=2 -G mem_stage=inorder;\n"
     "every -g and -G of one NAME adds to the same dimension",
     WC_OPT_SETTING},
    {WC_CLI_O_DESIGNS, 0, "designs", "A,B,...", "designs (outermost dimension)", 0},
    {WC_CLI_O_WORKLOAD, 'w', "workload", "NAME",
     "workload, suite or suite:params (repeatable; innermost)", 0},
    {WC_CLI_O_TRACE, 't', "trace", "PATH", "trace (repeatable)", 0},
    {WC_CLI_O_KERNELS, 0, "kernels", "SEL", "selects kernels of every trace", 0},
    {O_RESULTS, 0, "results", "FILE",
     "JSONL results (required); a regular file, new or empty unless\n"
     "--resume; locked while the sweep runs (a second sweep exits 2)",
     0},
    {O_RESUME, 0, "resume", NULL,
     "keep the points already in FILE, drop a torn last line, run the\n"
     "rest; a line of another sweep (its sweep_id) or a point twice\n"
     "is refused",
     0},
    {WC_CLI_O_CSV, 0, "csv", "FILE|-", "also write every point of FILE as CSV when the sweep ends",
     0},
    {WC_CLI_O_JOBS, 'j', NULL, "N", "simulations in parallel (default: every CPU)", 0},
    {O_KEEP_GOING, 0, "keep-going", NULL,
     "a point that fails to simulate becomes an error line and the\n"
     "sweep goes on (exit status of the first failure at the end)",
     0},
    {O_SHARD, 0, "shard", "I/N",
     "run only slice I (0 to N-1) of N contiguous slices of the\n"
     "points; 'warpcache merge' joins the slices' results files",
     0},
    {O_MPI, 0, "mpi", NULL,
     "run the points on MPI ranks (mpirun -np N warpcache-mpi sweep\n"
     "--mpi ...): rank 0 writes the file, the others simulate,\n"
     "-j N at once each (default 1); implies --keep-going",
     0},
    {0},
};
static const wc_opt *const sweep_tables[] = {sweep_table, wc_cli_common_opts, wc_cli_progress_opts,
                                             NULL};

static int parse(sweep_cli *o, int argc, char **argv)
{
    wc_opts p;
    wc_opts_init(&p, "sweep", sweep_tables, argc, argv);
    for (int id; (id = wc_opts_next(&p)) != WC_OPT_DONE;) {
        int rc = wc_cli_common_take(&o->c, &p, id);
        if (rc == 0) rc = wc_cli_progress_take(&o->c.progress, &p, id);
        if (rc == 0) rc = wc_cli_batch_take(&o->b, &p, id);
        if (rc < 0) return -1;
        if (rc > 0) continue;
        switch (id) {
        case WC_OPT_HELP: wc_opts_print_help(sweep_help, sweep_tables); exit(0);
        case WC_OPT_BAD: return -1;
        case WC_OPT_ARG:
            wc_cli_error("sweep: unexpected argument '%s' (give workloads with --workload)",
                         p.value);
            return -1;
        case O_GRID:
        case O_GRID_WHOLE:
            if (add_dim(o, wc_opts_name(&p), p.value, id == O_GRID_WHOLE) < 0) return -1;
            break;
        case O_RESULTS: o->results = p.value; break;
        case O_RESUME: o->resume = true; break;
        case O_KEEP_GOING: o->keep_going = true; break;
        case O_SHARD:
            if (parse_shard(o, p.value) < 0) return -1;
            break;
        case O_MPI: o->mpi = o->keep_going = true; break;
        }
    }
    if (o->c.design && o->b.nd == 0) { /* one fixed design: a dimension of one */
        snprintf(o->b.designs_arg, sizeof o->b.designs_arg, "%s", o->c.design);
        o->b.designs[o->b.nd++] = o->b.designs_arg;
    } else if (o->c.design) {
        wc_cli_error("sweep: give either --design or --designs");
        return -1;
    }
    if (o->c.json) {
        wc_cli_error("sweep: results go to --results FILE (JSON lines); --json is not used");
        return -1;
    }
    if (!o->results || strcmp(o->results, "-") == 0) {
        wc_cli_error("sweep: give --results FILE (a file: it is appended to and read back)");
        return -1;
    }
    if (o->b.ni == 0) {
        wc_cli_error("sweep: give at least one --workload or --trace");
        return -1;
    }
    return check_launch(o);
}

/* ---- points ------------------------------------------------------------- */

static int cmp_key_index(const void *a, const void *b)
{
    return strcmp(((const key_index *)a)->key, ((const key_index *)b)->key);
}

/* The point whose key is `key`, or NULL. */
static const key_index *find_key(const sweep_cli *o, const char *key)
{
    key_index want = {key, 0};
    return o->np ? bsearch(&want, o->by_key, o->np, sizeof *o->by_key, cmp_key_index) : NULL;
}

/* "design=D;NAME=V;...;workload=W": identifies a point in the results file. */
static char *point_key(const sweep_cli *o, const point *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    if (o->b.nd) fprintf(f, "design=%s;", o->b.designs[p->design]);
    for (size_t d = 0; d < o->ndims; d++)
        fprintf(f, "%s=%s;", o->dims[d].name, o->dims[d].values[p->value[d]]);
    fprintf(f, "%s=%s", o->b.is_trace[p->input] ? "trace" : "workload", o->b.inputs[p->input]);
    fclose(f);
    return buf;
}

/* The grid in order: designs outermost, then the -g dimensions in the order
 * given (the last fastest), then the workloads. */
static int make_points(sweep_cli *o)
{
    size_t n = o->b.nd ? o->b.nd : 1;
    for (size_t d = 0; d < o->ndims; d++) n *= o->dims[d].n;
    n *= o->b.ni;
    if (n > 1000000) {
        wc_cli_error("sweep: %zu points is more than 1000000", n);
        return -1;
    }
    o->points = calloc(n, sizeof *o->points);
    if (!o->points) return -1;
    for (size_t i = 0; i < n; i++) {
        point *p = &o->points[i];
        size_t c = i / o->b.ni;
        p->input = i % o->b.ni;
        for (size_t d = o->ndims; d-- > 0;) {
            p->value[d] = c % o->dims[d].n;
            c /= o->dims[d].n;
        }
        p->design = c;
        if (!(p->key = point_key(o, p))) return -1;
        o->np = i + 1; /* freed from here on */
        if (strlen(p->key) > WC_RESULTS_MAX_KEY) {
            wc_cli_error("sweep: point %zu's key is longer than %d bytes (%.60s...): shorter "
                         "names or values",
                         i, WC_RESULTS_MAX_KEY, p->key);
            return -1;
        }
    }
    /* --resume matches points by key: two equal points (a workload given twice)
     * would make a resumed file differ from an uninterrupted one */
    if (!(o->by_key = malloc(n * sizeof *o->by_key))) return -1;
    for (size_t i = 0; i < n; i++) o->by_key[i] = (key_index){o->points[i].key, i};
    qsort(o->by_key, n, sizeof *o->by_key, cmp_key_index);
    for (size_t i = 1; i < n; i++)
        if (strcmp(o->by_key[i - 1].key, o->by_key[i].key) == 0) {
            wc_cli_error("sweep: point %s appears twice (a workload, design or value given twice)",
                         o->by_key[i].key);
            return -1;
        }
    return 0;
}

static int point_config(const sweep_cli *o, const point *p, wc_config *cfg, bool notes)
{
    wc_cli_setting set[MAX_DIMS];
    for (size_t d = 0; d < o->ndims; d++) {
        set[d].name = o->dims[d].name;
        set[d].value = o->dims[d].values[p->value[d]];
    }
    return wc_cli_build_config(&o->c, o->b.nd ? o->b.designs[p->design] : NULL, set, o->ndims, cfg,
                               notes);
}

/* ---- the results file ------------------------------------------------------ */

static void shard_range(const sweep_cli *o, size_t *lo, size_t *hi);

/* What --resume keeps of a complete line: a sweep line of this sweep (its
 * identity), of a point of this slice, and the only line of that point.
 * Anything else is refused, naming the line: a results file that silently
 * grew points of another sweep, or two copies of one, would not be the
 * result of this sweep. */
static int check_line(sweep_cli *o, const char *line, size_t ll, size_t lineno)
{
    wc_results_head h;
    if (wc_results_scan_head(line, ll, &h) < 0 || !h.has_point) {
        wc_cli_error("%s:%zu: not a sweep result line (JSON object with schema_version, "
                     "sweep_id, point and key)",
                     o->results, lineno);
        return -1;
    }
    if (!h.has_sweep_id) {
        wc_cli_error("%s:%zu: a line without sweep_id, written by an older warpcache: whether "
                     "it belongs to this sweep cannot be checked; run the sweep again into a "
                     "new results file",
                     o->results, lineno);
        return -1;
    }
    if (strcmp(h.sweep_id, o->id) != 0) {
        wc_cli_error("%s:%zu: a point of another sweep (sweep_id %s, this sweep's is %s: "
                     "another grid, inputs, configuration or warpcache version)",
                     o->results, lineno, h.sweep_id, o->id);
        return -1;
    }
    const key_index *k = find_key(o, h.key);
    if (!k || k->point != h.point) {
        wc_cli_error("%s:%zu: point %llu '%s' is not a point of this sweep", o->results, lineno,
                     (unsigned long long)h.point, h.key);
        return -1;
    }
    size_t lo, hi;
    shard_range(o, &lo, &hi);
    if (k->point < lo || k->point >= hi) {
        wc_cli_error("%s:%zu: point %zu is not in shard %zu/%zu (points %zu to %zu): the file "
                     "of another shard",
                     o->results, lineno, k->point, o->shard_i, o->shard_n, lo, hi - 1);
        return -1;
    }
    if (o->line_of[k->point]) {
        wc_cli_error("%s:%zu: point %zu (%s) appears twice (also line %zu): keep one of the "
                     "lines",
                     o->results, lineno, k->point, k->key, o->line_of[k->point]);
        return -1;
    }
    o->line_of[k->point] = lineno;
    return 0;
}

/* Reads the existing results: drops a torn last line (no newline: the write
 * was interrupted), checks every complete line and notes which points it
 * holds (o->line_of), *ndone of them.  Without --resume the file must be
 * absent or empty. */
static int load_done(sweep_cli *o, size_t *ndone)
{
    size_t len = 0;
    bool missing;
    *ndone = 0;
    if (!(o->line_of = calloc(o->np, sizeof *o->line_of))) {
        wc_cli_error("out of memory");
        return -1;
    }
    char *buf = wc_results_read(o->results, &len, &missing);
    if (!buf) return missing ? 0 : -1;
    int rc = -1;
    if (len && !o->resume) {
        wc_cli_error("%s: exists and is not empty; give --resume to continue it, or remove it",
                     o->results);
        goto out;
    }
    size_t keep = len;
    while (keep && buf[keep - 1] != '\n') keep--;
    if (keep < len) {
        if (!o->c.quiet)
            fprintf(stderr, "warpcache: %s: dropping an incomplete last line (%zu bytes)\n",
                    o->results, len - keep);
        if (truncate(o->results, (off_t)keep) < 0) {
            wc_cli_error("cannot truncate %s: %s", o->results, strerror(errno));
            goto out;
        }
    }
    size_t lineno = 0;
    for (size_t at = 0; at < keep;) {
        char *nl = memchr(buf + at, '\n', keep - at);
        size_t ll = (size_t)(nl - (buf + at));
        if (check_line(o, buf + at, ll, ++lineno) < 0) goto out;
        (*ndone)++;
        at += ll + 1;
    }
    rc = 0;
out:
    free(buf);
    return rc;
}

static void json_metric(FILE *f, const char *key, double v, bool is_float, bool first)
{
    if (!first) fputs(", ", f);
    wc_json_string(f, key);
    fputs(": ", f);
    wc_json_number(f, v, is_float);
}

/* What identifies the point: the same first fields in result and error
 * lines. */
static void line_head(FILE *f, const sweep_cli *o, size_t index, const point *p)
{
    fprintf(f, "{\"schema_version\": %d, \"sweep_id\": \"%s\", \"point\": %zu, \"key\": ",
            SWEEP_SCHEMA_VERSION, o->id, index);
    wc_json_string(f, p->key);
    fputs(", \"design\": ", f);
    if (o->b.nd)
        wc_json_string(f, o->b.designs[p->design]);
    else
        fputs("null", f);
    fputs(", \"params\": {", f);
    for (size_t d = 0; d < o->ndims; d++) {
        if (d) fputs(", ", f);
        wc_json_string(f, o->dims[d].name);
        fputs(": ", f);
        wc_json_string(f, o->dims[d].values[p->value[d]]);
    }
    fputs(o->b.is_trace[p->input] ? "}, \"trace\": " : "}, \"workload\": ", f);
    wc_json_string(f, o->b.inputs[p->input]);
}

/* One complete line: formatted in memory first so that it reaches the file
 * with a single write(). */
static char *format_line(const sweep_cli *o, size_t index, const point *p, const wc_stats *st,
                         size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f) return NULL;
    line_head(f, o, index, p);
    fprintf(f, ", \"kernels\": %zu, \"truncated\": %s, \"totals\": {", st->n_kernels,
            st->truncated ? "true" : "false");
    size_t nm;
    const wc_metric *m = wc_metrics(&nm);
    for (size_t i = 0; i < nm; i++)
        json_metric(f, m[i].key, m[i].get(&st->total), m[i].is_float, i == 0);
    for (unsigned e = 0; e < st->total.n_extras; e++) {
        char key[64];
        snprintf(key, sizeof key, "extra.%s", st->total.extras[e].name);
        json_metric(f, key, st->total.extras[e].value, true, false);
    }
    fputs("}}\n", f);
    fclose(f);
    return buf;
}

/* The line of a point that failed to simulate (--keep-going, --mpi): the
 * point's fields, the reason and the exit status it would have had. */
static char *format_error_line(const sweep_cli *o, size_t index, const point *p, const wc_err *err,
                               int status, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f) return NULL;
    line_head(f, o, index, p);
    fputs(", \"error\": ", f);
    wc_json_string(f, err->msg);
    fprintf(f, ", \"exit_status\": %d}\n", status);
    fclose(f);
    return buf;
}

static int write_all(int fd, const char *buf, size_t len)
{
    while (len) {
        ssize_t w = write(fd, buf, len);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        buf += w;
        len -= (size_t)w;
    }
    return 0;
}

/* Counts a failed point; the first one in point order (the MPI writer may
 * see them in another order) gives the message and the exit status. */
static void note_failure(sweep_cli *o, size_t pi, const wc_err *err, int status)
{
    o->nfailed++;
    if (o->keep_going)
        fprintf(stderr, "warpcache: sweep point %zu (%s): %s\n", pi, o->points[pi].key, err->msg);
    if (o->failed && o->failed_point < pi) return;
    o->failed = true;
    o->failed_point = pi;
    o->fail_err = *err;
    o->fail_status = status;
}

static void grab_error(void *ctx, const char *path, const char *text, bool is_string)
{
    wc_err *err = ctx;
    if (strcmp(path, "error") == 0 && is_string) snprintf(err->msg, sizeof err->msg, "%s", text);
}

int wc_sweep_append(wc_sweep_task *o, size_t pi, const char *line, size_t len, int status)
{
    if (pi >= o->np) { /* from another process: never trusted with an index */
        wc_cli_error("internal: a result for point %zu, but the sweep has %zu points", pi, o->np);
        o->broken = true;
        return -1;
    }
    /* A line formatted by another process that built another sweep (other
     * configuration or design files on its machine) must not join this
     * file: its identity and index come first in every line. */
    char head[96];
    int hl = snprintf(head, sizeof head,
                      "{\"schema_version\": %d, \"sweep_id\": \"%s\", \"point\": %zu, ",
                      SWEEP_SCHEMA_VERSION, o->id, pi);
    if (len < (size_t)hl || memcmp(line, head, (size_t)hl) != 0) {
        wc_cli_error("point %zu was simulated by a process whose sweep differs from this one's "
                     "(sweep_id %s): do all machines see the same configuration and design "
                     "files and the same warpcache?",
                     pi, o->id);
        o->broken = true;
        return -1;
    }
    if (write_all(o->fd, line, len) < 0 || fdatasync(o->fd) < 0) {
        wc_err err;
        wc_errf(&err, "cannot write %s: %s", o->results, strerror(errno));
        o->write_failed = true;
        note_failure(o, pi, &err, WC_EXIT_FAIL);
        return -1;
    }
    if (status) { /* the reason is in the line (it may come from another process) */
        wc_err err = {{0}};
        wc_json_scan(line, len, grab_error, &err);
        if (!err.msg[0]) wc_errf(&err, "failed without a line (out of memory where it ran)");
        note_failure(o, pi, &err, status);
    }
    wc_batch_progress_cb(&o->prog, ++o->ndone, o->ntodo, NULL);
    return 0;
}

/* Called in job order.  Without --keep-going a failed point stops the sweep
 * there, so the file stays a prefix of the complete result. */
static int deliver(void *ctx, size_t index, wc_job *job)
{
    sweep_cli *o = ctx;
    size_t pi = o->order[index];
    const point *p = &o->points[pi];
    int status = job->rc < 0 ? wc_cli_status_of(&job->err) : 0;
    if (status && !o->keep_going) {
        note_failure(o, pi, &job->err, status);
        return 1;
    }
    size_t len = 0;
    char *line = status ? format_error_line(o, pi, p, &job->err, status, &len)
                        : format_line(o, pi, p, &job->stats, &len);
    wc_stats_free(&job->stats); /* formatted: no need to keep it */
    if (!line) {
        wc_err err;
        wc_errf(&err, "out of memory");
        note_failure(o, pi, &err, WC_EXIT_FAIL);
        return 1;
    }
    int rc = wc_sweep_append(o, pi, line, len, status);
    free(line);
    return rc < 0 ? 1 : 0;
}

unsigned wc_sweep_threads(const wc_sweep_task *o)
{
    return o->b.threads ? o->b.threads : 1;
}

size_t wc_sweep_todo(const wc_sweep_task *o, const size_t **points)
{
    *points = o->order;
    return o->ntodo;
}

size_t wc_sweep_input_of(const wc_sweep_task *o, size_t point)
{
    return point < o->np ? o->points[point].input : 0;
}

size_t wc_sweep_inputs(const wc_sweep_task *o)
{
    return o->b.ni;
}

int wc_sweep_simulate(wc_sweep_task *o, size_t pi, char **line, size_t *len, int *status)
{
    if (pi >= o->np) return -1;
    const point *p = &o->points[pi];
    wc_job j;
    memset(&j, 0, sizeof j);
    j.cfg = o->cfgs[pi / o->b.ni]; /* workloads are the innermost dimension */
    j.spec.workload = o->b.is_trace[p->input] ? NULL : o->b.inputs[p->input];
    j.spec.trace = o->b.is_trace[p->input] ? o->b.inputs[p->input] : NULL;
    j.spec.kernels = o->b.is_trace[p->input] ? o->b.kernels : NULL;
    wc_stats_init(&j.stats);
    j.rc = wc_run_simulation(&j.cfg, &j.spec, &j.stats, &j.err);
    *status = j.rc < 0 ? wc_cli_status_of(&j.err) : 0;
    *line = *status ? format_error_line(o, pi, p, &j.err, *status, len)
                    : format_line(o, pi, p, &j.stats, len);
    wc_stats_free(&j.stats);
    return *line ? 0 : -1;
}

/* ---- CSV of the whole results file ---------------------------------------- */

typedef struct csv_row {
    const sweep_cli *o;
    char point[32], key[2048], design[256], input[1024], params[MAX_DIMS][256];
    double *vals;
    bool *have;
} csv_row;

static void grab_csv(void *ctx, const char *path, const char *text, bool is_string)
{
    csv_row *r = ctx;
    if (strcmp(path, "point") == 0)
        snprintf(r->point, sizeof r->point, "%s", text);
    else if (strcmp(path, "key") == 0)
        snprintf(r->key, sizeof r->key, "%s", text);
    else if (strcmp(path, "design") == 0 && is_string)
        snprintf(r->design, sizeof r->design, "%s", text);
    else if (strcmp(path, "workload") == 0 || strcmp(path, "trace") == 0)
        snprintf(r->input, sizeof r->input, "%s", text);
    else if (strncmp(path, "params.", 7) == 0) {
        for (size_t d = 0; d < r->o->ndims; d++)
            if (strcmp(path + 7, r->o->dims[d].name) == 0)
                snprintf(r->params[d], sizeof r->params[d], "%s", text);
    } else if (strncmp(path, "totals.", 7) == 0 && !is_string) {
        size_t nm;
        const wc_metric *m = wc_metrics(&nm);
        for (size_t i = 0; i < nm; i++)
            if (strcmp(path + 7, m[i].key) == 0) {
                r->vals[i] = strcmp(text, "null") ? strtod(text, NULL) : NAN;
                r->have[i] = true;
            }
    }
}

static int write_csv(sweep_cli *o, FILE *f)
{
    size_t len = 0, nm;
    bool missing;
    const wc_metric *m = wc_metrics(&nm);
    char *buf = wc_results_read(o->results, &len, &missing);
    if (!buf && !missing) return -1;
    double *vals = calloc(nm, sizeof *vals);
    bool *have = calloc(nm, sizeof *have);
    if (!vals || !have) {
        free(buf);
        free(vals);
        free(have);
        return -1;
    }
    fputs("point,key,design,workload", f);
    for (size_t d = 0; d < o->ndims; d++) {
        fputc(',', f);
        wc_csv_field(f, o->dims[d].name);
    }
    for (size_t i = 0; i < nm; i++) fprintf(f, ",%s", m[i].key);
    fputc('\n', f);
    for (size_t at = 0; at < len;) {
        char *nl = memchr(buf + at, '\n', len - at);
        size_t ll = nl ? (size_t)(nl - (buf + at)) : len - at;
        csv_row *r = calloc(1, sizeof *r);
        if (!r) break;
        r->o = o;
        r->vals = vals;
        r->have = have;
        memset(have, 0, nm * sizeof *have);
        if (wc_json_scan(buf + at, ll, grab_csv, r) == 0) {
            fprintf(f, "%s,", r->point);
            wc_csv_field(f, r->key);
            fputc(',', f);
            wc_csv_field(f, r->design);
            fputc(',', f);
            wc_csv_field(f, r->input);
            for (size_t d = 0; d < o->ndims; d++) {
                fputc(',', f);
                wc_csv_field(f, r->params[d]);
            }
            for (size_t i = 0; i < nm; i++) {
                fputc(',', f);
                if (have[i] && !isnan(vals[i])) wc_json_number(f, vals[i], m[i].is_float);
            }
            fputc('\n', f);
        }
        free(r);
        at += ll + 1;
    }
    free(buf);
    free(vals);
    free(have);
    return 0;
}

/* ---- the command -------------------------------------------------------------- */

static void free_cli(sweep_cli *o)
{
    for (size_t d = 0; d < o->ndims; d++)
        for (size_t v = 0; v < o->dims[d].n; v++) free(o->dims[d].values[v]);
    wc_cli_batch_free(&o->b);
    for (size_t i = 0; i < o->np; i++) free(o->points[i].key);
    free(o->points);
    free(o->by_key);
    free(o->cfgs);
    free(o->line_of);
}

/* A source without kernels: simulating it builds the whole GPU (SMs,
 * memory stages, L1 organisations, controllers, with their parameters) and
 * runs nothing, which checks a configuration as far as `run` does before
 * its first kernel. */
static int no_kernel(wc_source *src, wc_kernel *k, wc_err *err)
{
    return 0;
}

static void no_destroy(wc_source *src) {}

static const wc_source_ops no_kernels_ops = {"none", no_kernel, NULL, NULL, NULL, no_destroy};

static int check_config(const sweep_cli *o, size_t g)
{
    wc_source src = {&no_kernels_ops};
    wc_run_spec spec = {.source = &src};
    wc_stats st;
    wc_err err = {{0}};
    wc_stats_init(&st);
    int rc = wc_run_simulation(&o->cfgs[g], &spec, &st, &err);
    wc_stats_free(&st);
    if (rc == 0) return 0;
    size_t pi = g * o->b.ni;
    wc_cli_error("sweep point %zu (%s): %s", pi, o->points[pi].key, err.msg);
    return -1;
}

static void put_field(FILE *f, const char *tag, const char *s)
{
    fprintf(f, "%s %zu:%s\n", tag, strlen(s), s);
}

/* The option lines of cfg's dump (not its comments: they document, and
 * may be reworded without changing what is simulated). */
static int put_config(FILE *f, const wc_config *cfg)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return -1;
    wc_config_dump(cfg, m);
    if (fclose(m) != 0 || !buf) return -1;
    for (char *line = buf, *nl; *line; line = nl + 1) {
        nl = strchr(line, '\n');
        if (!nl) nl = line + strlen(line) - 1;
        if (line[0] == '-') fwrite(line, 1, (size_t)(nl - line) + 1, f);
    }
    free(buf);
    return 0;
}

/* The sweep identity (o->id): a 64-bit FNV-1a hash of what decides the
 * results - the warpcache version, the designs with the configuration each
 * gives (configuration file, design file, -o, --seed: the option lines of
 * its dump), the grid's dimensions and values in order, the inputs and
 * --kernels.  Not -j, --shard, --mpi, --keep-going or the file names, so
 * that every way of running one sweep writes the same lines. */
static int sweep_identity(sweep_cli *o)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return -1;
    fprintf(f, "warpcache sweep %d\n", SWEEP_SCHEMA_VERSION);
    put_field(f, "version", WC_VERSION);
    size_t nd = o->b.nd ? o->b.nd : 1, per_design = o->np / o->b.ni / nd;
    int rc = 0;
    for (size_t d = 0; d < nd; d++) {
        put_field(f, "design", o->b.nd ? o->b.designs[d] : "");
        /* the group of design d with every grid value at its first */
        rc |= put_config(f, &o->cfgs[d * per_design]);
    }
    for (size_t d = 0; d < o->ndims; d++) {
        put_field(f, "dim", o->dims[d].name);
        for (size_t v = 0; v < o->dims[d].n; v++) put_field(f, "value", o->dims[d].values[v]);
    }
    for (size_t i = 0; i < o->b.ni; i++)
        put_field(f, o->b.is_trace[i] ? "trace" : "workload", o->b.inputs[i]);
    put_field(f, "kernels", o->b.kernels ? o->b.kernels : "");
    if (fclose(f) != 0 || !buf || rc) {
        free(buf);
        wc_cli_error("out of memory");
        return -1;
    }
    uint64_t h = wc_fnv1a64(WC_FNV1A64_INIT, buf, len);
    free(buf);
    snprintf(o->id, sizeof o->id, "%016llx", (unsigned long long)h);
    return 0;
}

/* Builds and checks every configuration (design, -o, grid values) before
 * anything runs or the results file is touched: a bad grid value fails the
 * whole sweep up front, whichever point it is in. */
static int make_configs(sweep_cli *o)
{
    size_t ncfg = o->np / o->b.ni;
    o->cfgs = calloc(ncfg ? ncfg : 1, sizeof *o->cfgs);
    if (!o->cfgs) return -1;
    for (size_t g = 0; g < ncfg; g++)
        if (point_config(o, &o->points[g * o->b.ni], &o->cfgs[g],
                         g == 0 && !o->c.quiet && (!o->ex || o->ex->writer)) < 0)
            return -1;
    for (size_t g = 0; g < ncfg; g++)
        if (check_config(o, g) < 0) return -1;
    return sweep_identity(o);
}

/* --shard I/N: the points [lo, hi) of slice I.  Contiguous slices, not
 * every N-th point: workloads are the innermost dimension and the main
 * source of cost differences, and a contiguous slice holds whole runs of
 * them, while every N-th point would give one shard the same workloads
 * whenever N divides their number. */
static void shard_range(const sweep_cli *o, size_t *lo, size_t *hi)
{
    *lo = 0;
    *hi = o->np;
    if (!o->shard_n) return;
    *lo = o->np * o->shard_i / o->shard_n;
    *hi = o->np * (o->shard_i + 1) / o->shard_n;
}

/* The jobs of the points not yet in the file; order[job] = point index. */
static wc_job *make_jobs(sweep_cli *o, size_t **order, size_t *n)
{
    wc_job *jobs = calloc(o->np ? o->np : 1, sizeof *jobs);
    *order = calloc(o->np ? o->np : 1, sizeof **order);
    if (!jobs || !*order) {
        free(jobs);
        wc_cli_error("out of memory");
        return NULL;
    }
    *n = 0;
    size_t lo, hi;
    shard_range(o, &lo, &hi);
    for (size_t i = lo; i < hi; i++) {
        const point *p = &o->points[i];
        if (o->line_of[i]) continue;
        wc_job *j = &jobs[*n];
        j->cfg = o->cfgs[i / o->b.ni]; /* workloads are the innermost dimension */
        j->spec.workload = o->b.is_trace[p->input] ? NULL : o->b.inputs[p->input];
        j->spec.trace = o->b.is_trace[p->input] ? o->b.inputs[p->input] : NULL;
        j->spec.kernels = o->b.is_trace[p->input] ? o->b.kernels : NULL;
        (*order)[(*n)++] = i;
    }
    return jobs;
}

/* A job's simulation ended (its line waits for the earlier ones): it leaves
 * the progress report's running ones. */
static void job_finished(void *ctx, size_t done, size_t total, const wc_job *job)
{
    wc_batch_progress_job_done(&((sweep_cli *)ctx)->prog, job);
}

/* Runs the points still to run (threads here, or the executor), appending
 * each finished point's line. */
static int run_points(sweep_cli *o, wc_job *jobs, size_t n)
{
    o->fd = open(o->results, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (o->fd < 0) {
        wc_cli_error("cannot write %s: %s", o->results, strerror(errno));
        return WC_EXIT_USAGE;
    }
    o->ntodo = n;
    wc_batch_progress_init(&o->prog, "sweep", &o->c.progress, o->c.quiet);
    if (!o->ex) wc_batch_progress_attach(&o->prog, jobs, n);
    int rc = WC_EXIT_OK;
    if (o->ex) {
        rc = o->ex->run(o->ex->ctx, o);
    } else {
        wc_batch_opts bo = {o->b.threads, job_finished, o, deliver, o};
        wc_err err = {{0}};
        if (wc_batch_run(jobs, n, &bo, &err) < 0) {
            wc_cli_error("%s", err.msg);
            rc = WC_EXIT_FAIL;
        }
    }
    wc_batch_progress_end(&o->prog);
    return rc;
}

/* The end of a sweep that had failed points: the first one in point order,
 * and how many there were. */
static int report_failures(const sweep_cli *o)
{
    const char *key = o->points[o->failed_point].key;
    if (o->write_failed || !o->keep_going)
        wc_cli_error("sweep point %zu (%s): %s", o->failed_point, key, o->fail_err.msg);
    else
        wc_cli_error("sweep: %zu point%s failed (error lines in %s); the first: point %zu (%s): %s",
                     o->nfailed, o->nfailed == 1 ? "" : "s", o->results, o->failed_point, key,
                     o->fail_err.msg);
    return o->fail_status;
}

/* ---- point order ---------------------------------------------------------- */

typedef struct file_line {
    size_t point, at, len;
} file_line;

static int cmp_file_line(const void *a, const void *b)
{
    size_t x = ((const file_line *)a)->point, y = ((const file_line *)b)->point;
    return x < y ? -1 : x > y;
}

/* Rewrites buf's lines in point order: a temporary file, fsync'd, renamed
 * over the results (a crash leaves either the old or the new file). */
static int rewrite_sorted(const sweep_cli *o, const char *buf, file_line *lines, size_t n)
{
    qsort(lines, n, sizeof *lines, cmp_file_line);
    wc_out out;
    if (wc_out_open(&out, o->results) < 0) return -1;
    for (size_t i = 0; i < n; i++) fwrite(buf + lines[i].at, 1, lines[i].len, out.f);
    if (fflush(out.f) != 0 || fsync(fileno(out.f)) != 0) {
        wc_cli_error("cannot write %s: %s", o->results, strerror(errno));
        wc_out_abort(&out);
        return -1;
    }
    return wc_out_commit(&out);
}

/* Puts the results file into point order when it is not (lines appended as
 * MPI ranks finished them, or a serial --resume of such a file), so that it
 * ends byte-identical to a serial sweep's.  Every line is this sweep's: the
 * old ones were checked by load_done, the new ones written under the lock. */
static int order_results(const sweep_cli *o)
{
    size_t len = 0;
    bool missing;
    char *buf = wc_results_read(o->results, &len, &missing);
    if (!buf) return missing ? 0 : -1;
    file_line *lines = NULL;
    size_t n = 0, cap = 0;
    int rc = -1;
    bool sorted = true;
    for (size_t at = 0, lineno = 1; at < len; lineno++) {
        char *nl = memchr(buf + at, '\n', len - at);
        size_t ll = nl ? (size_t)(nl - (buf + at)) + 1 : len - at;
        wc_results_head h;
        const key_index *hit =
            wc_results_scan_head(buf + at, ll, &h) == 0 ? find_key(o, h.key) : NULL;
        if (!hit) {
            wc_cli_error("internal: %s:%zu: not a line of this sweep after the sweep", o->results,
                         lineno);
            goto out;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            file_line *r = realloc(lines, cap * sizeof *r);
            if (!r) goto out;
            lines = r;
        }
        if (n && lines[n - 1].point > hit->point) sorted = false;
        lines[n++] = (file_line){hit->point, at, ll};
        at += ll;
    }
    rc = sorted ? 0 : rewrite_sorted(o, buf, lines, n);
out:
    free(buf);
    free(lines);
    return rc;
}

/* ---- the command -------------------------------------------------------------- */

/* Everything before the simulations.  Every process builds the grid and the
 * configurations; the writer also locks and reads the results file
 * (--resume) and opens the CSV, so a path that cannot be written fails now. */
static int set_up(sweep_cli *o, int argc, char **argv, size_t *ndone, wc_job **jobs, size_t **order,
                  size_t *n, wc_out_set *outs, bool *outs_open)
{
    bool writer = !o->ex || o->ex->writer;
    if (parse(o, argc, argv) < 0 || make_points(o) < 0 || make_configs(o) < 0 ||
        wc_cli_check_inputs(o->b.inputs, o->b.is_trace, o->b.ni, o->b.kernels) < 0)
        return WC_EXIT_USAGE;
    if (!writer) return WC_EXIT_OK;
    const char *paths[2] = {o->c.csv, o->results};
    static const char *const opts[2] = {"--csv", "--results"};
    /* neither output is an input nor the other: a sweep must not append its
     * lines to a configuration it reads, or replace a trace with its CSV */
    if (wc_cli_batch_check_outputs(&o->c, &o->b, paths, opts, 2) < 0 ||
        wc_results_check_regular(o->results) < 0)
        return WC_EXIT_USAGE;
    /* held until the sweep ends: a second sweep on the file is refused */
    if (wc_results_lock_take(&o->lock, o->results) < 0) return WC_EXIT_USAGE;
    if (load_done(o, ndone) < 0) return WC_EXIT_USAGE;
    if (!(*jobs = make_jobs(o, order, n))) return WC_EXIT_FAIL;
    if (wc_out_set_open(outs, paths, 1) < 0) return WC_EXIT_USAGE;
    *outs_open = true;
    o->order = *order;
    size_t lo, hi;
    shard_range(o, &lo, &hi);
    if (!o->c.quiet && o->shard_n && lo < hi)
        fprintf(stderr, "warpcache: shard %zu/%zu: points %zu to %zu of %zu\n", o->shard_i,
                o->shard_n, lo, hi - 1, o->np);
    else if (!o->c.quiet && o->shard_n)
        fprintf(stderr, "warpcache: shard %zu/%zu: no points (%zu points in %zu shards)\n",
                o->shard_i, o->shard_n, o->np, o->shard_n);
    if (!o->c.quiet && *ndone)
        fprintf(stderr, "warpcache: %s: %zu points already done, %zu to run\n", o->results,
                hi - lo - *n, *n);
    return WC_EXIT_OK;
}

int wc_cmd_sweep(int argc, char **argv)
{
    return wc_cmd_sweep_with(argc, argv, NULL);
}

int wc_cmd_sweep_with(int argc, char **argv, const wc_sweep_exec *ex)
{
    sweep_cli o;
    memset(&o, 0, sizeof o);
    o.fd = -1;
    o.lock.fd = -1;
    o.ex = ex;
    wc_cli_common_init(&o.c);
    size_t ndone = 0, n = 0;
    wc_job *jobs = NULL;
    size_t *order = NULL;
    wc_out_set outs;
    bool outs_open = false;
    bool writer = !ex || ex->writer;
    int rc = WC_EXIT_OK;
    if (writer) rc = set_up(&o, argc, argv, &ndone, &jobs, &order, &n, &outs, &outs_open);
    if (ex && (rc = ex->lead(ex->ctx, rc)) == WC_EXIT_OK) {
        /* the writer's set-up passed: another process can only fail on its own machine */
        if (!writer) rc = set_up(&o, argc, argv, &ndone, &jobs, &order, &n, &outs, &outs_open);
        rc = ex->agree(ex->ctx, rc); /* nobody waits for a process that gave up */
    }
    if (rc != WC_EXIT_OK) goto out;
    if (!writer) {
        rc = ex->run(ex->ctx, &o);
        goto out;
    }
    rc = run_points(&o, jobs, n);
    if (o.fd >= 0) close(o.fd);
    o.fd = -1;
    if (rc == WC_EXIT_OK && o.broken) rc = WC_EXIT_FAIL;
    if (rc != WC_EXIT_OK) goto out;
    if (o.failed && (o.write_failed || !o.keep_going)) {
        rc = report_failures(&o);
        goto out;
    }
    if (order_results(&o) < 0) {
        rc = WC_EXIT_FAIL;
        goto out;
    }
    FILE *csv = wc_out_set_file(&outs, 0);
    rc = csv && write_csv(&o, csv) < 0 ? WC_EXIT_FAIL : wc_out_set_commit(&outs);
    if (rc == WC_EXIT_OK && o.failed) rc = report_failures(&o);
out:
    if (outs_open) wc_out_set_abort(&outs); /* after a failure: the temporary file goes */
    if (o.fd >= 0) close(o.fd);
    wc_batch_free(jobs, n);
    free(jobs);
    free(order);
    wc_results_lock_release(&o.lock);
    free_cli(&o);
    return rc;
}
