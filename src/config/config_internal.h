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

/* The name of option i of the table (options.c), NULL past the last. */
const char *wc_cfg_option_name(size_t i);

/* What warpcache reads of a booksim file (booksim.c). */
typedef struct wc_booksim {
    uint32_t speedup_x100; /* internal_speedup x 100 */
    uint32_t vc_buf;       /* vc_buf_size, flits */
} wc_booksim;

/* Parses booksim configuration text (`path` names it in errors, which read
 * "PATH:LINE: reason"); names it does not model are reported to `ignored`. */
int wc_booksim_parse(const char *text, size_t len, const char *path, wc_booksim *out,
                     wc_config_ignored_fn ignored, void *ctx, wc_err *err);

/* -network_mode 1 with -icnt_model auto: reads cfg->inter_config_file from
 * the directory of `config_path` into cfg->icnt_model ("islip:speedup=S,
 * buf=N"); a file that is not there is reported to `ignored` (at `where`)
 * and gives auto's defaults, written out the same way. */
int wc_booksim_apply(wc_config *cfg, const char *config_path, wc_config_ignored_fn ignored,
                     void *ctx, const char *where, wc_err *err);

#endif
