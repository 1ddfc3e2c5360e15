/*
 * bench_trace.c - trace I/O throughput (built by `make bench`, never part of
 * the tests).  Generates a multi-million-instruction trace from a built-in
 * workload into /tmp in each format, then times reading it back the way the
 * engine pulls it (blocks in order, every warp to the end), and prints warp
 * instructions per second and MB/s of file per format.
 *
 *   build/bench/bench_trace [workload] [text-workload]
 *
 * Defaults: micro/stream:n=33554432 (3.1 M warp instructions) for the
 * generator and .wct; micro/stream:n=8388608 (0.79 M) for the text formats.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "warpcache/traceio.h"
#include "warpcache/workloads.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Pulls every instruction; returns the count (or -1). */
static long long drain(wc_source *src)
{
    wc_err err = {{0}};
    wc_kernel k;
    wc_winst in;
    long long n = 0;
    uint64_t sink = 0;
    int rc;
    while ((rc = src->ops->next_kernel(src, &k, &err)) > 0) {
        uint32_t nw = wc_kernel_warps_per_block(&k);
        for (uint64_t b = 0; b < wc_dim3_count(k.grid); b++) {
            void *blk;
            if (src->ops->open_block(src, b, &blk, &err) < 0) goto fail;
            for (uint32_t w = 0; w < nw; w++) {
                int r;
                while ((r = src->ops->next_inst(src, blk, w, &in, &err)) > 0) {
                    n++;
                    sink += in.base + in.mask;
                }
                if (r < 0) goto fail;
            }
            src->ops->close_block(src, blk);
        }
    }
    if (rc < 0) goto fail;
    if (sink == 42) fputc(' ', stderr);
    return n;
fail:
    fprintf(stderr, "bench_trace: %s\n", err.msg);
    return -1;
}

static long long path_bytes(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) return 0;
    if (!S_ISDIR(st.st_mode)) return st.st_size;
    char p[1024];
    long long total = 0;
    for (int i = 1;; i++) {
        snprintf(p, sizeof p, "%s/kernel-%d.traceg", path, i);
        if (stat(p, &st) != 0) break;
        total += st.st_size;
    }
    return total;
}

static void report(const char *what, long long n, double secs, long long bytes)
{
    printf("%-28s %10lld insts %8.3f s %8.2f M inst/s", what, n, secs,
           secs > 0 ? n / secs / 1e6 : 0);
    if (bytes) printf(" %9.1f MB  %8.1f MB/s", bytes / 1e6, secs > 0 ? bytes / secs / 1e6 : 0);
    putchar('\n');
}

static int bench_format(const char *spec, const char *label, const char *out, wc_trace_format fmt,
                        int codec, const char *readpath)
{
    wc_err err = {{0}};
    wc_source *gen = wc_workload_open(spec, 1, &err);
    if (!gen) {
        fprintf(stderr, "bench_trace: %s\n", err.msg);
        return -1;
    }
    double t0 = now();
    int rc;
    if (fmt == WC_TRACE_WCT) {
        wc_wct_options o = {codec};
        rc = wc_trace_write_wct(gen, out, &o, &err);
    } else {
        rc = wc_trace_write(gen, out, fmt, &err);
    }
    double tw = now() - t0;
    wc_source_destroy(gen);
    if (rc < 0) {
        fprintf(stderr, "bench_trace: %s\n", err.msg);
        return -1;
    }
    long long bytes = path_bytes(readpath);
    char what[96];
    wc_source *rd = wc_trace_open(readpath, fmt, NULL, &err);
    if (!rd) {
        fprintf(stderr, "bench_trace: %s\n", err.msg);
        return -1;
    }
    t0 = now();
    long long n = drain(rd);
    double tr = now() - t0;
    wc_source_destroy(rd);
    snprintf(what, sizeof what, "write %s", label);
    report(what, n, tw, bytes);
    snprintf(what, sizeof what, "read  %s", label);
    report(what, n, tr, bytes);
    return 0;
}

int main(int argc, char **argv)
{
    const char *big = argc > 1 ? argv[1] : "micro/stream:n=33554432";
    const char *small = argc > 2 ? argv[2] : "micro/stream:n=8388608";
    char dir[] = "/tmp/wc_bench_trace_XXXXXX";
    if (!mkdtemp(dir)) return 1;
    char p1[256], p2[256], p3[256], p4[256], p5[256], p5r[256];
    snprintf(p1, sizeof p1, "%s/none.wct", dir);
    snprintf(p2, sizeof p2, "%s/zstd.wct", dir);
    snprintf(p3, sizeof p3, "%s/zlib.wct", dir);
    snprintf(p4, sizeof p4, "%s/accelsim", dir);
    snprintf(p5, sizeof p5, "%s/t.trc", dir);
    snprintf(p5r, sizeof p5r, "%s/t_00.trc", dir);

    wc_err err = {{0}};
    printf("workload %s (text formats: %s)\n", big, small);
    wc_source *gen = wc_workload_open(big, 1, &err);
    if (!gen) {
        fprintf(stderr, "bench_trace: %s\n", err.msg);
        return 1;
    }
    double t0 = now();
    long long n = drain(gen);
    report("generator (baseline)", n, now() - t0, 0);
    wc_source_destroy(gen);

    int rc = 0;
    rc |= bench_format(big, ".wct uncompressed", p1, WC_TRACE_WCT, 0, p1);
    rc |= bench_format(big, ".wct zstd", p2, WC_TRACE_WCT, 2, p2);
    rc |= bench_format(big, ".wct zlib", p3, WC_TRACE_WCT, 1, p3);
    rc |= bench_format(small, "accelsim text", p4, WC_TRACE_ACCELSIM, 0, p4);
    rc |= bench_format(small, ".trc", p5, WC_TRACE_TRC, 0, p5r);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "bench_trace: could not remove %s\n", dir);
    return rc ? 1 : 0;
}
