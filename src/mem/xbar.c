/*
 * xbar.c - the reply crossbar of -icnt_model islip (see xbar.h), and the
 * request records both reply crossbars complete (-icnt_model local moves
 * its packets in localxbar.c).
 *
 * What is modelled of booksim's input-queued router (intersim2's
 * iq_router.cpp with GPGPU-Sim's .icnt files: one VC, vc_alloc_delay =
 * sw_alloc_delay = 1, routing_delay 0, input and output speedup 1):
 *
 *  - Each L2 sub-partition is an input.  Its replies enter in the order they
 *    are ready (the L2-to-interconnect queue), one flit per interconnect
 *    cycle (the channel), into one FIFO (one virtual channel).
 *  - The router takes `speedup` steps per interconnect cycle (booksim's
 *    internal speedup; fractional values accumulate as booksim does).  In a
 *    step, the FIFO's head packet asks for its output's virtual channel; a
 *    free output grants one asker, round-robin from the one after its last
 *    grant (iSLIP with one iteration; with one request per input the accept
 *    side always accepts).  From the next step on, the winner sends one flit
 *    per step through the switch while the output has room.  The step that
 *    sends the tail frees the output's channel for the next step's
 *    allocation, and the input's next packet asks from the next step.  So a
 *    one-flit packet needs two steps at its input and its output: with
 *    speedup 2 one packet per cycle, at best, and a packet that loses its
 *    output holds up its input.
 *  - An output drains one flit per interconnect cycle towards its SM and
 *    holds at most `out_buf` flits (the credits of the SM's ejection
 *    buffer, booksim's vc_buf_size).
 *  - A packet reaches its SM `latency` core cycles after its last flit left
 *    the router, plus the cycles the SM takes to take it in; unloaded, that
 *    is exactly the timestamped ports' time (memsys.c).
 *
 * Not modelled: back-pressure into the L2 (a full input never stalls the L2
 * pipeline here; the L1s' MSHRs bound what is in flight) and the SM -> L2
 * direction, which keeps the timestamped ports.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/xbar.h"
#include "warpcache/params.h"
#include "util/ring.h"

/* A run of `count` packets that differ only in their ready cycles, ready,
 * ready + 1, ...: a sectored L2's answer to one request is four one-flit
 * packets one L2 cycle apart (memsys.c), queued as one entry.  count > 1
 * only for one-flit packets, which then enter one a cycle (from the
 * input's `enter` on, once the run is the head); the router takes the first
 * packet and, when it is through, drops it from the front of the run (ready
 * and the input's enter + 1).  A packet queued in the
 * middle of a run splits it. */
typedef struct xpkt {
    uint64_t ready; /* interconnect cycle from which its first packet may enter */
    double eject;   /* core cycles its SM takes to take a packet in */
    uint32_t rec;   /* request record, or WC_XBAR_NONE */
    uint32_t late;  /* latency + eject when that is a whole number of core
                     * cycles and the clocks are one (the usual case), which
                     * makes the arrival integer arithmetic; else UINT32_MAX */
    uint16_t out, flits, count;
} xpkt;

/* An input's packets in one ring q[head .. head+len), in the order they
 * enter: by ready cycle, then by the order they were sent (wc_xbar_send
 * inserts from the back, so equal ready cycles keep that order without a
 * sequence number).  The packets whose enter cycle has come are in the
 * router (the FIFO of its virtual channel); the first of the ring is the
 * head, the packet the input forwards.
 *
 * Nothing pushes back on an input (see "Not modelled"), so when each flit
 * enters follows from the order alone: a packet's first flit enters in the
 * cycle it is ready or the one after the previous packet's last flit,
 * whichever is later, and its flits follow one a cycle.  Every packet
 * before the head has left the queue, so the head's cycle (`enter`)
 * follows from its ready cycle and `end`, the cycle after the last flit of
 * those entered: it is computed when an entry becomes the head (the tail of
 * the one before it left, or wc_xbar_send put it before a head that had not
 * entered), and the entries behind the head need none, however they are
 * inserted.  The router never has to say that a packet entered: the head
 * packet's next flit is in when enter + sent <= the cycle, and when the
 * head's tail leaves, the next packet asks at once if its enter cycle has
 * come.  Only an input with nothing in the router
 * (`busy` clear) waits for an entry: the router looks at it in the cycle
 * its head packet enters (next_in), when it becomes busy and asks.  So
 * the queue of a busy input, where packets enter behind the head, costs
 * nothing per packet entering. */
typedef struct xinput {
    xpkt *q;
    uint32_t cap, head, len;
    uint32_t sent;  /* flits of the head packet through the switch */
    uint64_t enter; /* the cycle the head packet's first flit enters */
    uint64_t end;   /* the cycle after the last flit entered of the packets that
                     * have left (a run's too), while the head is to enter */
    bool busy;      /* the head packet has entered (it asks or holds) */
} xinput;

typedef struct xoutput {
    uint32_t ptr;      /* round-robin: the input after the last grant */
    uint64_t last_dep; /* interconnect cycle the last flit leaves (0: none yet) */
} xoutput;

typedef struct xrec {
    uint64_t arrive; /* latest arrival so far, core cycles */
    uint32_t pending;
    bool closed;
} xrec;

/* The router's state is kept as bitsets so that a step touches only what
 * can act in it: `req` + out_req[o] the inputs whose head packet asks for
 * output o's virtual channel, out_free the outputs nobody holds, `active`
 * the inputs holding an output (sending their head packet), `feed` the
 * inputs with packets still to enter (the first of them in cycle
 * next_in[i]).  A loser of an allocation stays in its output's request set
 * (booksim: it asks again every step), so nothing about it changes until
 * the output is free again. */
