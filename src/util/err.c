/*
 * err.c - errors as values: formatting "where: what" into a wc_err.
 */
#include <stdarg.h>
#include <stdio.h>

#include "warpcache/common.h"

int wc_errf(wc_err *err, const char *fmt, ...)
{
    if (!err) return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}
