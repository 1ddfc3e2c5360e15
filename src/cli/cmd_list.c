/*
 * cmd_list.c - `warpcache list`: the built-in workloads (with suites,
 * kernels, default sizes and the seeds' class labels), the named designs
 * (configs/designs/) and the registered plug-ins (L1 organisations, warp schedulers, index
 * functions, replacement, analyses).
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/sched.h"
#include "warpcache/analysis.h"
#include "warpcache/cache.h"
#include "warpcache/workloads.h"

static const char list_help[] =
    "usage: warpcache list [workloads|designs|l1|schedulers|index|replacement|analyses]\n"
    "                      [--suite NAME]\n"
    "\n"
    "Lists built-in workloads (default), the designs of --design/--designs with their\n"
    "paper, or the registered plug-ins.\n";

static int list_designs(void)
{
    wc_cli_dirs d;
    wc_design_info *all = NULL;
    size_t n = 0;
    wc_err err = {{0}};
    wc_cli_design_dirs(&d);
    if (wc_design_list(d.dirs, d.n, &all, &n, &err) < 0) {
        wc_cli_error("%s", err.msg);
        return WC_EXIT_FAIL;
    }
    /* descriptions are sentences: the paper goes on its own line */
    for (size_t i = 0; i < n; i++)
        printf("%-16s %s\n%-16s paper: %s\n", all[i].name, all[i].description, "",
               all[i].paper[0] ? all[i].paper : "(none given)");
    if (d.n == 0)
        printf("(no design directory found: set WARPCACHE_DESIGNS or run from the source tree)\n");
    else
        printf("\nfrom %s%s; use with --design NAME or compare/sweep --designs A,B\n", d.dirs[0],
               d.n > 1 ? " and later directories" : "");
    free(all);
    return 0;
}

static void list_workloads(const char *suite)
{
    size_t n;
    const wc_workload *const *w = wc_workload_list(&n);
    printf("%-28s %-10s %-30s %-22s %s\n", "workload", "suite", "kernels", "default size",
           "classes (seed:label)");
    for (size_t i = 0; i < n; i++) {
        if (suite && strcmp(w[i]->suite, suite) != 0) continue;
        printf("%-28s %-10s %-30.30s %-22.22s %s\n", w[i]->name, w[i]->suite, w[i]->kernels,
               w[i]->size, w[i]->classes);
    }
    printf("\nRun one with: warpcache run --workload NAME[:key=value,...]; a suite name runs "
           "all of its workloads.\n");
}

/* A suite that has no workload is a typo, not an empty list. */
static int check_suite(const char *suite)
{
    size_t n;
    const wc_workload *const *w = wc_workload_list(&n);
    char known[512] = "";
    for (size_t i = 0; i < n; i++) {
        if (strcmp(w[i]->suite, suite) == 0) return 0;
        bool seen = false;
        for (size_t j = 0; j < i; j++) seen |= strcmp(w[j]->suite, w[i]->suite) == 0;
        if (!seen && strlen(known) + strlen(w[i]->suite) + 3 < sizeof known)
            snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
                     known[0] ? ", " : "", w[i]->suite);
    }
    wc_cli_error("list: unknown suite '%s' (suites: %s)", suite, known);
    return -1;
}

int wc_cmd_list(int argc, char **argv)
{
    const char *what = "workloads", *suite = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(list_help, stdout);
            return 0;
        }
        if (strcmp(argv[i], "--suite") == 0) {
            if (i + 1 >= argc) {
                wc_cli_error("list: option --suite needs a value");
                return WC_EXIT_USAGE;
            }
            suite = argv[++i];
        } else if (argv[i][0] != '-')
            what = argv[i];
        else {
            wc_cli_error("list: unknown option '%s'", argv[i]);
            return WC_EXIT_USAGE;
        }
    }
    size_t n;
    if (suite && strcmp(what, "workloads") != 0) {
        wc_cli_error("list: --suite applies to workloads only");
        return WC_EXIT_USAGE;
    }
    if (suite && check_suite(suite) < 0) return WC_EXIT_USAGE;
    if (strcmp(what, "workloads") == 0) {
        list_workloads(suite);
    } else if (strcmp(what, "designs") == 0) {
        return list_designs();
    } else if (strcmp(what, "l1") == 0) {
        const wc_l1_ops *const *l = wc_l1_list(&n);
        for (size_t i = 0; i < n; i++)
            printf("%-16s %s\n", l[i]->name, l[i]->help ? l[i]->help : "");
    } else if (strcmp(what, "schedulers") == 0) {
        const wc_sched_ops *const *s = wc_sched_list(&n);
        for (size_t i = 0; i < n; i++) printf("%-16s %s\n", s[i]->name, s[i]->help);
    } else if (strcmp(what, "index") == 0) {
        const wc_index_desc *d = wc_index_list(&n);
        for (size_t i = 0; i < n; i++) printf("%-16s letter %c\n", d[i].name, d[i].letter);
    } else if (strcmp(what, "replacement") == 0) {
        const wc_repl_ops *const *r = wc_repl_list(&n);
        for (size_t i = 0; i < n; i++)
            printf("%-16s letter %c\n", r[i]->name, r[i]->letter ? r[i]->letter : '-');
    } else if (strcmp(what, "analyses") == 0) {
        const wc_analysis_ops *const *a = wc_analysis_list(&n);
        for (size_t i = 0; i < n; i++) printf("%-16s %s\n", a[i]->name, a[i]->help);
    } else {
        wc_cli_error("list: unknown category '%s' (workloads, designs, l1, schedulers, index, "
                     "replacement, analyses)",
                     what);
        return WC_EXIT_USAGE;
    }
    return 0;
}