struct wc_xbar {
    wc_xbar_head head; /* first: what wc_xbar_due reads */
    wc_xbar_params p;
    unsigned n_in, n_out;
    xinput *in;
    xoutput *out;
    uint64_t *next_in;  /* per input not busy: the cycle its head packet enters */
    uint64_t enter_min; /* the earliest of them (UINT64_MAX: none) */
    double icnt_cycle;
    uint32_t latency;
    uint64_t cycle; /* next interconnect cycle to simulate */
    uint32_t partial_x100;
    uint64_t pending;
    unsigned n_busy; /* busy inputs: the router holds packets when > 0 */
    xrec *recs;
    /* free_ids[0 .. nfree) are the free record ids; the records completed
     * since the last wc_xbar_done follow them, free_ids[nfree .. nfree +
     * ndone) (their cycles in done_t), so handing them over frees them
     * without a copy, in the order a copy would have freed them */
    uint32_t nrecs, caprecs, *free_ids, nfree;
    uint64_t *done_t;
    size_t ndone;
    double late_eject; /* the last eject late_of saw, and what it gave */
    uint32_t late_v;
    unsigned in_words, out_words; /* 64-bit words of a set of inputs / outputs */
    uint64_t *req;                /* n_out sets of inputs, in_words each */
    uint64_t *out_req;            /* outputs with a request */
    uint64_t *out_free;           /* outputs nobody holds */
    uint64_t *active;             /* inputs holding an output */
    uint64_t *feed;               /* inputs not busy whose head is still to enter */
    uint64_t *snap;               /* scratch: `active` at the start of a step */
    wc_lxbar *local;              /* -icnt_model local: its router moves the packets,
                                   * this file keeps the request records */
};

/* ---- -icnt_model ------------------------------------------------------- */

/* internal_speedup and vc_buf_size of the booksim files of GPGPU-Sim 4.x's
 * tested configurations up to Turing (config_fermi_islip.icnt,
 * config_pascal_islip.icnt, ...; the Volta and Ampere ones buffer 256) */
const wc_param_desc wc_xbar_islip_params[] = {
    {.key = "speedup",
     .type = WC_PARAM_DOUBLE,
     .fdef = 2,
     .fmin = 0.01,
     .fmax = 64,
     .alias = "internal_speedup",
     .help = "router steps per interconnect cycle (booksim "
             "internal_speedup; hundredths)"},
    {.key = "buf",
     .def = 64,
     .min = 1,
     .max = 65536,
     .unit = "flits",
     .alias = "vc_buf_size",
     .help = "flits an output may hold towards its SM (booksim vc_buf_size)"},
    {0},
};

int wc_xbar_parse(const char *spec, uint32_t network_mode, bool *is_xbar, wc_xbar_params *p,
                  wc_err *err)
{
    wc_param_values v;
    wc_param_parse(&v, wc_xbar_islip_params, "islip", "", NULL); /* the defaults */
    *is_xbar = false;
    memset(p, 0, sizeof *p);
    p->kind = WC_XBAR_ISLIP;
    if (strcmp(spec, "auto") == 0) {
        *is_xbar = network_mode == 1 || network_mode == 2;
        if (network_mode == 2) p->kind = WC_XBAR_LOCAL;
    } else if (strcmp(spec, "local") == 0) {
        *is_xbar = true;
        p->kind = WC_XBAR_LOCAL;
    } else if (spec[0] && strcmp(spec, "ports") != 0) {
        if (strncmp(spec, "islip", 5) != 0 || (spec[5] && spec[5] != ':'))
            return wc_errf(err,
                           "%s: unknown interconnect model (auto, ports, islip, local; local "
                           "takes no parameters: its -icnt_* options set it)",
                           spec);
        *is_xbar = true;
        if (wc_param_parse(&v, wc_xbar_islip_params, "islip", spec[5] ? spec + 6 : "", err) < 0)
            return -1;
    }
    p->speedup_x100 = (uint32_t)(wc_param_d(&v, "speedup") * 100 + 0.5);
    p->out_buf = (uint32_t)wc_param_u(&v, "buf");
    return 0;
}

/* ---- setup --------------------------------------------------------------- */

static inline void bit_set(uint64_t *s, unsigned i)
{
    s[i >> 6] |= 1ull << (i & 63);
}

static inline void bit_clear(uint64_t *s, unsigned i)
{
    s[i >> 6] &= ~(1ull << (i & 63));
}

static void local_arrive(void *ctx, uint32_t rec, uint64_t t);

wc_xbar *wc_xbar_new(unsigned n_in, unsigned n_out, const wc_xbar_params *p, double icnt_cycle,
                     uint32_t latency, wc_err *err)
{
    wc_xbar *x = calloc(1, sizeof *x);
    if (!x) goto oom;
    x->p = *p;
    x->n_in = n_in;
    x->n_out = n_out;
    x->icnt_cycle = icnt_cycle;
    x->latency = latency;
    x->in = calloc(n_in, sizeof *x->in);
    x->out = calloc(n_out, sizeof *x->out);
    x->next_in = malloc((n_in ? n_in : 1) * sizeof *x->next_in);
    x->in_words = (n_in + 63) / 64;
    x->out_words = (n_out + 63) / 64;
    x->req = calloc((size_t)n_out * x->in_words, sizeof *x->req);
    x->out_req = calloc(x->out_words, sizeof *x->out_req);
    x->out_free = calloc(x->out_words, sizeof *x->out_free);
    x->active = calloc(x->in_words, sizeof *x->active);
    x->feed = calloc(x->in_words, sizeof *x->feed);
    x->snap = calloc(x->in_words, sizeof *x->snap);
    if (!x->in || !x->out || !x->next_in || !x->req || !x->out_req || !x->out_free || !x->active ||
        !x->feed || !x->snap)
        goto oom;
    for (unsigned o = 0; o < n_out; o++) bit_set(x->out_free, o);
    for (unsigned i = 0; i < n_in; i++) x->next_in[i] = UINT64_MAX;
    x->enter_min = UINT64_MAX;
    x->late_eject = -1; /* late_of's answer for -1 (no whole arrival) */
    x->late_v = UINT32_MAX;
    x->head.due = p->kind == WC_XBAR_LOCAL ? 0 : WC_NEVER;
    if (p->kind == WC_XBAR_LOCAL && !(x->local = wc_lxbar_new(n_in, n_out, &p->local, icnt_cycle,
                                                              latency, local_arrive, x, err))) {
        wc_xbar_free(x);
        return NULL;
    }
    return x;
oom:
    wc_xbar_free(x);
    wc_errf(err, "out of memory (interconnect)");
    return NULL;
}

