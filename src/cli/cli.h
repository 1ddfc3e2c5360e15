/*
 * cli.h - what the subcommands of the warpcache program share: the common
 * options (--config, --design, -o, --seed, --json, --csv, --quiet), error printing
 * (exit status 2 for bad input) and the progress line.
 */
#ifndef WC_CLI_CLI_H
#define WC_CLI_CLI_H

#include <stdio.h>

#include "cli/opts.h"
#include "warpcache/config.h"
#include "warpcache/experiment.h"
#include "warpcache/sim.h"
#include "cli/progress.h"

#define WC_EXIT_OK    0
#define WC_EXIT_FAIL  1 /* internal failure */
#define WC_EXIT_USAGE 2 /* bad input: options, files, configurations */

typedef struct wc_cli_common {
    wc_config cfg;
    const char *config_path;
    const char *design; /* --design NAME|PATH, applied after the file, before -o */
    const char *overrides[64];
    unsigned n_overrides;
    const char *json, *csv;
    bool quiet, seed_set;
    wc_progress_opts progress; /* --progress, --progress-interval (progress.h) */
    bool lenient;              /* --lenient-config: a file's unknown option names are skipped */
    uint64_t seed;
} wc_cli_common;

void wc_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The exit status of a library error: 1 for the library's own failures
 * ("internal: ...", out of memory), 2 for everything about the input. */
int wc_cli_status_of(const wc_err *err);
void wc_cli_common_init(wc_cli_common *c);
/* The ids of the options every simulating command takes (wc_cli_common_opts)
 * and of those of compare, sweep and oracle (wc_cli_batch_take): a command
 * lists the latter in its own table, in its own words. */
enum {
    WC_CLI_O_CONFIG = 1000,
    WC_CLI_O_DESIGN,
    WC_CLI_O_SET,
    WC_CLI_O_LENIENT,
    WC_CLI_O_SEED,
    WC_CLI_O_JSON,
    WC_CLI_O_CSV,
    WC_CLI_O_QUIET,
    WC_CLI_O_DESIGNS = 1100,
    WC_CLI_O_WORKLOAD,
    WC_CLI_O_TRACE,
    WC_CLI_O_KERNELS,
    WC_CLI_O_JOBS,
};
/* --config, --design, -o, --lenient-config, --seed, --json, --csv, -q. */
extern const wc_opt wc_cli_common_opts[];
/* Takes option `id` (its value in p) if it is a common one: 1; not ours:
 * 0; bad: -1 (message printed). */
int wc_cli_common_take(wc_cli_common *c, const wc_opts *p, int id);
/* Loads the configuration file, applies -o overrides and --seed, validates,
 * and lists ignored options once on stderr.  -1 on error (printed). */
int wc_cli_load_config(wc_cli_common *c);
/* One NAME=VALUE setting applied after -o (sweep grid points). */
typedef struct wc_cli_setting {
    const char *name, *value;
} wc_cli_setting;
/* Builds a configuration in the documented order: defaults, --config file,
 * `design` (NULL: none), -o overrides, `extra` settings, --seed; validated.
 * `notes`: list options of the file that are not modelled.  -1 on error
 * (printed). */
int wc_cli_build_config(const wc_cli_common *c, const char *design, const wc_cli_setting *extra,
                        size_t n_extra, wc_config *out, bool notes);
/* The design directories, in search order: each directory of
 * $WARPCACHE_DESIGNS (':'-separated), then ../configs/designs and
 * ../share/warpcache/designs beside the executable, then ./configs/designs;
 * only those that exist. */
typedef struct wc_cli_dirs {
    char buf[6][1024];
    const char *dirs[6];
    size_t n;
} wc_cli_dirs;
void wc_cli_design_dirs(wc_cli_dirs *d);
/* Finds a design by name or path; prints the error (which lists the known
 * designs) and returns -1 when there is none. */
int wc_cli_find_design(const char *name, wc_design_info *info);
/* Opens (and closes) every input once, so a bad workload parameter or an
 * unreadable trace is reported before hours of simulation, not after.
 * -1 on the first bad one (printed). */
int wc_cli_check_inputs(char *const *inputs, const bool *is_trace, size_t n, const char *kernels);
/* Reads a whole file into a NUL-terminated buffer (free() it), *len bytes.
 * NULL with the error printed; with `missing` given, a file that does not
 * exist sets *missing and prints nothing (results files that may be new). */
char *wc_cli_read_file(const char *path, size_t *len, bool *missing);
/* Parses -j N. */
int wc_cli_parse_jobs(const char *v, unsigned *out);

/* The designs and inputs compare and sweep take (batch_args.c). */
#define WC_CLI_MAX_DESIGNS 64
#define WC_CLI_MAX_INPUTS  1024
typedef struct wc_cli_batch {
    char designs_arg[4096];
    const char *designs[WC_CLI_MAX_DESIGNS]; /* into designs_arg */
    size_t nd;
    char **inputs; /* workload specs or trace paths, in order */
    bool *is_trace;
    size_t ni;
    const char *kernels; /* --kernels, applied to every trace */
    unsigned threads;    /* -j; 0 = every CPU */
} wc_cli_batch;
/* Takes option `id` if it is --designs, --workload/-w, --trace/-t,
 * --kernels or -j: 1; not one of them: 0; bad: -1 (printed, messages
 * prefixed with the command's name). */
int wc_cli_batch_take(wc_cli_batch *b, const wc_opts *p, int id);
void wc_cli_batch_free(wc_cli_batch *b);
/* -1 (printed, exit 2) when two of the n_out output paths are one file or one
 * is an input of the batch: the --config file, a design's file, a trace. */
