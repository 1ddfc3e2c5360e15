/*
 * cmd_trace.c - the `warpcache trace` subcommand:
 *
 *   warpcache trace info PATH [--kernels IDS] [--name PATTERN]
 *   warpcache trace convert IN OUT [--format wct|trc|accelsim] [--codec none|zlib|zstd]
 *                                  [--kernels IDS] [--name PATTERN]
 *
 * IN is a trace path or, when no such file exists, a built-in workload name
 * ("micro/stream:n=4096", seed 1).  main.c calls wc_cmd_trace(argc, argv)
 * with argv[0] = "trace".  Errors print "warpcache: <message>" and return 2
 * (bad input) or 1 (an output that could not be written).  Converted traces
 * appear whole or not at all (outfile.c): an interrupted or failed convert
 * leaves the destination as it was.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "trace/compress.h"
#include "warpcache/traceio.h"
#include "warpcache/workloads.h"

static const char trace_usage[] =
    "usage: warpcache trace info PATH [--kernels IDS] [--name PATTERN]\n"
    "       warpcache trace convert IN OUT [--format wct|trc|accelsim] [--codec none|zlib|zstd]\n"
    "                                      [--kernels IDS] [--name PATTERN]\n"
    "\n"
    "  info     summarise a trace: kernels, shapes, instruction mix, memory\n"
    "           instructions, unique 128 B lines and footprint\n"
    "  convert  read IN (a trace: kernelslist.g, .traceg[.xz|.gz|.zst], NAME_00.trc,\n"
    "           .wct, or a folder holding one; or a built-in workload such as\n"
    "           micro/stream:n=4096) and write OUT.  The format defaults from OUT:\n"
    "           *.wct -> wct, *.trc -> trc (OUT_00.trc, OUT_01.trc, ...), anything\n"
    "           else -> an Accel-Sim folder (kernelslist.g + kernel-N.traceg)\n"
    "\n"
    "%s";

enum { O_KERNELS = 1, O_NAME, O_FORMAT, O_CODEC, O_QUIET };
static const wc_opt trace_table[] = {
    {O_KERNELS, 0, "kernels", "IDS", "keep only these kernel launch ids: 1,3,5-7", 0},
    {O_NAME, 0, "name", "PATTERN",
     "keep only kernels whose name contains PATTERN (or matches\n"
     "it as a glob when it has * or ?)",
     0},
    {O_FORMAT, 0, "format", "F", "convert: wct, trc or accelsim (default: from OUT)", 0},
    {O_CODEC, 0, "codec", "C",
     ".wct block compression: none, zlib or zstd (default: zstd\n"
     "when available)",
     0},
    {O_QUIET, 'q', "quiet", NULL, "convert: no 'wrote OUT' line", 0},
    {0},
};
static const wc_opt *const trace_tables[] = {trace_table, NULL};

/* Prints a library error; its exit status (2 bad input, 1 internal). */
static int fail(const wc_err *err)
{
    fprintf(stderr, "warpcache: %s\n", err->msg);
    return wc_cli_status_of(err);
}

static bool path_exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

static wc_source *open_input(const char *in, const wc_kernel_filter *f, wc_err *err)
{
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(in, ":"), in);
    if (path_exists(in)) return wc_trace_open(in, WC_TRACE_AUTO, f, err);
    if (!wc_workload_find(name)) {
        wc_errf(err, "%s: no such file or folder, and not a built-in workload", in);
        return NULL;
    }
    if (wc_kernel_filter_check(f, err) < 0) return NULL;
    wc_source *src = wc_workload_open(in, 1, err);
    return wc_source_filter(src, f, err);
}

static void print_mix(const uint64_t *by_op, uint64_t total)
{
    for (int o = 0; o < WC_OP__COUNT; o++) {
        if (!by_op[o]) continue;
        printf("    %-5s %12llu  %5.1f%%\n", wc_opclass_name((wc_opclass)o),
               (unsigned long long)by_op[o],
               total ? 100.0 * (double)by_op[o] / (double)total : 0.0);
    }
}

static int cmd_info(const char *path, const wc_kernel_filter *f)
{
    wc_err err = {{0}};
    wc_source *src = open_input(path, f, &err);
    if (!src) return fail(&err);
    wc_trace_info info;
    int rc = wc_trace_info_compute(src, &info, &err);
    wc_source_destroy(src);
    if (rc < 0) return fail(&err);
    printf("trace %s: %u kernel%s\n", path, info.nkernels, info.nkernels == 1 ? "" : "s");
    for (uint32_t i = 0; i < info.nkernels; i++) {
        const wc_trace_kernel_info *ki = &info.kernels[i];
        const wc_kernel *k = &ki->k;
        printf("kernel %u %s\n  grid (%u,%u,%u) block (%u,%u,%u) shmem %u regs %u\n", k->id,
               k->name, k->grid.x, k->grid.y, k->grid.z, k->block.x, k->block.y, k->block.z,
               k->shmem_bytes, k->regs_per_thread);
        printf(
            "  warp instructions %llu, memory %llu (%llu lane accesses), unique 128 B lines %llu\n",
            (unsigned long long)ki->warp_insts, (unsigned long long)ki->mem_insts,
            (unsigned long long)ki->lane_accesses, (unsigned long long)ki->unique_lines);
        print_mix(ki->by_op, ki->warp_insts);
    }
    printf("total: warp instructions %llu, memory instructions %llu, unique 128 B lines %llu, "
           "footprint %llu bytes\n",
           (unsigned long long)info.warp_insts, (unsigned long long)info.mem_insts,
           (unsigned long long)info.unique_lines, (unsigned long long)info.footprint_bytes);
    print_mix(info.by_op, info.warp_insts);
    wc_trace_info_free(&info);
    return 0;
}