void wc_xbar_free(wc_xbar *x)
{
    if (!x) return;
    for (unsigned i = 0; x->in && i < x->n_in; i++) free(x->in[i].q);
    free(x->in);
    free(x->out);
    free(x->next_in);
    free(x->req);
    free(x->out_req);
    free(x->out_free);
    free(x->active);
    free(x->feed);
    free(x->snap);
    free(x->recs);
    free(x->free_ids);
    free(x->done_t);
    wc_lxbar_free(x->local);
    free(x);
}

/* ---- request records ---------------------------------------------------- */

uint32_t wc_xbar_open(wc_xbar *x)
{
    uint32_t id;
    if (x->nfree) {
        id = x->free_ids[--x->nfree];
    } else {
        if (x->nrecs == x->caprecs) {
            uint32_t cap = x->caprecs ? x->caprecs * 2 : 256;
            xrec *r = realloc(x->recs, cap * sizeof *r);
            if (!r) return WC_XBAR_NONE;
            x->recs = r;
            uint32_t *f = realloc(x->free_ids, cap * sizeof *f);
            if (!f) return WC_XBAR_NONE;
            x->free_ids = f;
            /* the done list never holds more than the records in use, so it
             * grows with them and completing a record cannot fail */
            uint64_t *b = realloc(x->done_t, cap * sizeof *b);
            if (!b) return WC_XBAR_NONE;
            x->done_t = b;
            x->caprecs = cap;
        }
        id = x->nrecs++;
    }
    x->recs[id] = (xrec){0};
    return id;
}

static void push_done(wc_xbar *x, uint32_t rec, uint64_t t)
{
    x->free_ids[x->nfree + x->ndone] = rec;
    x->done_t[x->ndone++] = t;
}

/* A packet of the local crossbar for record rec reached its SM at t. */
static void local_arrive(void *ctx, uint32_t rec, uint64_t t)
{
    wc_xbar *x = ctx;
    if (rec == WC_XBAR_NONE) return;
    xrec *r = &x->recs[rec];
    if (t > r->arrive) r->arrive = t;
    if (--r->pending == 0 && r->closed) push_done(x, rec, r->arrive);
}

void wc_xbar_close(wc_xbar *x, uint32_t rec)
{
    xrec *r = &x->recs[rec];
    r->closed = true;
    if (r->pending == 0) {
        push_done(x, rec, r->arrive);
        x->head.due = 0; /* it waits to be handed over */
    }
}

void wc_xbar_cancel(wc_xbar *x, uint32_t rec)
{
    if (x->ndone) /* the done list moves up one (rare: a write while records are done) */
        memmove(&x->free_ids[x->nfree + 1], &x->free_ids[x->nfree], x->ndone * sizeof *x->free_ids);
    x->free_ids[x->nfree++] = rec;
}

/* ---- the input queues -------------------------------------------------- */

static inline xpkt *q_at(xinput *in, uint32_t k)
{
    return &in->q[(in->head + k) & (in->cap - 1)];
}

/* q_at(in, 0): `head` is always below `cap`. */
static inline xpkt *q_head(xinput *in)
{
    return &in->q[in->head];
}

/* Room for `extra` more entries (the growth out of line). */
static __attribute__((noinline)) int q_grow(xinput *in, uint32_t extra)
{
    void *q = in->q;
    if (wc_ring_reserve(&q, &in->head, &in->cap, in->len, extra, sizeof(xpkt)) < 0) return -1;
    in->q = q;
    return 0;
}

static inline int q_reserve(xinput *in, uint32_t extra)
{
    return in->len + extra <= in->cap ? 0 : q_grow(in, extra);
}

/* The head entry of in, new or after a head that left, enters when it is
 * ready or after the last flit of those before it, whichever is later. */
static inline void head_enters(xinput *in)
{
    uint64_t ready = q_head(in)->ready;
    in->enter = ready > in->end ? ready : in->end;
}

/* Whether packet p may join run e as its next packet. */
static inline bool joins_run(const xpkt *e, const xpkt *p)
{
    return e->flits == 1 && p->flits == 1 && e->out == p->out && e->rec == p->rec &&
           e->eject == p->eject && e->ready + e->count == p->ready && e->count < UINT16_MAX;
}

/* Opens a gap at entry k (moving the ones after it back). */
static void q_open(xinput *in, uint32_t k)
{
    for (uint32_t j = in->len++; j > k; j--) *q_at(in, j) = *q_at(in, j - 1);
}

/* Closes the gap at entry k (moving the ones after it forward). */
static void q_close(xinput *in, uint32_t k)
{
    for (uint32_t j = k + 1; j < in->len; j++) *q_at(in, j - 1) = *q_at(in, j);
    in->len--;
}

/* Puts p among the waiting packets after every one ready no later: the
 * order booksim's L2-to-interconnect queue takes them in.  Packets already
 * in the router entered in an earlier cycle, so before p (wc_xbar_send).
 * Returns the entry p is in.  Inlined into wc_xbar_send_n, its one caller. */
