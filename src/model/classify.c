/*
 * classify.c - options of the reuse-distance model, its histograms and counts,
 * and the seed's classification of misses (003_ffafd1cb931cbd21.txt, sections
 * 4.2-4.4 and 6.1): the model is run once with every enabled extension and once
 * more with each of associativity, latency and MSHRs disabled; the differences
 * give associativity, latency and MSHR misses.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/model_internal.h"

/* ---- options --------------------------------------------------------------- */

void wc_model_opts_defaults(wc_model_opts *o)
{
    memset(o, 0, sizeof *o);
    o->latency = o->assoc = o->mshr = o->divergence = o->clip = true;
    o->hit_latency = 0;  /* seed's NON_MEM_LATENCY */
    o->lambda_min = 100; /* seed's MEM_LATENCY */
    o->sigma = 5;        /* seed's MEM_LATENCY_STDDEV */
    o->mshr_per_core = 64;
    o->mshr_per_warp = 6;
    o->cores = 1; /* the seed's code models one core running every block */
    o->core = 0;
    o->max_threads = 0;
    o->blocks = WC_MODEL_BLOCKS_DYNAMIC;
}

static int parse_u64(const char *name, const char *v, uint64_t max, uint64_t *out, wc_err *err)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 0);
    if (errno || end == v || *end || v[0] == '-' || x > max)
        return wc_errf(err, "-o %s=%s: expected an integer in [0, %llu]", name, v,
                       (unsigned long long)max);
    *out = x;
    return 0;
}

static int parse_bool(const char *name, const char *v, bool *out, wc_err *err)
{
    if (!strcmp(v, "1") || !strcasecmp(v, "on") || !strcasecmp(v, "true") ||
        !strcasecmp(v, "yes")) {
        *out = true;
        return 0;
    }
    if (!strcmp(v, "0") || !strcasecmp(v, "off") || !strcasecmp(v, "false") ||
        !strcasecmp(v, "no")) {
        *out = false;
        return 0;
    }
    return wc_errf(err, "-o %s=%s: expected 0/1, on/off", name, v);
}

typedef struct opt_doc {
    const char *name, *help;
} opt_doc;

static const opt_doc opt_docs[] = {
    {"latency", "extension 2, latencies and effect times (1)"},
    {"assoc", "extension 3, one stack per set (1; 0 = fully associative)"},
    {"mshr", "extension 4, MSHR limits (1)"},
    {"divergence", "extension 5, warps re-enter after their latency (1; 0 = round robin)"},
    {"clip", "a miss to a line in flight merges with it (1)"},
    {"hit_latency", "hit latency in time steps (0)"},
    {"lambda_min", "minimum memory latency in time steps (100)"},
    {"sigma", "standard deviation of the half-normal latency term (5)"},
    {"mshr_per_core", "unique outstanding lines per core, 0 = unlimited (64)"},
    {"mshr_per_warp", "unique outstanding lines per warp, 0 = unlimited (6)"},
    {"mshr_first_only", "only an instruction's first request checks MSHRs, as the seed's code (0)"},
    {"cores", "cores the blocks are spread over round-robin, 0 = the config's SMs (1)"},
    {"core", "core to model, or 'all' for every core in lockstep (0)"},
    {"max_threads", "model only the first N threads of a kernel, 0 = all (0; the seed: 8192)"},
    {"blocks", "dynamic (a finished block is replaced at once) or sets (the seed's code)"},
    {"stores", "also model stores (0: Fermi's L1 does not cache them)"},
    {"step_requests", "one time step per line request, as the L1 serves one line per cycle: "
                      "an instruction of n lines holds its core n steps (0: one step per "
                      "instruction, the seed)"},
    {"scoreboard", "a warp waits only for the registers its next instructions read or write, "
                   "so independent loads (unrolled loops) issue back to back (0: after every "
                   "load's latency, the seed)"},
    {"model_seed", "seed of the latency generator, 0 = the config's seed (0)"},
    {"line_bytes", "line size override, 0 = the config's L1 (0)"},
    {"nsets", "set count override, 0 = the config's L1 (0)"},
    {"ways", "associativity override, 0 = the config's L1 (0)"},
    {"set_index", "set index override: L linear, H Fermi hash, P IPOLY, X xor"},
};

void wc_model_opts_help(FILE *f)
{
    for (size_t i = 0; i < sizeof opt_docs / sizeof opt_docs[0]; i++)
        fprintf(f, "  %-14s %s\n", opt_docs[i].name, opt_docs[i].help);
}

