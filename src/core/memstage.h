/*
 * memstage.h - the engine's side of the memory-stage seam: the registry of
 * stages.  The API a stage is written against (wc_mstage, wc_mstage_ops and
 * the environment the SM gives it) is public: include/warpcache/stage.h.
 */
#ifndef WC_CORE_MEMSTAGE_H
#define WC_CORE_MEMSTAGE_H

#include "warpcache/stage.h"

const wc_mstage_ops *wc_mstage_find(const char *name);
const wc_mstage_ops *const *wc_mstage_list(size_t *count);

/* Parses -mem_stage "NAME[:key=value,...]" ("" = inorder): *ops and the
 * checked parameters; the reason only on error. */
int wc_mstage_parse(const char *spec, const wc_mstage_ops **ops, wc_param_values *params,
                    wc_err *err);

#endif