static inline __attribute__((always_inline)) uint32_t q_insert(xinput *in, const xpkt *p)
{
    /* p goes before entry k: the scan from the back moves each entry it
     * passes back by one, so that it ends with a gap at k.  A packet that
     * has entered was ready before the cycle simulated next, so before p:
     * the scan stops at it */
    uint32_t k = in->len++;
    for (; k > 0; k--) {
        xpkt *e = q_at(in, k - 1);
        if (e->ready <= p->ready) break;
        *q_at(in, k) = *e;
    }
    xpkt *prev = k ? q_at(in, k - 1) : NULL;
    if (prev && prev->ready + prev->count - 1 > p->ready) {
        /* inside run prev: its packets ready after p go after p (none of
         * them has entered: they are ready after the cycle simulated) */
        uint32_t s = (uint32_t)(p->ready - prev->ready + 1);
        q_open(in, k); /* a second gap, for them */
        prev = q_at(in, k - 1);
        xpkt *rest = q_at(in, k + 1);
        *rest = *prev;
        rest->count = (uint16_t)(prev->count - s);
        rest->ready = prev->ready + s;
        /* of run prev, fewer than s have entered (they entered before the
         * cycle simulated next, which p's ready is not before) */
        prev->count = (uint16_t)s;
        *q_at(in, k) = *p;
        return k;
    }
    if (prev && joins_run(prev, p)) {
        prev->count++; /* p enters after the run's last, not before now */
        q_close(in, k);
        return k - 1;
    }
    *q_at(in, k) = *p;
    return k;
}

/* The interconnect cycle that starts at or after core cycle t. */
static uint64_t net_cycle_of(const wc_xbar *x, uint64_t t)
{
    if (x->icnt_cycle == 1.0) return t;
    double n = (double)t / x->icnt_cycle;
    uint64_t c = (uint64_t)n;
    return c + ((double)c < n);
}

static inline uint64_t core_time_of(const wc_xbar *x, uint64_t n)
{
    if (x->icnt_cycle == 1.0) return n;
    double t = (double)n * x->icnt_cycle;
    uint64_t c = (uint64_t)t;
    return c + ((double)c < t);
}

/* The interconnect cycle a packet ready at core cycle `ready` may enter:
 * the engine never sends into a cycle already simulated (gpu.c, run_xbar);
 * a caller that does gets the first cycle not yet simulated. */
static inline uint64_t ready_cycle(const wc_xbar *x, uint64_t ready)
{
    uint64_t r = net_cycle_of(x, ready);
    return r < x->cycle ? x->cycle : r;
}

/* xpkt.late for a packet taking `eject` core cycles to take in: with one
 * clock for both, (double)dep + latency + eject is a whole number, computed
 * exactly (below 2^53), when eject is one. */
static uint32_t late_compute(const wc_xbar *x, double eject)
{
    if (x->icnt_cycle != 1.0 || !(eject >= 0 && eject < 1e9)) return UINT32_MAX;
    uint32_t e = (uint32_t)eject;
    if ((double)e != eject || (uint64_t)e + x->latency >= UINT32_MAX) return UINT32_MAX;
    return e + x->latency;
}

/* late_compute, remembered for the last eject asked about: the packets of
 * a run nearly all take the same (one packet size per configuration). */
static inline uint32_t late_of(wc_xbar *x, double eject)
{
    if (eject != x->late_eject) {
        x->late_v = late_compute(x, eject);
        x->late_eject = eject;
    }
    return x->late_v;
}

/* Input i, with nothing in the router, waits for its head packet to enter. */
static inline void wait_entry(wc_xbar *x, unsigned i)
{
    uint64_t e = x->in[i].enter;
    x->next_in[i] = e;
    if (e < x->enter_min) x->enter_min = e;
    bit_set(x->feed, i);
}

/* wc_xbar_due after a send that may have queued a packet entering before
 * every other (the crossbar's next cycle, wc_xbar_next, can only come
 * earlier).  While an input is busy the next cycle is the one simulated
 * next, which no send moves. */
static void lower_due(wc_xbar *x)
{
    uint64_t c = x->enter_min > x->cycle ? x->enter_min : x->cycle;
    uint64_t d = core_time_of(x, c) + x->latency;
    if (!x->n_busy && d < x->head.due) x->head.due = d;
}

/* Whether one-flit packets 1..n-1 of a send, packet 0 (ready in cycle r0)
 * having gone last into entry k, all join that entry's run, given that
 * they are ready in r0 + 1, r0 + 2, ...: they are before the next entry,
 * and the run has room. */
static inline bool run_room(xinput *q, uint32_t k, unsigned n, uint64_t r0)
{
    const xpkt *e = q_at(q, k);
    return e->flits == 1 && e->count + (n - 1) <= UINT16_MAX &&
           (k + 1 == q->len || q_at(q, k + 1)->ready > r0 + (n - 1));
}

/* Whether packets 1..n-1 of wc_xbar_send_n are ready in r0 + 1, r0 + 2, ... */
static inline bool ready_in_row(const wc_xbar *x, const uint64_t *ready, unsigned n, uint64_t r0)
{
    for (unsigned j = 1; j < n; j++)
        if (ready_cycle(x, ready[j]) != r0 + j) return false;
    return true;
}

/* The body of wc_xbar_send_n and wc_xbar_send_seq: n packets, packet j
 * ready in interconnect cycle ready_cycle(ready[j]), or, with ready NULL,
 * in r0 + j (r0 not before the cycle simulated next).  What n single sends
 * would do: the packets that join the run the last one went into extend it
 * at once. */