int wc_model_opts_set(wc_model_opts *o, const char *name, const char *v, wc_err *err)
{
    uint64_t x;
    if (!strcmp(name, "latency")) return parse_bool(name, v, &o->latency, err);
    if (!strcmp(name, "assoc")) return parse_bool(name, v, &o->assoc, err);
    if (!strcmp(name, "mshr")) return parse_bool(name, v, &o->mshr, err);
    if (!strcmp(name, "divergence")) return parse_bool(name, v, &o->divergence, err);
    if (!strcmp(name, "clip")) return parse_bool(name, v, &o->clip, err);
    if (!strcmp(name, "stores")) return parse_bool(name, v, &o->stores, err);
    if (!strcmp(name, "scoreboard")) return parse_bool(name, v, &o->scoreboard, err);
    if (!strcmp(name, "step_requests")) return parse_bool(name, v, &o->step_requests, err);
    if (!strcmp(name, "mshr_first_only")) return parse_bool(name, v, &o->mshr_first_only, err);
    if (!strcmp(name, "sigma")) {
        char *end;
        errno = 0;
        double d = strtod(v, &end);
        if (errno || end == v || *end || !(d >= 0 && d <= 1e9))
            return wc_errf(err, "-o sigma=%s: expected a number >= 0", v);
        o->sigma = d;
        return 0;
    }
    if (!strcmp(name, "core")) {
        if (!strcmp(v, "all")) {
            o->core = -1;
            return 0;
        }
        if (parse_u64(name, v, 1u << 20, &x, err) < 0) return -1;
        o->core = (int32_t)x;
        return 0;
    }
    if (!strcmp(name, "blocks")) {
        if (!strcmp(v, "dynamic"))
            o->blocks = WC_MODEL_BLOCKS_DYNAMIC;
        else if (!strcmp(v, "sets"))
            o->blocks = WC_MODEL_BLOCKS_SETS;
        else
            return wc_errf(err, "-o blocks=%s: expected dynamic or sets", v);
        return 0;
    }
    if (!strcmp(name, "set_index")) {
        if (strlen(v) != 1 || !strchr("LHPX", v[0]))
            return wc_errf(err, "-o set_index=%s: expected L, H, P or X", v);
        o->set_index = v[0];
        return 0;
    }
    static const struct {
        const char *name;
        size_t off;
        int bytes;
        uint64_t max;
    } nums[] = {
        {"hit_latency", offsetof(wc_model_opts, hit_latency), 4, 1u << 30},
        {"lambda_min", offsetof(wc_model_opts, lambda_min), 4, 1u << 30},
        {"mshr_per_core", offsetof(wc_model_opts, mshr_per_core), 4, 1u << 30},
        {"mshr_per_warp", offsetof(wc_model_opts, mshr_per_warp), 4, 1u << 30},
        {"cores", offsetof(wc_model_opts, cores), 4, 1u << 16},
        {"max_threads", offsetof(wc_model_opts, max_threads), 8, UINT64_MAX},
        {"model_seed", offsetof(wc_model_opts, seed), 8, UINT64_MAX},
        {"line_bytes", offsetof(wc_model_opts, line_bytes), 4, 1u << 16},
        {"nsets", offsetof(wc_model_opts, nsets), 4, 1u << 24},
        {"ways", offsetof(wc_model_opts, ways), 4, 1u << 24},
    };
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        if (strcmp(name, nums[i].name)) continue;
        if (parse_u64(name, v, nums[i].max, &x, err) < 0) return -1;
        char *p = (char *)o + nums[i].off;
        if (nums[i].bytes == 4) {
            uint32_t y = (uint32_t)x;
            memcpy(p, &y, 4);
        } else {
            memcpy(p, &x, 8);
        }
        return 0;
    }
    return 1;
}

/* ---- histograms and counts --------------------------------------------------- */

void wc_rd_hist_add(wc_rd_hist *h, uint64_t d)
{
    h->total++;
    if (d == UINT64_MAX)
        h->inf++;
    else if (d < WC_RD_EXACT)
        h->exact[d]++;
    else
        h->log2[wc_log2(d) < WC_RD_LOG ? wc_log2(d) : WC_RD_LOG - 1]++;
}

void wc_rd_hist_merge(wc_rd_hist *dst, const wc_rd_hist *src)
{
    for (int i = 0; i < WC_RD_EXACT; i++) dst->exact[i] += src->exact[i];
    for (int i = 0; i < WC_RD_LOG; i++) dst->log2[i] += src->log2[i];
    dst->inf += src->inf;
    dst->total += src->total;
}

uint64_t wc_rd_hist_at_least(const wc_rd_hist *h, uint64_t d)
{
    uint64_t n = h->inf;
    for (uint64_t i = d; i < WC_RD_EXACT; i++) n += h->exact[i];
    for (int k = 0; k < WC_RD_LOG; k++) {
        uint64_t lo = 1ull << k, hi = lo << 1;
        if (lo >= d)
            n += h->log2[k];
        else if (hi > d) /* d inside the bin: assume distances spread evenly */
            n += (uint64_t)((double)h->log2[k] * (double)(hi - d) / (double)lo);
    }
    return n;
}

