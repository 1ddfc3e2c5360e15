/*
 * fake_l1.h - the environment a lone L1 talks to in the unit tests: the
 * memory side and the SM replaced by a recorder (what was sent, with which
 * chunks, what was answered, what went on the timeline).  Tests read the
 * counts and the first FAKE_L1_MAX requests and answers.
 *
 *     fake_l1 f = {0};
 *     wc_l1_env env = fake_l1_env(&f);
 *     wc_l1 *l1 = tiny_lone_l1("conventional", geom, NULL, &env);
 */
#ifndef WC_TEST_FAKE_L1_H
#define WC_TEST_FAKE_L1_H

#include <stdio.h>
#include <string.h>

#include "warpcache/cache.h"

#define FAKE_L1_MAX 128

typedef struct fake_l1 {
    int n_sent, n_bypass_sent, n_resp;
    wc_mem_req sent[FAKE_L1_MAX]; /* the requests sent to the memory side */
    uint64_t sent_chunks[FAKE_L1_MAX];
    uint64_t sent_bytes; /* data the L1 asked for: chunks x chunk size */
    uint32_t resp_cookie[FAKE_L1_MAX];
    uint64_t resp_t[FAKE_L1_MAX];
    uint64_t delay; /* a send leaves the SM at now + delay */
    /* timeline events (env.record): how many, and the last one */
    int n_rec;
    char last_rec_key[32];
    double last_rec_value;
    uint64_t last_rec_at;
} fake_l1;

static inline uint64_t fake_l1_send(void *ctx, const wc_mem_req *req, uint64_t chunks, uint64_t now)
{
    fake_l1 *f = ctx;
    if (f->n_sent < FAKE_L1_MAX) {
        f->sent[f->n_sent] = *req;
        f->sent_chunks[f->n_sent] = chunks;
    }
    f->n_sent++;
    f->n_bypass_sent += (req->flags & WC_REQ_BYPASS) != 0;
    f->sent_bytes += wc_chunk_bytes(chunks, req->chunk_log2);
    return now + f->delay;
}

static inline void fake_l1_respond(void *ctx, uint32_t cookie, uint64_t t)
{
    fake_l1 *f = ctx;
    if (f->n_resp < FAKE_L1_MAX) {
        f->resp_cookie[f->n_resp] = cookie;
        f->resp_t[f->n_resp] = t;
    }
    f->n_resp++;
}

static inline void fake_l1_record(void *ctx, const char *key, double value, uint64_t now)
{
    fake_l1 *f = ctx;
    f->n_rec++;
    snprintf(f->last_rec_key, sizeof f->last_rec_key, "%s", key);
    f->last_rec_value = value;
    f->last_rec_at = now;
}

/* SM 0, recording into f; set .shared, .listener or .sm on the result as
 * the test needs. */
static inline wc_l1_env fake_l1_env(fake_l1 *f)
{
    return (wc_l1_env){.ctx = f,
                       .sm = 0,
                       .send = fake_l1_send,
                       .respond = fake_l1_respond,
                       .record = fake_l1_record};
}

#endif
