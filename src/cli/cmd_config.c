/*
 * cmd_config.c - `warpcache config`: show the effective configuration (after
 * the file, the design and -o overrides) in gpgpusim.config syntax, or list
 * every option.
 */
#include <string.h>

#include "cli/cli.h"
#include "warpcache/params.h"

static const char config_help[] =
    "usage: warpcache config [--options] [--config FILE] [--design NAME] [-o NAME=VALUE ...]\n"
    "\n"
    "Prints the effective configuration in gpgpusim.config syntax (loadable with --config),\n"
    "or with --options every modelled option and its meaning.\n";

/* A plug-in's own parameter (params.h), after the central options. */
static void print_plugin_param(void *ctx, const char *owner, const wc_param_desc *d)
{
    printf("-%-36s %s [%s; default %llu, %llu..%llu]\n", d->key, d->help, owner,
           (unsigned long long)d->def, (unsigned long long)d->min, (unsigned long long)d->max);
}

int wc_cmd_config(int argc, char **argv)
{
    wc_cli_common c;
    wc_cli_common_init(&c);
    bool options = false;
    for (int i = 1; i < argc; i++) {
        int rc = wc_cli_common_arg(&c, argc, argv, &i);
        if (rc < 0) return WC_EXIT_USAGE;
        if (rc > 0) continue;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            printf("%s\n%s", config_help, wc_cli_common_help);
            return 0;
        }
        if (strcmp(argv[i], "--options") == 0)
            options = true;
        else {
            wc_cli_error("config: unknown option '%s'", argv[i]);
            return WC_EXIT_USAGE;
        }
    }
    if (options) {
        size_t n;
        const wc_option_doc *d = wc_config_options(&n);
        for (size_t i = 0; i < n; i++) printf("-%-36s %s\n", d[i].name, d[i].help);
        wc_plugin_params_each(print_plugin_param, NULL);
        return 0;
    }
    if (wc_cli_load_config(&c) < 0) return WC_EXIT_USAGE;
    wc_config_dump(&c.cfg, stdout); /* main.c checks that stdout took it */
    return 0;
}