/* The prefix a .trc series OUT is written under (OUT_00.trc, ...), as the
 * .trc writer forms it: "x.trc" -> "x", "x_03.trc" -> "x". */
static void trc_prefix(const char *out, char *prefix, size_t cap)
{
    snprintf(prefix, cap, "%s", out);
    size_t n = strlen(prefix);
    if (n > 4 && !strcmp(prefix + n - 4, ".trc")) {
        n -= 4;
        prefix[n] = '\0';
        size_t d = n;
        while (d > 0 && prefix[d - 1] >= '0' && prefix[d - 1] <= '9') d--;
        if (d < n && n - d <= 6 && d > 1 && prefix[d - 1] == '_') prefix[d - 1] = '\0';
    }
}

/* Whether writing OUT in format fmt would replace the trace IN (which it is
 * being read from): the same file or folder, a kernel file inside the
 * Accel-Sim folder OUT, or a file of the .trc series OUT. */
static bool would_replace_input(const char *in, const char *out, wc_trace_format fmt)
{
    if (!path_exists(in)) return false; /* a built-in workload */
    if (wc_out_same_file(in, out)) return true;
    char buf[4200];
    if (fmt == WC_TRACE_ACCELSIM) {
        const char *slash = strrchr(in, '/');
        snprintf(buf, sizeof buf, "%.*s", slash ? (int)(slash - in) : 1, slash ? in : ".");
        return path_exists(out) && wc_out_same_file(buf, out);
    }
    if (fmt == WC_TRACE_TRC) {
        size_t n = strlen(in), d = n > 4 ? n - 4 : 0;
        if (n <= 4 || strcmp(in + n - 4, ".trc")) return false;
        while (d > 0 && in[d - 1] >= '0' && in[d - 1] <= '9') d--;
        if (d == 0 || in[d - 1] != '_') return false;
        char prefix[4096];
        trc_prefix(out, prefix, sizeof prefix);
        snprintf(buf, sizeof buf, "%s_%s", prefix, in + d); /* the same _NN.trc */
        return wc_out_same_file(in, buf);
    }
    return false;
}

/* The writers' messages begin with the path they were writing ("PATH: write
 * error", "PATH/kernel-1.traceg: cannot create"); a message that begins with
 * `written` (the temporary path, or the destination written in place) is
 * about the output, a write failure (status 1), not about the input (2).
 * The user is shown the destination `final` instead of a temporary path. */
static bool retarget_message(wc_err *err, const char *written, const char *final)
{
    size_t n = strlen(written);
    if (!n || strncmp(err->msg, written, n) != 0 || (err->msg[n] != ':' && err->msg[n] != '/'))
        return false;
    if (!final[0] && err->msg[n] == '/') n++; /* a file of the current folder: its name */
    char rest[sizeof err->msg];
    snprintf(rest, sizeof rest, "%s", err->msg + n);
    snprintf(err->msg, sizeof err->msg, "%s%s", final, rest);
    return true;
}

/* A single-file trace (.wct): written to a temporary file, renamed at the end. */
static int convert_wct(wc_source *src, const char *out, int codec, wc_err *err)
{
    wc_out o;
    if (wc_out_reserve(&o, out) < 0) return 2;
    wc_wct_options opts = {codec};
    if (wc_trace_write_wct(src, wc_out_target(&o), &opts, err) < 0) {
        bool output_side = retarget_message(err, wc_out_target(&o), out);
        wc_out_abort(&o);
        int status = fail(err);
        return output_side ? 1 : status;
    }
    return wc_out_commit(&o) < 0 ? 1 : 0;
}

/* A folder (Accel-Sim) or a series of files (.trc): written into a staging
 * folder, then moved into place, kernelslist.g last. */
