/*
 * localxbar.c - GPGPU-Sim 4.x's local crossbar, the L2 -> SM router (see
 * localxbar.h; GPGPU-Sim 4.2's xbar_router in local_interconnect.cc).
 *
 * Timing within an interconnect cycle follows gpgpu_sim::cycle: the SMs
 * take a packet from their outputs first, then each L2 sub-partition
 * pushes a reply into its input, then the router advances.  So a packet
 * that enters in cycle c may cross in cycle c and is taken by its SM in
 * cycle c + 1 at the earliest; an output that took packets until cycle
 * `last_pop` holds last_pop - c of them while the router advances in
 * cycle c (its SM takes one every cycle).
 *
 * The request direction (SM -> L2) is not simulated here: memsys.c keeps
 * the timestamped ports for it, one packet per cycle per port under
 * -icnt_model local.  Not modelled either: back-pressure into the L2 (a
 * reply waits in front of a full input instead of stalling the L2) and an
 * SM that takes nothing because its response queue is full.
 */
#include <stdlib.h>
#include <string.h>

#include "mem/localxbar.h"
#include "util/ring.h"

/* A reply: its L2 has it from interconnect cycle `ready`. */
typedef struct lpkt {
    uint64_t ready;
    double eject;
    uint32_t rec;
    uint32_t out;
} lpkt;

/* An input's packets in one ring q[head .. head+len) by ready cycle (then
 * the order they were sent): the first `nin` are in the router's input
 * buffer (the head is the one it forwards), the rest wait in the L2. */
typedef struct linput {
    lpkt *q;
    uint32_t cap, head, len, nin;
} linput;

struct wc_lxbar {
    wc_lxbar_params p;
    unsigned n_in, n_out;
    double icnt_cycle;
    uint32_t latency;
    wc_lxbar_arrive_fn arrive;
    void *ctx;
    linput *in;
    uint64_t *last_pop;   /* per output: the cycle its SM takes its last packet */
    uint32_t *ptr;        /* per output: iSLIP's round-robin pointer (an input) */
    uint32_t grant_count; /* GPGPU-Sim's grant_cycles_count */
    uint64_t cycle;       /* next interconnect cycle to simulate */
    uint64_t pending;     /* packets held, waiting or inside */
    uint64_t enter_min;   /* the earliest ready cycle of the first waiting packets
                           * (UINT64_MAX: none wait) */
    uint64_t inside;      /* packets in input buffers */
    unsigned iw, ow;      /* 64-bit words of a set of inputs / outputs */
    uint64_t *req;        /* n_out sets: inputs whose head packet is for output o */
    uint64_t *out_req;    /* outputs some head packet is for */
    uint64_t *held;       /* inputs with packets in their buffer */
    uint64_t *feed;       /* inputs with packets waiting in the L2 */
    uint64_t *issued;     /* naive round robin: outputs that took one this cycle */
};

static inline void bit_set(uint64_t *s, unsigned i)
{
    s[i >> 6] |= 1ull << (i & 63);
}

static inline void bit_clear(uint64_t *s, unsigned i)
{
    s[i >> 6] &= ~(1ull << (i & 63));
}

static inline bool bit_test(const uint64_t *s, unsigned i)
{
    return (s[i >> 6] >> (i & 63)) & 1;
}

wc_lxbar *wc_lxbar_new(unsigned n_in, unsigned n_out, const wc_lxbar_params *p, double icnt_cycle,
                       uint32_t latency, wc_lxbar_arrive_fn arrive, void *ctx, wc_err *err)
{
    wc_lxbar *x = calloc(1, sizeof *x);
    if (!x) goto oom;
    x->p = *p;
    if (x->p.grant_cycles == 0) x->p.grant_cycles = 1;
    x->n_in = n_in;
    x->n_out = n_out;
    x->icnt_cycle = icnt_cycle;
    x->latency = latency;
    x->arrive = arrive;
    x->ctx = ctx;
    x->grant_count = x->p.grant_cycles;
    x->enter_min = UINT64_MAX;
    x->iw = (n_in + 63) / 64;
    x->ow = (n_out + 63) / 64;
    x->in = calloc(n_in ? n_in : 1, sizeof *x->in);
    x->last_pop = calloc(n_out ? n_out : 1, sizeof *x->last_pop);
    x->ptr = calloc(n_out ? n_out : 1, sizeof *x->ptr);
    x->req = calloc((size_t)(n_out ? n_out : 1) * x->iw, sizeof *x->req);
    x->out_req = calloc(x->ow ? x->ow : 1, sizeof *x->out_req);
    x->held = calloc(x->iw ? x->iw : 1, sizeof *x->held);
    x->feed = calloc(x->iw ? x->iw : 1, sizeof *x->feed);
    x->issued = calloc(x->ow ? x->ow : 1, sizeof *x->issued);
    if (!x->in || !x->last_pop || !x->ptr || !x->req || !x->out_req || !x->held || !x->feed ||
        !x->issued)
        goto oom;
    return x;
oom:
    wc_lxbar_free(x);
    wc_errf(err, "out of memory (interconnect)");
    return NULL;
}

