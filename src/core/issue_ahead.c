/*
 * issue_ahead.c - how many memory instructions may wait between issue and
 * the memory stage (-mem_issue_ahead, GPGPU-Sim's ID_OC_MEM register, memory
 * operand collectors and OC_EX_MEM; mem_issue.c keeps them): the option's
 * text and GPGPU-Sim's -gpgpu_pipeline_widths, parsed here, by the engine that
 * uses them.  The configuration checks both options with the same functions,
 * so it does not re-implement (and the engine does not call back into) it.
 */
#include <stdlib.h>
#include <string.h>

#include "core/issue_ahead.h"

/* GPGPU-Sim's -gpgpu_pipeline_widths, comma-separated counts in one of its
 * two layouts: 3.x's seven (ID_OC_SP, ID_OC_SFU, ID_OC_MEM, OC_EX_SP,
 * OC_EX_SFU, OC_EX_MEM, EX_WB) or 4.x's ten or more (ID_OC_SP, ID_OC_DP,
 * ID_OC_INT, ID_OC_SFU, ID_OC_MEM, OC_EX_SP, OC_EX_DP, OC_EX_INT, OC_EX_SFU,
 * OC_EX_MEM, EX_WB, ...).  *id_oc and *oc_ex get the two memory registers'
 * widths. */
int wc_pipe_widths_parse(const char *s, uint32_t *id_oc, uint32_t *oc_ex, wc_err *err)
{
    uint32_t v[16];
    unsigned n = 0;
    for (const char *p = s;;) {
        char *end;
        if (*p < '0' || *p > '9')
            return wc_errf(err, "\"%s\": field %u is not a count (comma-separated widths)", s,
                           n + 1);
        unsigned long x = strtoul(p, &end, 10);
        if (x > 64) return wc_errf(err, "\"%s\": field %u is over 64", s, n + 1);
        if (n == 16) return wc_errf(err, "\"%s\": more than 16 fields", s);
        v[n++] = (uint32_t)x;
        if (*end == '\0') break;
        if (*end != ',') return wc_errf(err, "\"%s\": expected ',' after field %u", s, n);
        p = end + 1;
    }
    if (n != 7 && n < 10)
        return wc_errf(
            err, "\"%s\": %u fields; GPGPU-Sim 3.x has 7, 4.x 10 or more (up to OC_EX_MEM)", s, n);
    if (id_oc) *id_oc = n == 7 ? v[2] : v[4];
    if (oc_ex) *oc_ex = n == 7 ? v[5] : v[9];
    return 0;
}

int wc_issue_ahead_parse(const char *ahead, const char *widths, uint32_t oc_units, uint32_t *out,
                         wc_err *err)
{
    if (strcmp(ahead, "auto") == 0) {
        uint32_t id_oc = 0, oc_ex = 0;
        if (widths && wc_pipe_widths_parse(widths, &id_oc, &oc_ex, err) < 0) return -1;
        if (out) *out = id_oc + oc_units + oc_ex;
        return 0;
    }
    char *end = (char *)ahead;
    unsigned long v = *ahead >= '0' && *ahead <= '9' ? strtoul(ahead, &end, 10) : 65;
    if (v > 64 || *end) return wc_errf(err, "\"%s\": must be auto or a count 0..64", ahead);
    if (out) *out = (uint32_t)v;
    return 0;
}
