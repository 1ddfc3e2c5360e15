/*
 * trace_open.c - opens a trace file for `run` and `model` (placeholder until
 * the trace readers land: every path is refused with a clear message).
 */
#include "cli/cli.h"

wc_source *wc_cli_open_trace(const char *path, const char *kernels, wc_err *err)
{
    (void)kernels;
    wc_errf(err, "%s: trace input is not supported by this build yet", path);
    return NULL;
}