void wc_lxbar_free(wc_lxbar *x)
{
    if (!x) return;
    for (unsigned i = 0; x->in && i < x->n_in; i++) free(x->in[i].q);
    free(x->in);
    free(x->last_pop);
    free(x->ptr);
    free(x->req);
    free(x->out_req);
    free(x->held);
    free(x->feed);
    free(x->issued);
    free(x);
}

/* ---- clocks ---------------------------------------------------------------- */

/* The interconnect cycle that starts at or after core cycle t. */
static uint64_t net_cycle_of(const wc_lxbar *x, uint64_t t)
{
    if (x->icnt_cycle == 1.0) return t;
    double n = (double)t / x->icnt_cycle;
    uint64_t c = (uint64_t)n;
    return c + ((double)c < n);
}

static uint64_t core_time_of(const wc_lxbar *x, uint64_t n)
{
    if (x->icnt_cycle == 1.0) return n;
    double t = (double)n * x->icnt_cycle;
    uint64_t c = (uint64_t)t;
    return c + ((double)c < t);
}

/* The last interconnect cycle that starts at or before core cycle now. */
static uint64_t last_cycle_by(const wc_lxbar *x, uint64_t now)
{
    if (x->icnt_cycle == 1.0) return now;
    uint64_t n = (uint64_t)((double)now / x->icnt_cycle);
    while (core_time_of(x, n + 1) <= now) n++;
    while (n && core_time_of(x, n) > now) n--;
    return n;
}

/* ---- the inputs -------------------------------------------------------------- */

static inline lpkt *q_at(linput *in, uint32_t k)
{
    return &in->q[(in->head + k) & (in->cap - 1)];
}

/* Room for `extra` more entries. */
static int q_reserve(linput *in, uint32_t extra)
{
    void *q = in->q;
    if (wc_ring_reserve(&q, &in->head, &in->cap, in->len, extra, sizeof(lpkt)) < 0) return -1;
    in->q = q;
    return 0;
}

/* Puts p behind every waiting packet ready no later (the order the L2's
 * queue to the interconnect holds them in); packets inside the router
 * entered in a cycle already simulated, so before p. */
static void q_insert(linput *in, lpkt p)
{
    uint32_t k = in->len;
    while (k > in->nin && q_at(in, k - 1)->ready > p.ready) k--;
    for (uint32_t j = in->len++; j > k; j--) *q_at(in, j) = *q_at(in, j - 1);
    *q_at(in, k) = p;
}

int wc_lxbar_send_n(wc_lxbar *x, unsigned in, unsigned out, const uint64_t *ready, unsigned n,
                    double eject, uint32_t rec)
{
    linput *q = &x->in[in];
    if (q_reserve(q, n) < 0) return -1;
    for (unsigned k = 0; k < n; k++) {
        uint64_t r = net_cycle_of(x, ready[k]);
        if (r < x->cycle) r = x->cycle; /* never into a cycle already simulated */
        q_insert(q, (lpkt){.ready = r, .eject = eject, .rec = rec, .out = out});
        /* the input's first waiting packet is the earliest of those before
         * and the new one: enter_min stays exact */
        if (r < x->enter_min) x->enter_min = r;
    }
    if (q->len > q->nin) bit_set(x->feed, in);
    x->pending += n;
    return 0;
}

/* Input i's head packet asks for its output. */
static inline void ask(wc_lxbar *x, unsigned i)
{
    unsigned o = q_at(&x->in[i], 0)->out;
    bit_set(&x->req[(size_t)o * x->iw], i);
    bit_set(x->out_req, o);
}

/* Each L2 sub-partition pushes its first waiting reply that is ready, if
 * its input buffer has room (one per cycle); enter_min becomes the earliest
 * ready cycle of the packets still waiting.  Nothing to do before it. */
static void enter_cycle(wc_lxbar *x, uint64_t cyc)
{
    if (cyc < x->enter_min) return;
    uint64_t min = UINT64_MAX;
    for (unsigned w = 0; w < x->iw; w++)
        for (uint64_t m = x->feed[w]; m; m &= m - 1) {
            unsigned i = w * 64 + (unsigned)__builtin_ctzll(m);
            linput *in = &x->in[i];
            if (in->nin < x->p.in_limit && q_at(in, in->nin)->ready <= cyc) {
                if (in->nin++ == 0) {
                    bit_set(x->held, i);
                    ask(x, i);
                }
                x->inside++;
                if (in->nin == in->len) {
                    bit_clear(x->feed, i);
                    continue;
                }
            }
            if (q_at(in, in->nin)->ready < min) min = q_at(in, in->nin)->ready;
        }
    x->enter_min = min;
}

/* ---- the router's cycle ------------------------------------------------------- */

static inline bool out_has_room(const wc_lxbar *x, unsigned o, uint64_t cyc)
{
    uint64_t held = x->last_pop[o] > cyc ? x->last_pop[o] - cyc : 0;
    return held + 1 <= x->p.out_limit;
}

/* Input i's head packet crosses to its output in cycle cyc: its SM takes
 * it in the next cycle its output is free to give one. */
