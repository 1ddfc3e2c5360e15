/*
 * trace_open.c - opens a trace for `run` (and other commands): any format
 * the trace readers know, with an optional kernel selection given either as
 * ids ("1,3-5") or as a name pattern ("*gemm*").
 */
#include <ctype.h>

#include "cli/cli.h"
#include "warpcache/traceio.h"

wc_source *wc_cli_open_trace(const char *path, const char *kernels, wc_err *err)
{
    wc_kernel_filter f = {0};
    if (kernels) {
        if (isdigit((unsigned char)kernels[0]))
            f.ids = kernels;
        else
            f.name = kernels;
        if (wc_kernel_filter_check(&f, err) < 0) return NULL;
    }
    return wc_trace_open(path, WC_TRACE_AUTO, kernels ? &f : NULL, err);
}
