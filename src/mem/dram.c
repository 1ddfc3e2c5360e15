/*
 * dram.c - a DRAM channel as a bandwidth-limited queue with a fixed latency.
 *
 * Bandwidth per channel = bus width x data/command frequency ratio x chips
 * per channel bytes per DRAM clock (GTX 480: 4 x 4 x 2 = 32 B at 924 MHz,
 * 177 GB/s over 6 channels).  Row-buffer locality and FR-FCFS reordering are
 * not modelled (docs/design.md).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mem/mem.h"

double wc_dram_transfer(wc_dram *d, double t, uint32_t bytes)
{
    double start = t > d->free_at ? t : d->free_at;
    double busy = bytes * d->cycles_per_byte;
    d->free_at = start + busy;
    return start + d->latency + busy;
}

/* GPGPU-Sim's -gpgpu_dram_timing_opt: KEY=N pairs separated by ':' (blanks
 * and line breaks of a quoted value allowed); *rcd and *cl get RCD and CL,
 * which must be present. */
int wc_dram_timing_parse(const char *s, uint32_t *rcd, uint32_t *cl, wc_err *err)
{
    static const char *const keys[] = {"nbk",  "CCD",  "RRD",   "RCD",  "RAS", "RP",
                                       "RC",   "CL",   "WL",    "CDLR", "WR",  "nbkgrp",
                                       "CCDL", "RTPL", "tCCDL", "tRTPL"};
    bool have_rcd = false, have_cl = false;
    for (const char *p = s;;) {
        while (*p == ':' || *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
        if (!*p) break;
        size_t klen = strcspn(p, "=: \t\n\r");
        if (p[klen] != '=')
            return wc_errf(err, "\"%.*s\": expected KEY=N", (int)strcspn(p, ": \t\n\r"), p);
        bool known = false;
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            known |= strlen(keys[i]) == klen && !strncmp(keys[i], p, klen);
        if (!known) return wc_errf(err, "unknown DRAM timing \"%.*s\"", (int)klen, p);
        char *end;
        const char *v = p + klen + 1;
        unsigned long x = *v >= '0' && *v <= '9' ? strtoul(v, &end, 10) : ULONG_MAX;
        if (x > 100000 || (*end && !strchr(": \t\n\r", *end)))
            return wc_errf(err, "DRAM timing %.*s: not a count 0..100000", (int)klen, p);
        if (klen == 3 && !strncmp(p, "RCD", 3)) *rcd = (uint32_t)x, have_rcd = true;
        if (klen == 2 && !strncmp(p, "CL", 2)) *cl = (uint32_t)x, have_cl = true;
        p = end;
    }
    if (!have_rcd || !have_cl) return wc_errf(err, "DRAM timing needs RCD=N and CL=N");
    return 0;
}
