/*
 * fuzz_results.c - libFuzzer target for the head of a sweep results line
 * (src/cli/results.c over src/cli/jsonscan.c: what `sweep --resume` and
 * `merge` read back): any bytes, line by line, must either be refused or
 * give the fields within their documented bounds.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What results.c uses of the rest of the CLI, which the fuzz build does not
 * compile. */
void wc_cli_error(const char *fmt, ...)
{
    (void)fmt;
}

int wc_out_temp_register(const char *path)
{
    (void)path;
    return -1;
}

void wc_out_temp_unregister(int slot)
{
    (void)slot;
}

static void check_line(const char *line, size_t len)
{
    wc_results_head h;
    if (wc_results_scan_head(line, len, &h) < 0) return;
    if (!h.has_schema || !h.has_key || strlen(h.key) > WC_RESULTS_MAX_KEY) abort();
    if (h.has_point && h.point >= 1000000) abort();
    if (h.has_sweep_id) {
        if (strlen(h.sweep_id) != WC_SWEEP_ID_LEN) abort();
        for (const char *c = h.sweep_id; *c; c++)
            if (!((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'f'))) abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *p = (const char *)data, *end = p + size;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        check_line(p, len);
        p += len + 1;
    }
    return 0;
}
