/*
 * xbar_replay.c - replays a dumped reply stream (dump.patch: "ready in out
 * flits" per packet, sorted by ready) through warpcache's crossbar
 * (src/mem/xbar.c) open-loop, with the GTX480 file's shape (12 L2
 * sub-partitions, 15 SMs, buf 64) and latency 0, and prints when the last
 * packet arrives and the mean time from ready to arrival.  booksim_replay.cpp
 * does the same through GPGPU-Sim's own booksim objects; the two together say
 * whether the router model, given the same offered traffic, moves it as
 * booksim does.  Usage: xbar_replay STREAM [SPEEDUPx100]
 */
#include <stdio.h>
#include <stdlib.h>

#include "mem/xbar.h"

typedef struct replay {
    unsigned long long *ready; /* per record id: its packet's ready cycle */
    size_t cap;
    double lat;
    unsigned long long last;
} replay;

static void collect(wc_xbar *x, replay *r)
{
    const uint32_t *recs;
    const uint64_t *t;
    size_t k = wc_xbar_done(x, &recs, &t);
    for (size_t j = 0; j < k; j++) {
        r->lat += (double)(t[j] - r->ready[recs[j]]);
        if (t[j] > r->last) r->last = t[j];
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: xbar_replay STREAM [SPEEDUPx100]\n");
        return 2;
    }
    wc_err err;
    wc_xbar_params p = {.speedup_x100 = argc > 2 ? (uint32_t)atoi(argv[2]) : 200, .out_buf = 64};
    wc_xbar *x = wc_xbar_new(12, 15, &p, 1.0, 0, &err);
    FILE *f = fopen(argv[1], "r");
    if (!x || !f) {
        fprintf(stderr, "xbar_replay: cannot open %s or make the crossbar\n", argv[1]);
        return 2;
    }
    replay r = {0};
    unsigned long long ready;
    unsigned in, out, flits;
    size_t n = 0;
    uint64_t now = 0;
    while (fscanf(f, "%llu %u %u %u", &ready, &in, &out, &flits) == 4) {
        for (; now < ready; now++) { /* everything up to the cycle before */
            wc_xbar_run(x, now);
            collect(x, &r);
        }
        uint32_t rec = wc_xbar_open(x);
        if (rec >= r.cap) {
            r.cap = rec * 2 + 1024;
            r.ready = realloc(r.ready, r.cap * sizeof *r.ready);
            if (!r.ready) return 2;
        }
        r.ready[rec] = ready;
        wc_xbar_send(x, in, out, ready, flits, 1.0, rec);
        wc_xbar_close(x, rec);
        n++;
    }
    for (; wc_xbar_pending(x); now++) {
        wc_xbar_run(x, now);
        collect(x, &r);
    }
    collect(x, &r);
    printf("wc_xbar speedup %.2f: packets %zu last %llu avg latency %.1f\n", p.speedup_x100 / 100.0,
           n, r.last, n ? r.lat / (double)n : 0.0);
    return 0;
}
