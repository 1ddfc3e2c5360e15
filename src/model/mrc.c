/*
 * mrc.c - one-pass LRU miss-ratio curves from stack distances (Mattson's
 * inclusion property: an access hits in every LRU cache larger than its
 * distance), over an ordered line stream such as the one the seed 003 model
 * (003_ffafd1cb931cbd21.txt, section 3.3) produces, with optional fixed-rate
 * SHARDS sampling (Waldspurger et al., FAST 2015): only lines whose hash falls
 * below a threshold are tracked, their distances and counts scaled by 1/rate.
 *
 * The histogram is exact (one counter per distance), so memory grows with the
 * largest distance, i.e. with the distinct lines, like the stacks themselves.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/sdstack.h"
#include "warpcache/cache.h"
#include "warpcache/model.h"

#define SHARDS_MOD (1u << 24)

struct wc_mrc {
    wc_mrc_opts o;
    wc_index index;
    unsigned line_log2;
    uint32_t threshold; /* keep a line when hash mod 2^24 < threshold */
    wc_linemap map;
    uint32_t *stamp, *set;
    size_t lcap;
    wc_sdstack *stacks;
    uint64_t *hist; /* hist[d]: sampled accesses at (scaled) distance d */
    size_t hcap;
    uint64_t inf, sampled, total, maxd;
    bool failed;
};

static inline uint32_t shards_hash(uint64_t line)
{
    line ^= line >> 31;
    line *= 0x7fb5d329728ea185ull;
    line ^= line >> 27;
    line *= 0x81dadef4bc2dd44dull;
    line ^= line >> 33;
    return (uint32_t)(line & (SHARDS_MOD - 1));
}

wc_mrc *wc_mrc_create(const wc_mrc_opts *o, wc_err *err)
{
    if (!(o->rate > 0 && o->rate <= 1)) {
        wc_errf(err, "mrc: sampling rate %g outside (0, 1]", o->rate);
        return NULL;
    }
    uint32_t nsets = o->nsets ? o->nsets : 1;
    if (!wc_is_pow2(nsets)) {
        wc_errf(err, "mrc: %u sets is not a power of two", nsets);
        return NULL;
    }
    uint32_t line_bytes = o->line_bytes ? o->line_bytes : 128;
    if (!wc_is_pow2(line_bytes)) {
        wc_errf(err, "mrc: line size %u is not a power of two", line_bytes);
        return NULL;
    }
    wc_mrc *m = calloc(1, sizeof *m);
    if (!m) {
        wc_errf(err, "mrc: out of memory");
        return NULL;
    }
    m->o = *o;
    m->o.nsets = nsets;
    m->o.line_bytes = line_bytes;
    m->line_log2 = wc_log2(line_bytes);
    m->threshold = (uint32_t)llround(o->rate * SHARDS_MOD);
    if (!m->threshold) m->threshold = 1;
    if (nsets > 1 && wc_index_init(&m->index, o->set_index ? o->set_index : 'L', nsets, line_bytes,
                                   0, err) < 0) {
        free(m);
        return NULL;
    }
    m->stacks = calloc(nsets, sizeof *m->stacks);
    if (!m->stacks || wc_linemap_init(&m->map, 1024) < 0) goto fail;
    for (uint32_t s = 0; s < nsets; s++)
        if (wc_sdstack_init(&m->stacks[s], nsets == 1 ? 1024 : 64) < 0) goto fail;
    return m;
fail:
    wc_mrc_destroy(m);
    wc_errf(err, "mrc: out of memory");
    return NULL;
}

void wc_mrc_destroy(wc_mrc *m)
{
    if (!m) return;
    if (m->stacks)
        for (uint32_t s = 0; s < m->o.nsets; s++) wc_sdstack_free(&m->stacks[s]);
    free(m->stacks);
    wc_linemap_free(&m->map);
    free(m->stamp);
    free(m->set);
    free(m->hist);
    free(m);
}

static bool grow_lines(wc_mrc *m, uint32_t slot)
{
    if (slot < m->lcap) return true;
    size_t cap = m->lcap ? m->lcap * 2 : 1024;
    uint32_t *a = realloc(m->stamp, cap * sizeof *a);
    if (!a) return false;
    m->stamp = a;
    uint32_t *b = realloc(m->set, cap * sizeof *b);
    if (!b) return false;
    m->set = b;
    m->lcap = cap;
    return true;
}

static void hist_add(wc_mrc *m, uint64_t d)
{
    if (d >= m->hcap) {
        size_t cap = m->hcap ? m->hcap : 256;
        while (cap <= d) cap *= 2;
        uint64_t *h = realloc(m->hist, cap * sizeof *h);
        if (!h) {
            m->failed = true;
            return;
        }
        memset(h + m->hcap, 0, (cap - m->hcap) * sizeof *h);
        m->hist = h;
        m->hcap = cap;
    }
    m->hist[d]++;
    if (d + 1 > m->maxd) m->maxd = d + 1;
}