int wc_cli_batch_check_outputs(const wc_cli_common *c, const wc_cli_batch *b,
                               const char *const *paths, const char *const *opts, size_t n_out);
/* -1 (message listing the seeds that have classes, exit 2) when no built-in
 * workload has a class label of seed `seed` (--by-class). */
int wc_cli_check_seed_class(const char *opt, const char *seed);
/* Runs the jobs on `threads` threads (0: every CPU) with one progress line;
 * WC_EXIT_OK, or the exit status after printing the batch's error or the
 * first failed job's (in job order). */
int wc_cli_run_jobs(wc_job *jobs, size_t n, unsigned threads, const char *label,
                    const wc_cli_common *c);

/* ---- outputs (outfile.c): written whole or not at all ---------------------- */

#define WC_OUT_PATH 4096

/* One output file: written to `tmp` next to `final`, renamed at commit;
 * `tmp` is "" when written in place (stdout, a device, a pipe). */
typedef struct wc_out {
    FILE *f;
    const char *path; /* as given; "-" = stdout */
    char final[WC_OUT_PATH], tmp[WC_OUT_PATH];
    int slot;      /* in the signal-cleanup registry, -1 = none */
    unsigned mode; /* given to tmp at commit: the old file's, or 0666 less the umask */
} wc_out;

/* Opens path for writing ("-" = stdout).  -1 with a message: exit 2. */
int wc_out_open(wc_out *o, const char *path);
/* Like wc_out_open, but for a writer that opens wc_out_target() itself. */
int wc_out_reserve(wc_out *o, const char *path);
const char *wc_out_target(const wc_out *o);
/* Checks every write, closes, renames into place.  -1 with a message
 * naming the file (nothing is left behind): exit 1. */
int wc_out_commit(wc_out *o);
/* Closes and removes the temporary file; the destination is untouched. */
void wc_out_abort(wc_out *o);
/* A command's outputs, opened together before the work (a path that cannot
 * be written fails at once, not after a long run), committed together. */
#define WC_OUT_SET_MAX 4
typedef struct wc_out_set {
    wc_out out[WC_OUT_SET_MAX];
    bool used[WC_OUT_SET_MAX];
    size_t n;
} wc_out_set;
/* Opens paths[i] (NULL = not given).  -1 with a message (exit 2), nothing left open. */
int wc_out_set_open(wc_out_set *s, const char *const *paths, size_t n);
/* The stream of output i, NULL when it was not given. */
FILE *wc_out_set_file(const wc_out_set *s, size_t i);
/* Commits every output; 0, or 1 when one could not be written. */
int wc_out_set_commit(wc_out_set *s);
/* Removes what is still open (after a failure). */
void wc_out_set_abort(wc_out_set *s);
/* Flushes stdout at the end of a command: a failed write turns status 0 into 1. */
int wc_out_finish_stdout(int status);
/* A command's own temporary file, removed if a signal ends the process;
 * the slot to unregister (-1 when the registry is full). */
int wc_out_temp_register(const char *path);
void wc_out_temp_unregister(int slot);
/* Whether two output paths name the same file ("-" = stdout). */
bool wc_out_same_file(const char *a, const char *b);
/* -1 (message, exit 2) when two of the n outputs (NULL = not given) are
 * one file; opts[i] names the option of paths[i]. */
int wc_out_check_distinct(const char *const *paths, const char *const *opts, size_t n);

/* -1 (message, exit 2) when one of the outputs is the input file, or a file
 * of the Accel-Sim trace the input is (its kernelslist.g or a kernel file). */
int wc_out_check_not_input(const char *input, const char *const *paths, const char *const *opts,
                           size_t n);
/* Every check of a command's outputs at once: no two are one file, and none
 * is an input: --config, the file of --design, or inputs[0..nin) (traces,
 * results files; NULL entries and built-in workload names are skipped since
 * they are no file).  -1 with a message: exit 2. */
int wc_out_check_io(const wc_cli_common *c, const char *const *inputs, size_t nin,
                    const char *const *paths, const char *const *opts, size_t n);
/* mkstemp(tmpl), registered for removal on a fatal signal with no window in
 * between; the fd, or -1 with errno (*slot: -1). */
int wc_out_mkstemp(char *tmpl, int *slot);

/* A staging folder for an output of several files (a trace folder, a .trc
 * series): files are written into `tmp`, then moved into the destination
 * folder, `last` (e.g. kernelslist.g, or NULL) after every other file. */
typedef struct wc_stage {
    char tmp[WC_OUT_PATH];
    int slot;
} wc_stage;
/* Creates the staging folder next to dest_dir.  -1 with a message: exit 2. */
int wc_stage_open(wc_stage *s, const char *dest_dir);
/* Moves the staged files into dest (created when missing).  -1: exit 1. */
int wc_stage_commit(wc_stage *s, const char *dest, const char *last);
void wc_stage_abort(wc_stage *s);

/* Subcommands. */
int wc_cmd_run(int argc, char **argv);
int wc_cmd_list(int argc, char **argv);
int wc_cmd_config(int argc, char **argv);
int wc_cmd_trace(int argc, char **argv);
int wc_cmd_validate(int argc, char **argv);
int wc_cmd_validate_hw(int argc, char **argv);
int wc_cmd_compare(int argc, char **argv);
int wc_cmd_sweep(int argc, char **argv);
int wc_cmd_oracle(int argc, char **argv);
int wc_cmd_report(int argc, char **argv);
int wc_cmd_merge(int argc, char **argv);
/* The program: dispatches argv[1] to its command (main.c). */
int wc_cli_main(int argc, char **argv);

#endif
