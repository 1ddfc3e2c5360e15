/*
 * opts.h - the one option parser of every command, following GNU
 * conventions, driven by tables of options (the common ones, compare's and
 * sweep's shared ones, each command's own) from which the help text is
 * printed too: what is parsed and what is documented cannot drift apart.
 *
 *   --name VALUE and --name=VALUE; -x VALUE and -xVALUE
 *   a flag given a value (--quiet=1) is refused
 *   a separate value that looks like an option is refused (--svg -q would
 *   write a file named "-q"); --svg=-q says that it is meant.  Options whose
 *   value is NAME=VALUE take "-name=value" (-o -gpgpu_n_mem=4), and a
 *   negative number is no option
 *   "--" ends the options; -h and --help are every command's help
 *   an unknown option gets the nearest known one ("did you mean --metric?")
 * Short options are not bundled (-qj4 is not -q -j4).
 */
#ifndef WC_CLI_OPTS_H
#define WC_CLI_OPTS_H

#include <stdbool.h>
#include <stdio.h>

typedef struct wc_opt {
    int id;                /* what wc_opts_next returns (> 0); 0 ends a table */
    char short_name;       /* 'w' for -w; 0: none */
    const char *long_name; /* "workload" for --workload; NULL: none */
    const char *arg;       /* the value's name in help ("NAME", "FILE|-"); NULL: a flag */
    const char *help;      /* lines separated by '\n'; NULL: not listed (an old spelling) */
    unsigned flags;
} wc_opt;

/* The value is NAME=VALUE: a separate "-name=value" is a value, not an option. */
#define WC_OPT_SETTING 1u

/* What wc_opts_next returns besides an option's id. */
enum {
    WC_OPT_DONE = 0,  /* no arguments left */
    WC_OPT_BAD = -1,  /* an unknown option or a missing value: printed, exit status 2 */
    WC_OPT_ARG = -2,  /* a positional argument, in .value */
    WC_OPT_HELP = -3, /* -h or --help */
};

typedef struct wc_opts {
    const char *cmd;             /* "run": messages start "run: " */
    const wc_opt *const *tables; /* NULL-terminated */
    int argc;
    char **argv;
    int next;       /* index of the next argument */
    bool only_args; /* after "--" */
    /* the last result */
    const wc_opt *opt;  /* the option found (NULL for a positional argument) */
    const char *value;  /* its value (NULL for a flag), or the positional argument */
    char as_given[128]; /* the option as written, without a value: "--svg", "-o" */
} wc_opts;

/* Parses argv[1..argc) (argv[0] is the command's name). */
void wc_opts_init(wc_opts *p, const char *cmd, const wc_opt *const *tables, int argc, char **argv);
int wc_opts_next(wc_opts *p);
/* "--svg" or "-o": how the option found is called in messages (the long
 * name when it has one, whatever was typed). */
const char *wc_opts_name(const wc_opts *p);
/* The options of the tables as help lines ("  -w, --workload NAME  ...");
 * malloc'd, NULL when out of memory. */
char *wc_opts_help_text(const wc_opt *const *tables);
/* printf(fmt, help text of the tables) on stdout: fmt holds one "%s". */
void wc_opts_print_help(const char *fmt, const wc_opt *const *tables);

#endif