static inline __attribute__((always_inline)) int
queue_packets(wc_xbar *x, unsigned in, unsigned out, const uint64_t *ready, uint64_t r0, unsigned n,
              uint32_t flits, double eject, uint32_t rec)
{
    xinput *q = &x->in[in];
    if (q_reserve(q, 2 * n) < 0) return -1; /* each may split a run and go between */
    xpkt p = {.ready = ready ? ready_cycle(x, ready[0]) : r0,
              .eject = eject,
              .rec = rec,
              .out = (uint16_t)out,
              .flits = (uint16_t)(flits ? flits : 1),
              .count = 1,
              .late = late_of(x, eject)};
    /* A packet that left the input before p had all its flits in by the
     * last simulated cycle, so only those still queued delay p. */
    uint32_t k = q_insert(q, &p);
    unsigned j = 1;
    if (n > 1 && p.flits == 1 && (!ready || ready_in_row(x, ready, n, p.ready)) &&
        run_room(q, k, n, p.ready)) {
        q_at(q, k)->count += (uint16_t)(n - 1);
        j = n;
    }
    for (; j < n; j++) {
        p.ready = ready ? ready_cycle(x, ready[j]) : r0 + j;
        xpkt *e = q_at(q, k);
        /* the next of the run the last packet went into, when it comes
         * before every later entry: what q_insert would find, found at
         * once (the last packet has not entered, so neither has this one) */
        if (p.flits == 1 && e->flits == 1 && e->ready + e->count == p.ready &&
            e->count < UINT16_MAX && (k + 1 == q->len || q_at(q, k + 1)->ready > p.ready)) {
            e->count++;
        } else {
            k = q_insert(q, &p);
        }
    }
    if (!q->busy) { /* the head has not entered: it may be one of these */
        head_enters(q);
        wait_entry(x, in);
        lower_due(x);
    }
    if (rec != WC_XBAR_NONE) x->recs[rec].pending += n;
    x->pending += n;
    return 0;
}

int wc_xbar_send_n(wc_xbar *x, unsigned in, unsigned out, const uint64_t *ready, unsigned n,
                   uint32_t flits, double eject, uint32_t rec)
{
    if (!n) return 0;
    if (x->local) {
        if (wc_lxbar_send_n(x->local, in, out, ready, n, eject, rec) < 0) return -1;
        if (rec != WC_XBAR_NONE) x->recs[rec].pending += n;
        return 0;
    }
    return queue_packets(x, in, out, ready, 0, n, flits, eject, rec);
}

/* queue_packets for n one-flit packets ready in r0, r0 + 1, ..., when
 * they go behind every entry of a queue that has one (the last is ready no
 * later than r0, its run included) and do not join the last entry's run:
 * q_insert stops at once and the packets extend the entry it made (what
 * run_room finds when it is the last), so they are one new entry at the
 * back.  The usual send (a sectored L2 answers in order); false for any
 * other, which queue_packets takes. */
static inline bool append_run(wc_xbar *x, xinput *q, unsigned out, uint64_t r0, unsigned n,
                              double eject, uint32_t rec)
{
    if (q->len == 0 || q->len == q->cap || n > UINT16_MAX) return false;
    xpkt *last = q_at(q, q->len - 1);
    uint64_t after = last->ready + last->count; /* the cycle after the last one's */
    if (after > r0 + 1) return false;           /* inside it, or before */
    if (after == r0 && last->flits == 1 && last->out == out && last->rec == rec &&
        last->eject == eject && last->count < UINT16_MAX)
        return false; /* it joins the run (joins_run) */
    *q_at(q, q->len++) = (xpkt){.ready = r0,
                                .eject = eject,
                                .rec = rec,
                                .late = late_of(x, eject),
                                .out = (uint16_t)out,
                                .flits = 1,
                                .count = (uint16_t)n};
    /* a queue whose head has not entered keeps it (and its entry cycle) */
    if (rec != WC_XBAR_NONE) x->recs[rec].pending += n;
    x->pending += n;
    return true;
}

/* queue_packets with ready NULL, out of line: wc_xbar_send_seq's usual
 * send (append_run) then saves no registers for it. */
static __attribute__((noinline)) int queue_seq(wc_xbar *x, unsigned in, unsigned out, uint64_t r0,
                                               unsigned n, uint32_t flits, double eject,
                                               uint32_t rec)
{
    return queue_packets(x, in, out, NULL, r0, n, flits, eject, rec);
}

/* wc_xbar_send_seq when the ready cycles need converting or the packets
 * are not one cycle apart: through wc_xbar_send_n, 64 at a time. */
static __attribute__((noinline)) int send_seq_any(wc_xbar *x, unsigned in, unsigned out,
                                                  uint64_t ready, uint32_t step, unsigned n,
                                                  uint32_t flits, double eject, uint32_t rec)
{
    uint64_t at[64];
    for (unsigned done = 0; done < n;) {
        unsigned m = n - done < 64 ? n - done : 64;
        for (unsigned k = 0; k < m; k++) at[k] = ready + (uint64_t)(done + k) * step;
        if (wc_xbar_send_n(x, in, out, at, m, flits, eject, rec) < 0) return -1;
        done += m;
    }
    return 0;
}

int wc_xbar_send_seq(wc_xbar *x, unsigned in, unsigned out, uint64_t ready, uint32_t step,
                     unsigned n, uint32_t flits, double eject, uint32_t rec)
{
    /* one clock, one cycle apart, none in a simulated cycle: the
     * interconnect cycles are the core cycles themselves */
    if (step == 1 && x->icnt_cycle == 1.0 && ready >= x->cycle && !x->local && n) {
        if (flits <= 1 && append_run(x, &x->in[in], out, ready, n, eject, rec)) return 0;
        return queue_seq(x, in, out, ready, n, flits, eject, rec);
    }
    return send_seq_any(x, in, out, ready, step, n, flits, eject, rec);
}

int wc_xbar_send(wc_xbar *x, unsigned in, unsigned out, uint64_t ready, uint32_t flits,
                 double eject, uint32_t rec)
{
    return wc_xbar_send_n(x, in, out, &ready, 1, flits, eject, rec);
}

