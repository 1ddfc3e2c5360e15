/*
 * jsondoc.h - JSON values as a tree, each with the line it starts on (see
 * jsondoc.c).  `warpcache report` reads the results of run, compare, sweep,
 * model and mrc with it: their arrays of objects (rows, curves, timeline
 * events) need the structure that jsonscan's flat callbacks leave out, and
 * an input that is valid JSON but not what was expected is reported at the
 * line of the offending value.
 */
#ifndef WC_CLI_JSONDOC_H
#define WC_CLI_JSONDOC_H

#include <stdbool.h>
#include <stddef.h>

typedef enum wc_jv_type {
    WC_JV_NULL,
    WC_JV_BOOL,
    WC_JV_NUM,
    WC_JV_STR,
    WC_JV_ARR,
    WC_JV_OBJ
} wc_jv_type;

typedef struct wc_jv {
    wc_jv_type type;
    int line;           /* 1-based line of the value's first character */
    double num;         /* NUM; BOOL: 0 or 1 */
    char *str;          /* STR: unescaped (NUL-terminated; \u0000 is refused) */
    char *key;          /* the member name when the value is in an object, else NULL */
    struct wc_jv *kids; /* ARR, OBJ: elements / members in order */
    size_t n;
} wc_jv;

typedef struct wc_jv_err {
    int line;
    char msg[160];
} wc_jv_err;

/* Parses one JSON value at *text (NUL-terminated), counting lines from
 * *line; on success *text and *line are just past the value (whitespace
 * after it skipped).  NULL with err set on bad JSON or out of memory. */
wc_jv *wc_jv_parse(const char **text, int *line, wc_jv_err *err);
void wc_jv_free(wc_jv *v);

/* The member `key` of an object (NULL: absent, or v is not an object). */
const wc_jv *wc_jv_get(const wc_jv *v, const char *key);
/* The number v holds; NaN when v is NULL, null or not a number. */
double wc_jv_num(const wc_jv *v);
/* The string v holds; NULL when it is not a string. */
const char *wc_jv_str(const wc_jv *v);

#endif
