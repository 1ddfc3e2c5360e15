/*
 * ball.c - BALL, "bypass all" (../shared/papers/001_94c1440347ca7d61.txt,
 * section 5, the comparison schemes; Figure 8): every global and local
 * access goes around the L1 (a BYPASS: no data line, no MSHR entry, the data
 * straight to the warp), and nothing is ever allocated.  A tag store on the
 * shared L1 core (l1_core.h) that holds no line: lookups always miss, every
 * read miss is a bypass, and a write that would allocate is written through
 * (the core's answer to an allocation that returns NULL).
 */
#include <stdlib.h>

#include "cache/l1_core.h"
#include "cache/l1_impl.h"

static wc_line *ball_lookup(wc_tagstore *ts, uint64_t addr, uint32_t *set)
{
    *set = 0;
    return NULL;
}

static bool ball_can_allocate(const wc_tagstore *ts, uint32_t set)
{
    return true; /* allocate() declines; the core then bypasses / writes through */
}

static wc_line *ball_allocate(wc_tagstore *ts, wc_l1_core *core, uint32_t set, uint64_t tag,
                              uint8_t state, const wc_repl_ctx *ctx, uint64_t now)
{
    return NULL;
}

static bool ball_bypasses(const wc_tagstore *ts, uint32_t set, uint64_t tag, const wc_mem_req *req)
{
    return true;
}

static void ball_bypassed(wc_tagstore *ts, wc_l1_core *core, uint32_t set, uint64_t tag,
                          const wc_repl_ctx *ctx, uint64_t now)
{
}

/* Never called: no line is ever present. */
static void ball_line_op(wc_tagstore *ts, uint32_t set, wc_line *line) {}

static void ball_touch(wc_tagstore *ts, uint32_t set, wc_line *line, const wc_repl_ctx *ctx) {}

static void ball_fill(wc_tagstore *ts, uint32_t set, wc_line *line, uint64_t chunks) {}

static void ball_each_valid(wc_tagstore *ts, void (*fn)(void *arg, uint32_t set, wc_line *line),
                            void *arg)
{
}

static void ball_destroy(wc_tagstore *ts)
{
    free(ts);
}

static const wc_tagstore_ops ball_ops = {
    .name = "ball",
    .destroy = ball_destroy,
    .lookup = ball_lookup,
    .can_allocate = ball_can_allocate,
    .allocate = ball_allocate,
    .touch = ball_touch,
    .invalidate = ball_line_op,
    .fill = ball_fill,
    .each_valid = ball_each_valid,
    .bypasses = ball_bypasses,
    .bypassed = ball_bypassed,
    .retry_memo = true, /* only the miss queue can make it fail */
};

static wc_tagstore *ball_ts_create(wc_l1_core *core, const wc_config *cfg, const wc_l1_env *env,
                                   wc_err *err)
{
    wc_tagstore *ts = calloc(1, sizeof *ts);
    if (!ts) {
        wc_errf(err, "ball tag store: out of memory");
        return NULL;
    }
    uint32_t line = cfg->l1.line_bytes;
    if (line < 32 || line / 32 > 16) {
        wc_errf(err, "%s: -gpgpu_cache:dl1: %u-byte lines are not supported by ball (32 to 512)",
                wc_l1_config_where(cfg), line);
        free(ts);
        return NULL;
    }
    ts->ops = &ball_ops;
    ts->chunk_log2 = 5;
    ts->nchunks = line / 32;
    ts->whole_line = false; /* a bypass moves only the chunks asked for */
    return ts;
}

static wc_l1 *ball_create(const wc_config *cfg, const wc_l1_env *env, wc_err *err)
{
    return wc_l1_core_create(&wc_l1_ball, ball_ts_create, cfg, env, err);
}

const wc_l1_ops wc_l1_ball = {
    .name = "ball",
    .help = "seed 001's BALL: every global and local access bypasses the L1, nothing allocates",
    .create = ball_create,
    WC_L1_CORE_OPS,
};
WC_PLUGIN(l1_org, wc_l1_ball, 30);