/* ---- one interconnect cycle --------------------------------------------- */

/* The packet's last flit leaves the router in interconnect cycle `dep`. */
static inline void deliver(wc_xbar *x, const xpkt *p, uint64_t dep)
{
    x->pending--;
    if (p->rec == WC_XBAR_NONE) return;
    uint64_t t;
    if (p->late != UINT32_MAX) { /* what the doubles below give, exactly */
        t = dep + p->late;
    } else {
        double at = (double)core_time_of(x, dep) + x->latency + p->eject;
        t = (uint64_t)at;
        t += (double)t < at;
    }
    xrec *r = &x->recs[p->rec];
    if (t > r->arrive) r->arrive = t;
    if (--r->pending == 0 && r->closed) push_done(x, p->rec, r->arrive);
}

/* deliver for a packet of a run with more packets to come: the record
 * cannot complete (the run's other packets count in its pending), and the
 * run's last packet reaches the same SM later (the same output drains it
 * later, with the same latency and eject), so the record's latest arrival
 * is left to it. */
static inline void deliver_in_run(wc_xbar *x, const xpkt *p)
{
    x->pending--;
    if (p->rec != WC_XBAR_NONE) x->recs[p->rec].pending--;
}

/* The router's steps below take the number of 64-bit words in a set of
 * inputs (iw) and of outputs (ow) as arguments and are inlined into two
 * copies of the cycle loop: one for at most 64 of each (every GPGPU-Sim
 * file so far), where the set loops fold away, and one for any size. */
#define XBAR_INLINE static inline __attribute__((always_inline))

/* bit_set / bit_clear in a set of `words` words: with one word the index
 * is below 64, so the word is s[0]. */
XBAR_INLINE void set_add(uint64_t *s, unsigned i, unsigned words)
{
    if (words == 1)
        s[0] |= 1ull << (i & 63);
    else
        bit_set(s, i);
}

XBAR_INLINE void set_del(uint64_t *s, unsigned i, unsigned words)
{
    if (words == 1)
        s[0] &= ~(1ull << (i & 63));
    else
        bit_clear(s, i);
}

XBAR_INLINE bool set_empty_w(const uint64_t *s, unsigned words)
{
    for (unsigned w = 0; w < words; w++)
        if (s[w]) return false;
    return true;
}

/* Input i's head packet asks for its output's virtual channel from the
 * next allocation on. */
XBAR_INLINE void ask_for(wc_xbar *x, unsigned i, unsigned o, unsigned iw, unsigned ow)
{
    set_add(&x->req[(size_t)o * iw], i, iw);
    set_add(x->out_req, o, ow);
}

XBAR_INLINE void ask(wc_xbar *x, unsigned i, unsigned iw, unsigned ow)
{
    ask_for(x, i, q_head(&x->in[i])->out, iw, ow);
}

/* Input i's head packet enters in cycle cyc (next_in[i] == cyc) while the
 * input has nothing in the router: it asks from the cycle's first step on.
 * Its other flits, and the packets behind it, follow without the router's
 * help (xinput). */
XBAR_INLINE void enter(wc_xbar *x, unsigned i, unsigned iw, unsigned ow)
{
    x->in[i].busy = true;
    x->n_busy++;
    x->next_in[i] = UINT64_MAX;
    set_del(x->feed, i, iw);
    ask(x, i, iw, ow);
}

/* The first input in set s (words words) at or after `from`, going round;
 * s is not empty. */
XBAR_INLINE unsigned first_from(const uint64_t *s, unsigned words, unsigned from)
{
    if (words == 1) { /* from < 64 */
        uint64_t m = s[0] & (~0ull << from);
        return (unsigned)__builtin_ctzll(m ? m : s[0]);
    }
    unsigned w = from >> 6;
    uint64_t m = s[w] & (~0ull << (from & 63));
    if (m) return w * 64 + (unsigned)__builtin_ctzll(m);
    for (unsigned k = 0; k < words; k++) {
        w = w + 1 == words ? 0 : w + 1;
        if (s[w]) return w * 64 + (unsigned)__builtin_ctzll(s[w]);
    }
    return 0; /* not reached: s holds a bit, met by the wrap at the latest */
}

/* Output o, free and asked for, grants the first asker from its
 * round-robin pointer on (one iSLIP iteration; with one request per input,
 * every grant is accepted) and moves the pointer past it.  The winner still
 * asks: the caller withdraws the request (withdraw) when it sees fit. */
XBAR_INLINE unsigned grant(wc_xbar *x, unsigned o, unsigned iw)
{
    xoutput *out = &x->out[o];
    unsigned i = first_from(&x->req[(size_t)o * iw], iw, out->ptr);
    /* with one word, a pointer of n_in (< 64) finds what 0 does: no input
     * at or after it, so the search wraps */
    out->ptr = iw == 1 ? (i + 1) & 63 : i + 1 == x->n_in ? 0 : i + 1;
    return i;
}

/* Input i no longer asks for output o. */
XBAR_INLINE void withdraw(wc_xbar *x, unsigned i, unsigned o, unsigned iw, unsigned ow)
{
    uint64_t *r = &x->req[(size_t)o * iw];
    set_del(r, i, iw);
    if (set_empty_w(r, iw)) set_del(x->out_req, o, ow);
}

/* Virtual-channel allocation in a step: each free output with askers grants
 * one (grant).  The winner holds the output and sends from the next step. */
XBAR_INLINE void allocate(wc_xbar *x, unsigned iw, unsigned ow)
{
    for (unsigned w = 0; w < ow; w++)
        for (uint64_t m = x->out_req[w] & x->out_free[w]; m; m &= m - 1) {
            unsigned o = w * 64 + (unsigned)__builtin_ctzll(m);
            unsigned i = grant(x, o, iw);
            withdraw(x, i, o, iw, ow);
            set_del(x->out_free, o, ow);
            set_add(x->active, i, iw);
        }
}

