/*
 * test_events.c - the response queue (src/core/events.h): events come out in
 * (time, insertion) order whatever mix of in-order pushes (the ring) and
 * earlier ones (the heap) went in, with pops interleaved, across growth of
 * both parts; the queue's next time is always the smallest time queued.
 * The expected order is computed independently: a stable sort by time of
 * the events still queued.
 */
#include "check.h"
#include "core/events.h"
#include "util/rng.h"

/* A reference: the queued events in push order; the next one out is the
 * first with the smallest time (equal times leave in push order). */
typedef struct ref {
    uint64_t time[20000];
    uint32_t id[20000];
    size_t n;
} ref;

static size_t ref_first(const ref *r)
{
    size_t best = 0;
    for (size_t i = 1; i < r->n; i++)
        if (r->time[i] < r->time[best]) best = i;
    return best;
}

static ref R;

/* Pushes `n` events with times drawn around a moving clock (some earlier
 * than the last push, many equal), popping `pop_every`-th step; checks each
 * pop against the reference, then drains. */
static void run_mix(uint64_t seed, unsigned n, unsigned spread, unsigned pop_every)
{
    wc_evq q;
    wc_evq_init(&q);
    R.n = 0;
    uint64_t clock = 10, s = seed;
    unsigned popped = 0;
    for (unsigned k = 0; k < n; k++) {
        uint64_t r = wc_splitmix64(&s);
        clock += r % 3; /* the sender's clock moves forward */
        uint64_t t = clock + (r >> 8) % spread;
        wc_event e = {.time = t, .arg = k, .sm = (uint16_t)(k & 7)};
        CHECK(wc_evq_push(&q, e) == 0);
        R.time[R.n] = t;
        R.id[R.n++] = k;
        if (pop_every && k % pop_every == 0) {
            size_t i = ref_first(&R);
            CHECK(wc_evq_top_time(&q) == R.time[i]);
            wc_event got = wc_evq_pop(&q);
            CHECK(got.arg == R.id[i] && got.time == R.time[i]);
            memmove(&R.time[i], &R.time[i + 1], (R.n - i - 1) * sizeof R.time[0]);
            memmove(&R.id[i], &R.id[i + 1], (R.n - i - 1) * sizeof R.id[0]);
            R.n--;
            popped++;
        }
    }
    while (R.n) {
        size_t i = ref_first(&R);
        CHECK(wc_evq_top_time(&q) == R.time[i]);
        wc_event got = wc_evq_pop(&q);
        CHECK(got.arg == R.id[i] && got.time == R.time[i]);
        memmove(&R.time[i], &R.time[i + 1], (R.n - i - 1) * sizeof R.time[0]);
        memmove(&R.id[i], &R.id[i + 1], (R.n - i - 1) * sizeof R.id[0]);
        R.n--;
    }
    CHECK(wc_evq_top_time(&q) == WC_NEVER);
    CHECK(q.ring[0].n == 0 && q.ring[1].n == 0 && q.n_heap == 0);
    wc_evq_free(&q);
}

/* Times that only grow: everything goes through the ring (no heap at all),
 * equal times in push order, past the ring's first capacity (1024). */
static void test_in_order(void)
{
    wc_evq q;
    wc_evq_init(&q);
    CHECK(wc_evq_top_time(&q) == WC_NEVER);
    for (unsigned k = 0; k < 3000; k++) {
        wc_event e = {.time = 100 + k / 3, .arg = k};
        CHECK(wc_evq_push(&q, e) == 0);
    }
    CHECK(q.n_heap == 0 && q.ring[1].n == 0 && q.ring[0].n == 3000);
    for (unsigned k = 0; k < 3000; k++) {
        CHECK(wc_evq_top_time(&q) == 100 + k / 3);
        wc_event e = wc_evq_pop(&q);
        CHECK(e.arg == k && e.time == 100 + k / 3);
    }
    CHECK(wc_evq_top_time(&q) == WC_NEVER);
    wc_evq_free(&q);
}

/* An earlier event pushed after later ones (an L2 hit overtaking a DRAM
 * fetch) comes out first; one equal in time to a queued event comes after
 * it (inserted later). */
static void test_overtaking(void)
{
    wc_evq q;
    wc_evq_init(&q);
    wc_event a = {.time = 500, .arg = 1}, b = {.time = 300, .arg = 2}, c = {.time = 500, .arg = 3},
             d = {.time = 200, .arg = 4};
    CHECK(wc_evq_push(&q, a) == 0);
    CHECK(wc_evq_push(&q, b) == 0); /* earlier than the first ring's tail: the second */
    CHECK(q.ring[1].n == 1 && q.n_heap == 0);
    CHECK(wc_evq_top_time(&q) == 300);
    CHECK(wc_evq_push(&q, c) == 0);
    CHECK(wc_evq_push(&q, d) == 0); /* earlier than both tails: the heap */
    CHECK(q.ring[0].n == 2 && q.ring[1].n == 1 && q.n_heap == 1);
    CHECK(wc_evq_top_time(&q) == 200);
    CHECK(wc_evq_pop(&q).arg == 4);
    CHECK(wc_evq_pop(&q).arg == 2);
    CHECK(wc_evq_top_time(&q) == 500);
    CHECK(wc_evq_pop(&q).arg == 1);
    CHECK(wc_evq_pop(&q).arg == 3);
    CHECK(wc_evq_top_time(&q) == WC_NEVER);
    /* emptied: the ring takes any time again */
    wc_event e = {.time = 50, .arg = 5};
    CHECK(wc_evq_push(&q, e) == 0);
    CHECK(q.ring[0].n == 1 && q.ring[1].n == 0 && q.n_heap == 0);
    CHECK(wc_evq_pop(&q).arg == 5);
    wc_evq_free(&q);
}

/* Two streams each in order (DRAM fetches and the L2 hits that overtake
 * them) go to the two rings, not the heap; equal times across the parts
 * leave in push order. */
static void test_second_ring(void)
{
    wc_evq q;
    wc_evq_init(&q);
    /* Pushed in this order, they go to ring 0, 0, 1, 1, 0, the heap (earlier
     * than both tails), 1; 50 three times (one in each part), 100 twice. */
    static const uint64_t t[] = {50, 100, 50, 60, 120, 50, 100};
    for (unsigned k = 0; k < 7; k++) {
        wc_event e = {.time = t[k], .arg = k};
        CHECK(wc_evq_push(&q, e) == 0);
    }
    CHECK(q.ring[0].n == 3 && q.ring[1].n == 3 && q.n_heap == 1);
    static const unsigned want[] = {0, 2, 5, 3, 1, 6, 4}; /* by time, then push order */
    for (unsigned k = 0; k < 7; k++) {
        CHECK(wc_evq_top_time(&q) == t[want[k]]);
        wc_event e = wc_evq_pop(&q);
        CHECK(e.arg == want[k]);
    }
    CHECK(wc_evq_top_time(&q) == WC_NEVER);
    wc_evq_free(&q);
}

static void test_mixed(void)
{
    run_mix(1, 5000, 40, 0);     /* all pushed, then drained: both parts grow */
    run_mix(2, 20000, 400, 2);   /* pops between pushes, ring wraps around */
    run_mix(3, 20000, 4, 3);     /* many equal times */
    run_mix(4, 8000, 100000, 1); /* mostly out of order */
}

int main(void)
{
    RUN(test_in_order);
    RUN(test_overtaking);
    RUN(test_second_ring);
    RUN(test_mixed);
    return check_summary("events");
}