static void cross(wc_lxbar *x, unsigned i, uint64_t cyc)
{
    linput *in = &x->in[i];
    lpkt p = *q_at(in, 0);
    bit_clear(&x->req[(size_t)p.out * x->iw], i);
    bool others = false;
    for (unsigned w = 0; w < x->iw && !others; w++) others = x->req[(size_t)p.out * x->iw + w] != 0;
    if (!others) bit_clear(x->out_req, p.out);
    in->head = (in->head + 1) & (in->cap - 1);
    in->len--;
    in->nin--;
    x->inside--;
    x->pending--;
    if (in->nin)
        ask(x, i);
    else
        bit_clear(x->held, i);
    uint64_t pop = x->last_pop[p.out] > cyc ? x->last_pop[p.out] + 1 : cyc + 1;
    x->last_pop[p.out] = pop;
    double at = (double)core_time_of(x, pop) + x->latency + p.eject;
    uint64_t t = (uint64_t)at;
    t += (double)t < at;
    x->arrive(x->ctx, p.rec, t);
}

/* The first input at or after `from` (< n_in) in set s, going round, or
 * n_in when s is empty: the word of `from` from its bit on, the other
 * words in turn, and last that word's bits below `from`. */
static unsigned first_from(const wc_lxbar *x, const uint64_t *s, unsigned from)
{
    unsigned w = from >> 6;
    uint64_t above = ~0ull << (from & 63);
    uint64_t m = s[w] & above;
    if (m) return w * 64 + (unsigned)__builtin_ctzll(m);
    for (unsigned k = 1; k <= x->iw; k++) {
        unsigned v = w + k < x->iw ? w + k : w + k - x->iw;
        m = v == w ? s[v] & ~above : s[v];
        if (m) return v * 64 + (unsigned)__builtin_ctzll(m);
    }
    return x->n_in;
}

/* The first output at or after o with a request, or n_out. */
static unsigned next_output(const wc_lxbar *x, unsigned o)
{
    for (unsigned w = o >> 6; w < x->ow; w++) {
        uint64_t m = x->out_req[w];
        if (w == o >> 6) m &= ~0ull << (o & 63);
        if (m) return w * 64 + (unsigned)__builtin_ctzll(m);
    }
    return x->n_out;
}

/* xbar_router::iSLIP_Advance: outputs in order, each taking the first
 * input from its pointer on whose head packet is for it.  An input whose
 * next packet is for a later output may cross again in this cycle, as the
 * outputs are visited one after the other on the changing buffers. */
static void islip_cycle(wc_lxbar *x, uint64_t cyc)
{
    bool update = x->grant_count == 1;
    for (unsigned o = next_output(x, 0); o < x->n_out; o = next_output(x, o + 1)) {
        if (!out_has_room(x, o, cyc)) continue;
        unsigned i = first_from(x, &x->req[(size_t)o * x->iw], x->ptr[o]);
        if (update) x->ptr[o] = i + 1 == x->n_in ? 0 : i + 1;
        cross(x, i, cyc);
    }
    /* the router was busy (it had packets at the cycle's start) */
    x->grant_count = update ? x->p.grant_cycles : x->grant_count - 1;
}

/* xbar_router::RR_Advance: the inputs in order from the one the cycle
 * count points at (its pointer runs over SMs and L2s, one step a cycle,
 * busy or not; the reply router's inputs are the L2s, after the SMs). */
static void rr_cycle(wc_lxbar *x, uint64_t cyc)
{
    uint64_t nodes = (uint64_t)x->n_in + x->n_out;
    uint64_t start = cyc % nodes;
    unsigned first = start <= x->n_out ? 0 : (unsigned)(start - x->n_out);
    memset(x->issued, 0, x->ow * sizeof *x->issued);
    for (unsigned k = 0; k < x->n_in; k++) {
        unsigned i = first + k < x->n_in ? first + k : first + k - x->n_in;
        if (!bit_test(x->held, i)) continue;
        unsigned o = q_at(&x->in[i], 0)->out;
        if (!out_has_room(x, o, cyc) || bit_test(x->issued, o)) continue;
        bit_set(x->issued, o);
        cross(x, i, cyc);
    }
}

void wc_lxbar_run(wc_lxbar *x, uint64_t now)
{
    if (!x->pending) return;
    uint64_t last = last_cycle_by(x, now);
    while (x->pending && x->cycle <= last) {
        if (!x->inside) { /* nothing inside: on to the first cycle one may enter */
            uint64_t r = x->enter_min;
            if (r > last) break;
            if (r > x->cycle) x->cycle = r;
        }
        uint64_t cyc = x->cycle++;
        enter_cycle(x, cyc);
        if (!x->inside) continue;
        if (x->p.arbiter == 0)
            rr_cycle(x, cyc);
        else
            islip_cycle(x, cyc);
    }
}

uint64_t wc_lxbar_next(const wc_lxbar *x)
{
    if (!x->pending) return WC_NEVER;
    uint64_t r = x->cycle;
    if (!x->inside && x->enter_min > r) r = x->enter_min;
    return core_time_of(x, r);
}

uint64_t wc_lxbar_pending(const wc_lxbar *x)
{
    return x->pending;
}