/* Input i's head packet has left in cycle cyc: the next one (of its run,
 * or the next entry) becomes the head and asks, if it is in. */
XBAR_INLINE void next_packet(wc_xbar *x, unsigned i, uint64_t cyc, unsigned iw, unsigned ow)
{
    xinput *in = &x->in[i];
    xpkt *p = q_head(in);
    if (p->count > 1) { /* the run's next packet is the head */
        p->count--;
        p->ready++;
        /* it enters a cycle after the one that left; if that is to come,
         * `end` says so to a packet queued before it (head_enters) */
        if (++in->enter > cyc) {
            in->end = in->enter;
        } else { /* it is in: it asks for the run's output */
            ask_for(x, i, p->out, iw, ow);
            return;
        }
    } else {
        in->end = in->enter + p->flits; /* what the next packet's entry waits for */
        in->head = (in->head + 1) & (in->cap - 1);
        if (--in->len == 0) {
            in->busy = false;
            x->n_busy--;
            return;
        }
        head_enters(in);
        if (in->enter <= cyc) { /* the next packet is in: it asks */
            ask(x, i, iw, ow);
            return;
        }
    }
    in->busy = false;
    x->n_busy--;
    wait_entry(x, i);
}

/* Input i, holding its head packet's output since an earlier step, sends a
 * flit through the switch in cycle cyc if the flit is in and the output has
 * room.  The tail frees the output, and the input's next packet asks, from
 * the next step on. */
XBAR_INLINE void send_flit(wc_xbar *x, unsigned i, uint64_t cyc, unsigned iw, unsigned ow)
{
    xinput *in = &x->in[i];
    xpkt *p = q_head(in);
    xoutput *o = &x->out[p->out];
    if (in->enter + in->sent > cyc) return;                             /* not in yet */
    if (o->last_dep > cyc && o->last_dep - cyc >= x->p.out_buf) return; /* no credit */
    o->last_dep = (o->last_dep > cyc ? o->last_dep : cyc) + 1;
    if (p->flits > 1) { /* a one-flit packet needs no count */
        if (++in->sent < p->flits) return;
        in->sent = 0;
    }
    if (p->count > 1)
        deliver_in_run(x, p);
    else
        deliver(x, p, o->last_dep);
    set_add(x->out_free, p->out, ow);
    set_del(x->active, i, iw);
    next_packet(x, i, cyc, iw, ow);
}

/* The sends of a step: every input in `snap`, the ones that held their
 * output before the step. */
XBAR_INLINE void send_flits(wc_xbar *x, const uint64_t *snap, uint64_t cyc, unsigned iw,
                            unsigned ow)
{
    for (unsigned w = 0; w < iw; w++)
        for (uint64_t m = snap[w]; m; m &= m - 1)
            send_flit(x, w * 64 + (unsigned)__builtin_ctzll(m), cyc, iw, ow);
}

/* One router step: the allocation, then the sends of the inputs that held
 * their output before it (a grant counts from the next step).  Either
 * phase's changes count from the next step, as in booksim, where a step's
 * requests are those of the state it began with. */
XBAR_INLINE void router_step(wc_xbar *x, uint64_t cyc, unsigned iw, unsigned ow)
{
    uint64_t one[1];
    uint64_t *snap = iw == 1 ? one : x->snap;
    for (unsigned w = 0; w < iw; w++) snap[w] = x->active[w];
    allocate(x, iw, ow);
    send_flits(x, snap, cyc, iw, ow);
}

/* Two router steps when no input holds an output as they begin (with
 * one-flit packets, nearly always): the first only grants, since nobody
 * was there to send, and the second's allocation finds nothing, since the
 * first granted every free output that was asked for and requests made in
 * the second count from the step after it; so the second only sends, from
 * the inputs the first granted. */
XBAR_INLINE void two_steps_from_idle(wc_xbar *x, uint64_t cyc, unsigned iw, unsigned ow)
{
    /* The grants, as allocate makes them, but without marking the output
     * held and the input sending (a packet that leaves in the second step
     * would unmark both there, so only one that stays is marked), and
     * without withdrawing the winner's request: nothing reads the requests
     * before the second step's sends, and a run's next packet that is in
     * asks for the same output again, so the request is withdrawn only when
     * the input's head changes output or leaves the router. */
    uint64_t one[1];
    uint64_t *g = iw == 1 ? one : x->snap;
    for (unsigned w = 0; w < iw; w++) g[w] = 0;
    for (unsigned w = 0; w < ow; w++)
        for (uint64_t m = x->out_req[w] & x->out_free[w]; m; m &= m - 1)
            set_add(g, grant(x, w * 64 + (unsigned)__builtin_ctzll(m), iw), iw);
    /* The second step's sends, in input order as send_flits makes them. */
    for (unsigned w = 0; w < iw; w++)
        for (uint64_t m = g[w]; m; m &= m - 1) {
            unsigned i = w * 64 + (unsigned)__builtin_ctzll(m);
            xinput *in = &x->in[i];
            xpkt *p = q_head(in);
            unsigned out = p->out;
            xoutput *o = &x->out[out];
            if (p->flits != 1) { /* it holds the output: send_flit as after allocate */
                withdraw(x, i, out, iw, ow);
                set_del(x->out_free, out, ow);
                set_add(x->active, i, iw);
                send_flit(x, i, cyc, iw, ow);
                continue;
            }
            /* A one-flit packet leaves: it asked, so it is in, and its
             * output has credit, since nothing went through it yet in this
             * cycle and a send in an earlier cycle c left last_dep at most
             * c + out_buf (send_flit's check), below cyc + out_buf. */
            o->last_dep = (o->last_dep > cyc ? o->last_dep : cyc) + 1;
            if (p->count > 1 && in->enter < cyc) {
                /* the run's next packet entered a cycle after this one, by
                 * now: it is the head and asks for the same output
                 * (next_packet without the request's round trip) */
                deliver_in_run(x, p);
                p->count--;
                p->ready++;
                in->enter++;
                continue;
            }
            if (p->count > 1)
                deliver_in_run(x, p);
            else
                deliver(x, p, o->last_dep);
            withdraw(x, i, out, iw, ow);
            next_packet(x, i, cyc, iw, ow);
        }
}

