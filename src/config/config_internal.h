/*
 * config_internal.h - helpers shared by the files of src/config/ only:
 * strict number parsing (geometry strings and option values use the same
 * rules) and the per-option range checks that wc_config_validate reuses.
 */
#ifndef WC_CONFIG_INTERNAL_H
#define WC_CONFIG_INTERNAL_H

#include "warpcache/config.h"

/* Parses an unsigned integer: decimal digits, or 0x followed by hex digits,
 * nothing else (no sign, no spaces, no suffix).  Returns NULL on success or
 * a reason ("is not a number", "is negative", "is too large"). */
const char *wc_cfg_parse_u64(const char *s, uint64_t max, uint64_t *out);

/* Checks the value every modelled option holds in cfg (ranges, letters,
 * names).  Errors read "WHERE: option -NAME: reason". */
int wc_cfg_check_options(const wc_config *cfg, const char *where, wc_err *err);

#endif
