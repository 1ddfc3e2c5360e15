/*
 * cli.h - what the subcommands of the warpcache program share: the common
 * options (--config, -o, --seed, --json, --csv, --quiet), error printing
 * (exit status 2 for bad input) and the progress line.
 */
#ifndef WC_CLI_CLI_H
#define WC_CLI_CLI_H

#include <stdio.h>

#include "warpcache/config.h"
#include "warpcache/sim.h"

#define WC_EXIT_OK    0
#define WC_EXIT_FAIL  1 /* internal failure */
#define WC_EXIT_USAGE 2 /* bad input: options, files, configurations */

typedef struct wc_cli_common {
    wc_config cfg;
    const char *config_path;
    const char *overrides[64];
    unsigned n_overrides;
    const char *json, *csv;
    bool quiet, seed_set;
    uint64_t seed;
} wc_cli_common;

void wc_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void wc_cli_common_init(wc_cli_common *c);
/* Consumes argv[*i] (and its value) if it is a common option: 1; not ours: 0;
 * bad: -1 (message printed). */
int wc_cli_common_arg(wc_cli_common *c, int argc, char **argv, int *i);
/* Loads the configuration file, applies -o overrides and --seed, validates,
 * and lists ignored options once on stderr.  -1 on error (printed). */
int wc_cli_load_config(wc_cli_common *c);
/* The help text of the common options. */
extern const char wc_cli_common_help[];
/* Opens an output ("-" is stdout); NULL with a message on failure. */
FILE *wc_cli_open_out(const char *path);
void wc_cli_close_out(FILE *f);

/* Progress line on stderr when it is a terminal. */
typedef struct wc_progress {
    bool enabled;
    double t0;
    const char *label;
} wc_progress;
void wc_progress_init(wc_progress *p, const char *label, bool quiet);
void wc_progress_cb(void *ctx, const wc_kernel *k, uint64_t done, uint64_t total, uint64_t cycle);
void wc_progress_end(wc_progress *p);
double wc_now_seconds(void);

/* Subcommands. */
int wc_cmd_run(int argc, char **argv);
int wc_cmd_list(int argc, char **argv);
int wc_cmd_config(int argc, char **argv);
int wc_cmd_trace(int argc, char **argv);
int wc_cmd_validate(int argc, char **argv);

#endif
