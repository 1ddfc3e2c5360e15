/*
 * plugins.c - every registered plug-in with its parameter schema, family by
 * family (params.h, wc_plugins_each): what `warpcache list`, `config
 * --options` and docs/parameters.md are generated from.
 *
 * The families are the option that chooses a plug-in: a new plug-in of a
 * family appears here through its registry; a new family with parameters is
 * one more walk below.
 */
#include <string.h>

#include "core/memstage.h"
#include "core/sched.h"
#include "mem/xbar.h"
#include "warpcache/cache.h"
#include "warpcache/control.h"
#include "warpcache/params.h"

typedef void (*plugin_fn)(void *ctx, const wc_plugin_info *p);

static void controllers(plugin_fn fn, void *ctx)
{
    size_t n;
    const wc_controller_ops *const *c = wc_controller_list(&n);
    for (size_t i = 0; i < n; i++)
        fn(ctx, &(wc_plugin_info){"controllers", "-controllers", c[i]->name, c[i]->help,
                                  c[i]->params, WC_PLUGIN_SPEC});
}

static void stages(plugin_fn fn, void *ctx)
{
    size_t n;
    const wc_mstage_ops *const *s = wc_mstage_list(&n);
    for (size_t i = 0; i < n; i++)
        fn(ctx, &(wc_plugin_info){"stages", "-mem_stage", s[i]->name, s[i]->help, s[i]->params,
                                  WC_PLUGIN_SPEC});
}

static void schedulers(plugin_fn fn, void *ctx)
{
    size_t n;
    const wc_sched_ops *const *s = wc_sched_list(&n);
    for (size_t i = 0; i < n; i++)
        fn(ctx, &(wc_plugin_info){"schedulers", "-gpgpu_scheduler", s[i]->name, s[i]->help,
                                  s[i]->params, WC_PLUGIN_SPEC});
}

static void interconnects(plugin_fn fn, void *ctx)
{
    fn(ctx,
       &(wc_plugin_info){"icnt", "-icnt_model", "ports",
                         "timestamped ports per packet (the default without -network_mode 1 or 2)",
                         NULL, WC_PLUGIN_SPEC});
    fn(ctx, &(wc_plugin_info){"icnt", "-icnt_model", "islip",
                              "GPGPU-Sim's booksim crossbar, cycle by cycle (L2 -> SM)",
                              wc_xbar_islip_params, WC_PLUGIN_SPEC});
    fn(ctx,
       &(wc_plugin_info){"icnt", "-icnt_model", "local",
                         "GPGPU-Sim 4.x's local crossbar, cycle by cycle (L2 -> SM; its -icnt_* "
                         "options; the default under -network_mode 2)",
                         NULL, WC_PLUGIN_SPEC});
}

static void l1_orgs(plugin_fn fn, void *ctx)
{
    size_t n;
    const wc_l1_ops *const *l = wc_l1_list(&n);
    for (size_t i = 0; i < n; i++) {
        fn(ctx, &(wc_plugin_info){"l1", "-l1_org", l[i]->name, l[i]->help, l[i]->params,
                                  WC_PLUGIN_OPTIONS});
        if (l[i]->base_params) /* an organisation built on another reads its options too */
            fn(ctx, &(wc_plugin_info){"l1", "-l1_org", l[i]->name, NULL, l[i]->base_params,
                                      WC_PLUGIN_OPTIONS});
    }
}

static void replacement(plugin_fn fn, void *ctx)
{
    size_t n;
    const wc_repl_ops *const *r = wc_repl_list(&n);
    for (size_t i = 0; i < n; i++)
        fn(ctx, &(wc_plugin_info){"replacement", "-gpgpu_cache:dl1/dl2 rp letter", r[i]->name, NULL,
                                  r[i]->params, WC_PLUGIN_OPTIONS});
}

static const struct {
    const char *family;
    void (*walk)(plugin_fn fn, void *ctx);
} families[] = {
    {"controllers", controllers}, {"stages", stages}, {"schedulers", schedulers},
    {"icnt", interconnects},      {"l1", l1_orgs},    {"replacement", replacement},
};

bool wc_plugins_each(const char *family, plugin_fn fn, void *ctx)
{
    bool known = false;
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++) {
        if (family && strcmp(family, families[i].family) != 0) continue;
        known = true;
        if (fn) families[i].walk(fn, ctx);
    }
    return known;
}
