/*
 * main.c - the warpcache program: dispatches to one subcommand per file
 * (cmd_*.c).  Only src/cli/ turns errors into exit statuses.  The process
 * entry is elsewhere (entry.c; src/mpi/main_mpi.c for warpcache-mpi), so
 * that both programs share this table.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "warpcache/model.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *help;
} command;

static const command commands[] = {
    {"run", wc_cmd_run, "simulate a built-in workload or a trace"},
    {"list", wc_cmd_list, "list built-in workloads, designs and plug-ins"},
    {"config", wc_cmd_config, "show the effective configuration or every option"},
    {"model", wc_cmd_model, "seed 003's reuse-distance L1 model (miss rates, miss classes)"},
    {"mrc", wc_cmd_mrc, "miss-ratio curves from stack distances (table, CSV, JSON, SVG)"},
    {"validate", wc_cmd_validate, "compare the model's and the simulator's L1 miss rates"},
    {"compare", wc_cmd_compare, "designs x workloads: one normalised table, means per class"},
    {"sweep", wc_cmd_sweep, "a grid of option values x workloads, resumable JSONL results"},
    {"merge", wc_cmd_merge, "join the results files of sweep --shard slices"},
    {"oracle", wc_cmd_oracle,
     "the seeds' per-workload oracles (pdp-best, swt): searches, not designs"},
    {"trace", wc_cmd_trace, "trace info and conversion (Accel-Sim, .trc, .wct)"},
    {"report", wc_cmd_report, "one self-contained HTML page of figures from results files"},
};

static void usage(FILE *f)
{
    fprintf(f,
            "warpcache %s - a fast trace-driven GPU memory-system simulator\n"
            "\n"
            "usage: warpcache COMMAND [options]    (warpcache COMMAND --help for details)\n"
            "\n"
            "commands:\n",
            WC_VERSION);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
    fprintf(f, "\nexample: warpcache run --workload micro/colcopy:h=256 --config "
               "configs/fermi-16k.config\n"
               "documentation: README.md and docs/ in the source tree\n");
}

int wc_cli_main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return wc_out_finish_stdout(argc < 2 ? WC_EXIT_USAGE : 0);
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        printf("warpcache %s\n", WC_VERSION);
        return wc_out_finish_stdout(0);
    }
    /* Whatever a command printed on stdout is flushed here, and a failed
     * write (a full disk, /dev/full) is an error, not a silent loss. */
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return wc_out_finish_stdout(commands[i].run(argc - 1, argv + 1));
    wc_cli_error("unknown command '%s' (warpcache --help lists them)", argv[1]);
    return WC_EXIT_USAGE;
}
