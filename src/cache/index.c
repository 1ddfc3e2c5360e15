/*
 * index.c - the registry of set-index functions: by name ("linear", "fermi",
 * "ipoly", "xor") or by GPGPU-Sim's sif letter (L, H, P, X).  A new function
 * is one index/index_*.c file defining a wc_index_desc and registering it
 * with WC_PLUGIN(index, ...); the list is generated (warpcache/plugin.h).
 */
#include <strings.h>

#include "cache/index_impl.h"

WC_PLUGIN_LIST(index);
#define N_INDEX wc_plugins_index_n

const wc_index_desc *const *wc_index_list(size_t *count)
{
    *count = N_INDEX;
    return wc_plugins_index;
}

/* One character is a letter (either case), anything longer a name. */
const wc_index_desc *wc_index_find(const char *name_or_letter)
{
    if (!name_or_letter || !name_or_letter[0]) return NULL;
    bool letter = !name_or_letter[1];
    char up = (char)(name_or_letter[0] >= 'a' && name_or_letter[0] <= 'z' ? name_or_letter[0] - 32
                                                                          : name_or_letter[0]);
    for (size_t i = 0; i < N_INDEX; i++) {
        const wc_index_desc *d = wc_plugins_index[i];
        if (letter ? d->letter == up : strcasecmp(d->name, name_or_letter) == 0) return d;
    }
    return NULL;
}

int wc_index_init(wc_index *ix, char letter, uint32_t nsets, uint32_t line_bytes, uint32_t poly,
                  wc_err *err)
{
    char key[2] = {letter, 0};
    const wc_index_desc *d = letter ? wc_index_find(key) : NULL;
    if (!d)
        return wc_errf(err, "set index '%c': unknown (L linear, H fermi, P ipoly, X xor)",
                       letter ? letter : '?');
    return d->init(ix, nsets, line_bytes, poly, err);
}