void wc_mrc_access(wc_mrc *m, uint64_t line)
{
    m->total++;
    if (m->threshold < SHARDS_MOD && shards_hash(line) >= m->threshold) return;
    m->sampled++;
    bool created;
    uint32_t slot = wc_linemap_get(&m->map, line, &created);
    if (slot == WC_SD_NONE || !grow_lines(m, slot)) {
        m->failed = true;
        return;
    }
    if (created) {
        m->stamp[slot] = 0;
        m->set[slot] = m->o.nsets > 1 ? wc_index_set(&m->index, line << m->line_log2) : 0;
    }
    wc_sdstack *st = &m->stacks[m->set[slot]];
    uint64_t d = wc_sdstack_distance(st, m->stamp[slot]);
    if (d == WC_SD_INF)
        m->inf++;
    else
        hist_add(m, m->threshold < SHARDS_MOD ? (uint64_t)((double)d / m->o.rate) : d);
    if (wc_sdstack_touch(st, slot, m->stamp) < 0) m->failed = true;
}

uint64_t wc_mrc_accesses(const wc_mrc *m)
{
    return m->total;
}

uint64_t wc_mrc_max_size(const wc_mrc *m)
{
    return m->maxd;
}

/* Misses of a cache of `size` (lines or ways): distance >= size, scaled to the
 * sample.  SHARDS_adj: the difference between the expected and the actual
 * sample count is credited to distance 0 (it is mostly hits), which removes most
 * of the bias of small samples. */
double wc_mrc_miss_ratio(const wc_mrc *m, uint64_t size)
{
    if (!m->sampled) return 0.0;
    uint64_t miss = m->inf;
    for (uint64_t d = size; d < m->maxd; d++) miss += m->hist[d];
    if (m->threshold >= SHARDS_MOD) return (double)miss / (double)m->sampled;
    double expected = (double)m->total * m->o.rate;
    double denom = expected > 0 ? expected : (double)m->sampled;
    double r = (double)miss / denom;
    return r < 0 ? 0 : r > 1 ? 1 : r;
}

size_t wc_mrc_default_sizes(uint64_t max, uint64_t *out, size_t cap)
{
    size_t n = 0;
    for (uint64_t p = 1; p && n < cap; p <<= 1) {
        if (p > max) break;
        out[n++] = p;
        uint64_t mid = p + p / 2;
        if (p >= 2 && mid <= max && mid < (p << 1) && n < cap) out[n++] = mid;
    }
    if (n < cap && (n == 0 || out[n - 1] < max)) out[n++] = max;
    return n;
}

/* ---- writers ---------------------------------------------------------------------- */

void wc_mrc_write_text(const wc_mrc_curve *c, size_t nc, uint32_t line_bytes, FILE *f)
{
    for (size_t k = 0; k < nc; k++) {
        fprintf(f, "%s%s\n", k ? "\n" : "", c[k].label);
        fprintf(f, "  %12s %12s %10s\n", "lines", "bytes", "miss %");
        for (size_t i = 0; i < c[k].n; i++)
            fprintf(f, "  %12llu %12llu %10.2f\n", (unsigned long long)c[k].size[i],
                    (unsigned long long)c[k].size[i] * line_bytes, 100.0 * c[k].miss[i]);
    }
}

void wc_mrc_write_csv(const wc_mrc_curve *c, size_t nc, uint32_t line_bytes, FILE *f)
{
    fprintf(f, "curve,lines,bytes,miss_ratio\n");
    for (size_t k = 0; k < nc; k++)
        for (size_t i = 0; i < c[k].n; i++)
            fprintf(f, "%s,%llu,%llu,%.6f\n", c[k].label, (unsigned long long)c[k].size[i],
                    (unsigned long long)c[k].size[i] * line_bytes, c[k].miss[i]);
}

void wc_mrc_write_json(const wc_mrc_curve *c, size_t nc, uint32_t line_bytes, FILE *f)
{
    fprintf(f, "{\n  \"line_bytes\": %u,\n  \"curves\": [", line_bytes);
    for (size_t k = 0; k < nc; k++) {
        fprintf(f, "%s\n    {\"label\": \"%s\", \"points\": [", k ? "," : "", c[k].label);
        for (size_t i = 0; i < c[k].n; i++)
            fprintf(f, "%s{\"lines\": %llu, \"miss_ratio\": %.6f}", i ? ", " : "",
                    (unsigned long long)c[k].size[i], c[k].miss[i]);
        fprintf(f, "]}");
    }
    fprintf(f, "\n  ]\n}\n");
}
