/*
 * dram.c - a DRAM channel as a bandwidth-limited queue with a fixed latency.
 *
 * Bandwidth per channel = bus width x data/command frequency ratio x chips
 * per channel bytes per DRAM clock (GTX 480: 4 x 4 x 2 = 32 B at 924 MHz,
 * 177 GB/s over 6 channels).  Row-buffer locality and FR-FCFS reordering are
 * not modelled (docs/design.md).
 */
#include "mem/mem.h"

double wc_dram_transfer(wc_dram *d, double t, uint32_t bytes)
{
    double start = t > d->free_at ? t : d->free_at;
    double busy = bytes * d->cycles_per_byte;
    d->free_at = start + busy;
    return start + d->latency + busy;
}
