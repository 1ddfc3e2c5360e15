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
    "or with --options every modelled option and its meaning.\n"
    "\n"
    "%s";

enum { O_OPTIONS = 1 };
static const wc_opt config_table[] = {
    {O_OPTIONS, 0, "options", NULL, "list every modelled option and its meaning", 0},
    {0},
};
static const wc_opt *const config_tables[] = {config_table, wc_cli_common_opts, NULL};

/* A plug-in's own parameters (params.h), after the central options: an
 * option of its own ("-ship_sig_bits", L1 organisations and replacement
 * policies) or a key after its name in the option that chooses it
 * ("-controllers swl:warp_limit=N"). */
static void print_plugin_params(void *ctx, const wc_plugin_info *p)
{
    if (p->style == WC_PLUGIN_OPTIONS && !p->help && strcmp(p->family, "l1") == 0)
        return; /* an organisation's second schema: listed under the one that declares it */
    for (const wc_param_desc *d = p->params; d && d->key; d++) {
        char name[128], what[256];
        if (p->style == WC_PLUGIN_OPTIONS)
            snprintf(name, sizeof name, "%s", d->key);
        else
            snprintf(name, sizeof name, "%s %s:%s=%s", p->option + 1, p->name, d->key,
                     d->type == WC_PARAM_DOUBLE     ? "X"
                     : d->type == WC_PARAM_UNSIGNED ? "N"
                                                    : "V");
        wc_param_describe(d, what, sizeof what);
        if (p->style == WC_PLUGIN_OPTIONS) /* say whose it is: the name does not */
            printf("-%-36s %s [%s %s; %s]\n", name, d->help ? d->help : "", p->option, p->name,
                   what);
        else
            printf("-%-36s %s [%s]\n", name, d->help ? d->help : "", what);
    }
}

int wc_cmd_config(int argc, char **argv)
{
    wc_cli_common c;
    wc_cli_common_init(&c);
    bool options = false;
    wc_opts p;
    wc_opts_init(&p, "config", config_tables, argc, argv);
    for (int id; (id = wc_opts_next(&p)) != WC_OPT_DONE;) {
        int rc = wc_cli_common_take(&c, &p, id);
        if (rc < 0) return WC_EXIT_USAGE;
        if (rc > 0) continue;
        switch (id) {
        case WC_OPT_HELP: wc_opts_print_help(config_help, config_tables); return 0;
        case WC_OPT_BAD: return WC_EXIT_USAGE;
        case WC_OPT_ARG:
            wc_cli_error("config: unexpected argument '%s' (a file is given with --config FILE)",
                         p.value);
            return WC_EXIT_USAGE;
        case O_OPTIONS: options = true; break;
        }
    }
    if (options) {
        size_t n;
        const wc_option_doc *d = wc_config_options(&n);
        for (size_t i = 0; i < n; i++) printf("-%-36s %s\n", d[i].name, d[i].help);
        wc_plugins_each(NULL, print_plugin_params, NULL);
        return 0;
    }
    if (wc_cli_load_config(&c) < 0) return WC_EXIT_USAGE;
    wc_config_dump(&c.cfg, stdout); /* main.c checks that stdout took it */
    return 0;
}