void wc_model_counts_add(wc_model_counts *dst, const wc_model_counts *src)
{
    dst->accesses += src->accesses;
    dst->hits += src->hits;
    dst->misses += src->misses;
    dst->inf += src->inf;
    dst->cold += src->cold;
    dst->inflight += src->inflight;
    dst->mshr_stalls += src->mshr_stalls;
    dst->warp_insts += src->warp_insts;
    dst->threads += src->threads;
    dst->time += src->time;
}

const char *wc_model_run_name(wc_model_run_kind k)
{
    static const char *const names[WC_RUN__COUNT] = {"full", "no_assoc", "no_latency", "no_mshr"};
    return k < WC_RUN__COUNT ? names[k] : "?";
}

/* ---- classification (seed 003 section 6.1) ---------------------------------- */

static uint64_t sat_sub(uint64_t a, uint64_t b)
{
    return a > b ? a - b : 0;
}

/* compulsory = infinite distances without latencies; latency = the extra
 * infinite distances latencies cause; associativity / MSHR = extra misses over
 * the run without them (negative differences, where an extension removes
 * misses, count as 0); capacity = the rest.  If the classes overshoot the
 * total, MSHR, then latency, then associativity misses give way. */
void wc_model_classes_compute(wc_model_kernel *k, const wc_model_opts *o)
{
    const wc_model_counts *full = &k->run[WC_RUN_FULL];
    wc_model_classes c;
    memset(&c, 0, sizeof c);
    uint64_t inf_nolat = k->ran[WC_RUN_NO_LATENCY] ? k->run[WC_RUN_NO_LATENCY].inf : full->inf;
    c.compulsory = inf_nolat < full->misses ? inf_nolat : full->misses;
    if (k->ran[WC_RUN_NO_LATENCY]) c.latency = sat_sub(full->inf, inf_nolat);
    if (k->ran[WC_RUN_NO_ASSOC])
        c.associativity = sat_sub(full->misses, k->run[WC_RUN_NO_ASSOC].misses);
    if (k->ran[WC_RUN_NO_MSHR]) c.mshr = sat_sub(full->misses, k->run[WC_RUN_NO_MSHR].misses);
    uint64_t left = full->misses - c.compulsory;
    uint64_t *give[3] = {&c.associativity, &c.latency, &c.mshr}; /* last gives way first */
    for (int i = 0; i < 3; i++) {
        if (*give[i] > left) *give[i] = left;
        left -= *give[i];
    }
    c.capacity = left;
    (void)o;
    k->cls = c;
}

double wc_model_miss_rate(const wc_model_kernel *k)
{
    const wc_model_counts *f = &k->run[WC_RUN_FULL];
    return f->accesses ? (double)f->misses / (double)f->accesses : 0.0;
}

double wc_model_miss_rate_no_latency(const wc_model_kernel *k)
{
    const wc_model_counts *f = &k->run[WC_RUN_FULL];
    return f->accesses ? (double)(f->misses - k->cls.latency) / (double)f->accesses : 0.0;
}

void wc_model_result_free(wc_model_result *r)
{
    free(r->kernels);
    memset(r, 0, sizeof *r);
}

static void total_up(wc_model_result *res, const wc_model_opts *o)
{
    wc_model_kernel *t = &res->total;
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "total");
    for (size_t i = 0; i < res->n_kernels; i++) {
        wc_model_kernel *k = &res->kernels[i];
        wc_model_classes_compute(k, o);
        for (int j = 0; j < WC_RUN__COUNT; j++) {
            wc_model_counts_add(&t->run[j], &k->run[j]);
            t->ran[j] |= k->ran[j];
        }
        wc_rd_hist_merge(&t->hist, &k->hist);
        t->cls.compulsory += k->cls.compulsory;
        t->cls.capacity += k->cls.capacity;
        t->cls.associativity += k->cls.associativity;
        t->cls.latency += k->cls.latency;
        t->cls.mshr += k->cls.mshr;
    }
}

int wc_model_classify(const wc_model_opts *o, const wc_config *cfg, wc_model_open_fn open,
                      void *open_ctx, wc_model_result *res, wc_err *err)
{
    memset(res, 0, sizeof *res);
    for (int kind = 0; kind < WC_RUN__COUNT; kind++) {
        /* A run with an extension disabled is only needed when it is enabled. */
        if (kind == WC_RUN_NO_ASSOC && !o->assoc) continue;
        if (kind == WC_RUN_NO_LATENCY && !o->latency) continue;
        if (kind == WC_RUN_NO_MSHR && !o->mshr) continue;
        wc_source *src = open(open_ctx, err);
        if (!src) return -1;
        int rc = wc_model_run(o, cfg, src, (wc_model_run_kind)kind, res, NULL, NULL, err);
        wc_source_destroy(src);
        if (rc < 0) return -1;
    }
    total_up(res, o);
    return 0;
}
