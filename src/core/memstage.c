/*
 * memstage.c - the memory-stage registry (memstage.h).
 */
#include <string.h>

#include "core/memstage.h"

extern const wc_mstage_ops wc_mstage_inorder;
extern const wc_mstage_ops wc_mstage_l1q;
extern const wc_mstage_ops wc_mstage_mrpb;
extern const wc_mstage_ops wc_mstage_replay;

static const wc_mstage_ops *const stages[] = {
    &wc_mstage_inorder,
    &wc_mstage_l1q,
    &wc_mstage_mrpb,
    &wc_mstage_replay,
};

const wc_mstage_ops *const *wc_mstage_list(size_t *count)
{
    *count = sizeof stages / sizeof stages[0];
    return stages;
}

const wc_mstage_ops *wc_mstage_find(const char *name)
{
    for (size_t i = 0; i < sizeof stages / sizeof stages[0]; i++)
        if (strcmp(stages[i]->name, name) == 0) return stages[i];
    return NULL;
}
