/*
 * repl.c - the registry of replacement policies: by name ("lru", "fifo",
 * "nru", "srrip", "ship", "pdp") or letter (GPGPU-Sim's L and F; N, R, S and P are
 * warpcache extensions for NRU, SRRIP, SHiP and PDP).  A new policy is one
 * repl/repl_*.c file registering itself with WC_PLUGIN(repl, ...); the list
 * is generated (warpcache/plugin.h).
 */
#include <strings.h>

#include "cache/repl_impl.h"

WC_PLUGIN_LIST(repl);
#define repl_all wc_plugins_repl
#define N_REPL   wc_plugins_repl_n

const wc_repl_ops *const *wc_repl_list(size_t *count)
{
    *count = N_REPL;
    return repl_all;
}

/* One character is a letter (either case), anything longer a name. */
const wc_repl_ops *wc_repl_find(const char *name_or_letter)
{
    if (!name_or_letter || !name_or_letter[0]) return NULL;
    bool letter = !name_or_letter[1];
    char c = name_or_letter[0];
    char up = (char)(c >= 'a' && c <= 'z' ? c - 32 : c);
    for (size_t i = 0; i < N_REPL; i++) {
        const wc_repl_ops *r = repl_all[i];
        if (letter ? r->letter == up : strcasecmp(r->name, name_or_letter) == 0) return r;
    }
    return NULL;
}
