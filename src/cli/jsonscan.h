/*
 * jsonscan.h - strict reading of one JSON value with a callback per scalar
 * (see jsonscan.c); used to check and read back sweep result lines.
 */
#ifndef WC_CLI_JSONSCAN_H
#define WC_CLI_JSONSCAN_H

#include <stdbool.h>
#include <stddef.h>

/* path: dotted member names ("totals.cycles"); text: the string (unescaped)
 * or the literal as written. */
typedef void (*wc_json_scalar_fn)(void *ctx, const char *path, const char *text, bool is_string);

/* 0 when text[0..len) is exactly one JSON value (whitespace around it
 * allowed), -1 otherwise. */
int wc_json_scan(const char *text, size_t len, wc_json_scalar_fn fn, void *ctx);

#endif