XBAR_INLINE void net_cycle(wc_xbar *x, uint64_t cyc, unsigned iw, unsigned ow)
{
    if (cyc >= x->enter_min) {
        uint64_t min = UINT64_MAX;
        for (unsigned w = 0; w < iw; w++)
            for (uint64_t m = x->feed[w]; m; m &= m - 1) {
                unsigned i = w * 64 + (unsigned)__builtin_ctzll(m);
                if (x->next_in[i] <= cyc) enter(x, i, iw, ow);
                if (x->next_in[i] < min) min = x->next_in[i];
            }
        x->enter_min = min;
    }
    if (x->p.speedup_x100 == 200) { /* the files' speedup: two steps, nothing carried */
        if (set_empty_w(x->active, iw)) {
            two_steps_from_idle(x, cyc, iw, ow);
            return;
        }
        router_step(x, cyc, iw, ow);
        router_step(x, cyc, iw, ow);
        return;
    }
    x->partial_x100 += x->p.speedup_x100;
    while (x->partial_x100 >= 100) {
        router_step(x, cyc, iw, ow);
        x->partial_x100 -= 100;
    }
}

/* The first cycle a waiting packet enters. */
static inline uint64_t next_ready(const wc_xbar *x)
{
    return x->enter_min;
}

/* The last interconnect cycle that starts at or before core cycle now. */
static inline uint64_t last_cycle_by(const wc_xbar *x, uint64_t now)
{
    if (x->icnt_cycle == 1.0) return now;
    uint64_t n = (uint64_t)((double)now / x->icnt_cycle);
    while (core_time_of(x, n + 1) <= now) n++;
    while (n && core_time_of(x, n) > now) n--;
    return n;
}

/* Simulates cycles x->cycle .. last: the body of wc_xbar_run. */
XBAR_INLINE void run_cycles(wc_xbar *x, uint64_t last, unsigned iw, unsigned ow)
{
    while (x->pending && x->cycle <= last) {
        /* Nothing inside: jump to the first cycle a packet enters, up to
         * last.  The router's steps are not counted across the jump (its
         * fractional speedup resumes where it stopped; test_xbar pins it).
         * With packets inside, every cycle moves something: a holder's
         * next flit is in or entering, and its output, which drains a flit
         * a cycle, always has a credit again by the next cycle. */
        if (!x->n_busy) {
            uint64_t r = next_ready(x);
            if (r > last) break;
            if (r > x->cycle) x->cycle = r;
        }
        net_cycle(x, x->cycle++, iw, ow);
    }
}

static void run_cycles_small(wc_xbar *x, uint64_t last)
{
    run_cycles(x, last, 1, 1);
}

static void run_cycles_any(wc_xbar *x, uint64_t last)
{
    run_cycles(x, last, x->in_words, x->out_words);
}

/* wc_xbar_run's body, inlined into wc_xbar_advance too. */
static inline __attribute__((always_inline)) void run_to(wc_xbar *x, uint64_t now)
{
    if (x->local) {
        wc_lxbar_run(x->local, now);
        return;
    }
    if (!x->pending) return;
    uint64_t last = last_cycle_by(x, now);
    if (x->in_words == 1 && x->out_words == 1)
        run_cycles_small(x, last);
    else
        run_cycles_any(x, last);
    /* Cycles up to now with nothing inside are over too; a packet sent
     * later is never ready before them (wc_xbar_send). */
}

/* wc_xbar_due from the crossbar's state: a packet leaving the router in a
 * cycle not yet simulated (at or after wc_xbar_next) reaches its SM at
 * least `latency` core cycles after that cycle begins. */
static void set_due(wc_xbar *x)
{
    if (x->local || x->ndone)
        x->head.due = 0;
    else
        x->head.due = x->pending ? wc_xbar_next(x) + x->latency : WC_NEVER;
}

void wc_xbar_run(wc_xbar *x, uint64_t now)
{
    run_to(x, now);
    set_due(x);
}

uint64_t wc_xbar_next(const wc_xbar *x)
{
    if (x->local) return wc_lxbar_next(x->local);
    if (!x->pending) return WC_NEVER;
    if (x->n_busy) return core_time_of(x, x->cycle);
    uint64_t r = next_ready(x);
    return core_time_of(x, r > x->cycle ? r : x->cycle);
}

size_t wc_xbar_done(wc_xbar *x, const uint32_t **recs, const uint64_t **times)
{
    size_t n = x->ndone;
    *recs = &x->free_ids[x->nfree];
    *times = x->done_t;
    x->nfree += (uint32_t)n; /* they are free: wc_xbar_open takes them last first */
    x->ndone = 0;
    set_due(x);
    return n;
}

size_t wc_xbar_advance(wc_xbar *x, uint64_t now, const uint32_t **recs, const uint64_t **times)
{
    run_to(x, now);
    size_t n = x->ndone;
    *recs = &x->free_ids[x->nfree];
    *times = x->done_t;
    x->nfree += (uint32_t)n; /* as wc_xbar_done */
    x->ndone = 0;
    set_due(x);
    return n;
}

uint64_t wc_xbar_pending(const wc_xbar *x)
{
    if (x->local) return wc_lxbar_pending(x->local);
    return x->pending;
}