static int convert_staged(wc_source *src, const char *out, wc_trace_format fmt, wc_err *err)
{
    struct stat st;
    if (fmt == WC_TRACE_ACCELSIM && stat(out, &st) == 0 && !S_ISDIR(st.st_mode)) {
        fprintf(stderr,
                "warpcache: %s exists and is not a folder (an Accel-Sim trace is a folder)\n", out);
        return 2;
    }
    wc_stage stage;
    if (wc_stage_open(&stage, out) < 0) return 2;
    char target[WC_OUT_PATH + 300], dest[WC_OUT_PATH];
    const char *slash = strrchr(out, '/');
    if (fmt == WC_TRACE_ACCELSIM) {
        snprintf(target, sizeof target, "%s", stage.tmp);
        snprintf(dest, sizeof dest, "%s", out);
    } else {
        snprintf(target, sizeof target, "%s/%s", stage.tmp, slash ? slash + 1 : out);
        snprintf(dest, sizeof dest, "%.*s", slash ? (int)(slash - out) : 1, slash ? out : ".");
        if (slash == out) snprintf(dest, sizeof dest, "/");
    }
    const char *shown = fmt == WC_TRACE_TRC && !slash ? "" : dest; /* in messages */
    if (wc_trace_write(src, target, fmt, err) < 0) {
        char tmp[WC_OUT_PATH];
        snprintf(tmp, sizeof tmp, "%s", stage.tmp);
        wc_stage_abort(&stage);
        bool output_side = retarget_message(err, tmp, shown);
        int status = fail(err);
        return output_side ? 1 : status;
    }
    return wc_stage_commit(&stage, dest, fmt == WC_TRACE_ACCELSIM ? "kernelslist.g" : NULL) < 0 ? 1
                                                                                                : 0;
}

static int cmd_convert(const char *in, const char *out, wc_trace_format fmt, int codec,
                       const wc_kernel_filter *f, bool quiet)
{
    wc_err err = {{0}};
    if (fmt == WC_TRACE_AUTO)
        fmt = strlen(out) > 4 && !strcmp(out + strlen(out) - 4, ".wct")   ? WC_TRACE_WCT
              : strlen(out) > 4 && !strcmp(out + strlen(out) - 4, ".trc") ? WC_TRACE_TRC
                                                                          : WC_TRACE_ACCELSIM;
    if (would_replace_input(in, out, fmt)) {
        fprintf(stderr,
                "warpcache: trace convert: %s would overwrite the input %s; write to "
                "another path\n",
                out, in);
        return 2;
    }
    wc_source *src = open_input(in, f, &err);
    if (!src) return fail(&err);
    int rc = fmt == WC_TRACE_WCT ? convert_wct(src, out, codec, &err)
                                 : convert_staged(src, out, fmt, &err);
    wc_source_destroy(src);
    if (rc == 0 && !quiet) printf("wrote %s (%s)\n", out, wc_trace_format_name(fmt));
    return rc;
}

/* --format F: WC_TRACE_AUTO (printed) when F is no format. */
static wc_trace_format parse_format(const char *v)
{
    wc_trace_format fmt = wc_trace_format_parse(v);
    if (fmt == WC_TRACE_AUTO)
        fprintf(stderr, "warpcache: unknown format '%s' (wct, trc or accelsim)\n", v);
    return fmt;
}

/* --codec C: 0 none, 1 zlib, 2 zstd; -1 (printed) when unknown or not built in. */
static int parse_codec(const char *c)
{
    int codec = !strcmp(c, "none") ? 0 : !strcmp(c, "zlib") ? 1 : !strcmp(c, "zstd") ? 2 : -1;
    if (codec < 0) {
        fprintf(stderr, "warpcache: unknown codec '%s' (none, zlib or zstd)\n", c);
        return -1;
    }
    if (!wc_codec_available(codec)) {
        fprintf(stderr, "warpcache: codec %s is not available in this build\n", c);
        return -1;
    }
    return codec;
}

int wc_cmd_trace(int argc, char **argv)
{
    const char *pos[3] = {0};
    int npos = 0;
    wc_kernel_filter f = {0};
    wc_trace_format fmt = WC_TRACE_AUTO;
    int codec = -1;
    bool quiet = false;
    wc_opts p;
    wc_opts_init(&p, "trace", trace_tables, argc, argv);
    for (int id; (id = wc_opts_next(&p)) != WC_OPT_DONE;) {
        switch (id) {
        case WC_OPT_HELP: wc_opts_print_help(trace_usage, trace_tables); return 0;
        case WC_OPT_BAD: return 2;
        case O_FORMAT:
            if ((fmt = parse_format(p.value)) == WC_TRACE_AUTO) return 2;
            break;
        case O_KERNELS: f.ids = p.value; break;
        case O_NAME: f.name = p.value; break;
        case O_CODEC:
            if ((codec = parse_codec(p.value)) < 0) return 2;
            break;
        case O_QUIET: quiet = true; break;
        case WC_OPT_ARG:
            if (npos == 3) {
                fprintf(stderr,
                        "warpcache: trace: too many arguments at '%s' (warpcache trace "
                        "--help)\n",
                        p.value);
                return 2;
            }
            pos[npos++] = p.value;
            break;
        }
    }
    wc_err err = {{0}};
    if (wc_kernel_filter_check(&f, &err) < 0) return fail(&err);
    if (npos >= 1 && !strcmp(pos[0], "info") && npos == 2) return cmd_info(pos[1], &f);
    if (npos >= 1 && !strcmp(pos[0], "convert") && npos == 3)
        return cmd_convert(pos[1], pos[2], fmt, codec, &f, quiet);
    fprintf(stderr, "warpcache: expected 'trace info PATH' or 'trace convert IN OUT' "
                    "(warpcache trace --help)\n");
    return 2;
}
