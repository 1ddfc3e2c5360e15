/*
 * xbar.c - the reply crossbar of -icnt_model islip (see xbar.h).
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

typedef struct xpkt {
    uint64_t ready; /* interconnect cycle from which it may enter its input */
    uint64_t seq;   /* arrival order among equal ready cycles */
    double eject;   /* core cycles its SM takes to take it in */
    uint32_t rec;   /* request record, or WC_XBAR_NONE */
    uint16_t out, flits;
    uint16_t arrived, sent; /* flits in the input FIFO / through the switch */
} xpkt;

enum { IN_IDLE, IN_VCA, IN_ACTIVE };

typedef struct xinput {
    xpkt *heap; /* replies not yet entering, by (ready, seq) */
    size_t nheap, capheap;
    xpkt *ring; /* the FIFO: packets with flits in the router */
    size_t head, n, capring;
    uint64_t elig; /* first step in which the head may act */
    int state;
} xinput;

typedef struct xoutput {
    int holder;         /* input holding the virtual channel, or -1 */
    uint32_t ptr;       /* round-robin: the input after the last grant */
    uint64_t free_step; /* first step in which the channel may be granted */
    uint64_t last_dep;  /* interconnect cycle the last flit leaves (0: none yet) */
    uint32_t best_d;    /* allocation scratch: round-robin distance of the best asker */
    int best;
} xoutput;

typedef struct xrec {
    uint64_t arrive; /* latest arrival so far, core cycles */
    uint32_t pending;
    bool closed;
} xrec;

struct wc_xbar {
    wc_xbar_params p;
    unsigned n_in, n_out;
    xinput *in;
    xoutput *out;
    double icnt_cycle;
    uint32_t latency;
    uint64_t cycle; /* next interconnect cycle to simulate */
    uint64_t step;  /* router steps so far */
    uint32_t partial_x100;
    uint64_t seq, pending, in_fifo;
    xrec *recs;
    uint32_t nrecs, caprecs, *free_ids, nfree;
    uint32_t *done_id;
    uint64_t *done_t;
    size_t ndone;
    unsigned *granted; /* scratch: outputs granted in a step */
    uint64_t *busy;    /* bitset: inputs holding or expecting packets */
    unsigned n_words;
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
    if (strcmp(spec, "auto") == 0) {
        *is_xbar = network_mode == 1;
    } else if (spec[0] && strcmp(spec, "ports") != 0) {
        if (strncmp(spec, "islip", 5) != 0 || (spec[5] && spec[5] != ':'))
            return wc_errf(err, "%s: unknown interconnect model (auto, ports, islip)", spec);
        *is_xbar = true;
        if (wc_param_parse(&v, wc_xbar_islip_params, "islip", spec[5] ? spec + 6 : "", err) < 0)
            return -1;
    }
    p->speedup_x100 = (uint32_t)(wc_param_d(&v, "speedup") * 100 + 0.5);
    p->out_buf = (uint32_t)wc_param_u(&v, "buf");
    return 0;
}

/* ---- setup --------------------------------------------------------------- */

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
    x->granted = calloc(n_out, sizeof *x->granted);
    x->n_words = (n_in + 63) / 64;
    x->busy = calloc(x->n_words, sizeof *x->busy);
    if (!x->in || !x->out || !x->granted || !x->busy) goto oom;
    for (unsigned o = 0; o < n_out; o++) x->out[o].holder = x->out[o].best = -1;
    return x;
oom:
    wc_xbar_free(x);
    wc_errf(err, "out of memory (interconnect)");
    return NULL;
}

void wc_xbar_free(wc_xbar *x)
{
    if (!x) return;
    for (unsigned i = 0; x->in && i < x->n_in; i++) {
        free(x->in[i].heap);
        free(x->in[i].ring);
    }
    free(x->in);
    free(x->out);
    free(x->granted);
    free(x->busy);
    free(x->recs);
    free(x->free_ids);
    free(x->done_id);
    free(x->done_t);
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
            uint32_t *a = realloc(x->done_id, cap * sizeof *a);
            if (!a) return WC_XBAR_NONE;
            x->done_id = a;
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
    x->done_id[x->ndone] = rec;
    x->done_t[x->ndone++] = t;
}

void wc_xbar_close(wc_xbar *x, uint32_t rec)
{
    xrec *r = &x->recs[rec];
    r->closed = true;
    if (r->pending == 0) push_done(x, rec, r->arrive);
}

void wc_xbar_cancel(wc_xbar *x, uint32_t rec)
{
    x->free_ids[x->nfree++] = rec;
}

/* ---- the input queues -------------------------------------------------- */

static bool pkt_before(const xpkt *a, const xpkt *b)
{
    return a->ready < b->ready || (a->ready == b->ready && a->seq < b->seq);
}

static int heap_push(xinput *in, xpkt p)
{
    if (in->nheap == in->capheap) {
        size_t cap = in->capheap ? in->capheap * 2 : 64;
        xpkt *h = realloc(in->heap, cap * sizeof *h);
        if (!h) return -1;
        in->heap = h;
        in->capheap = cap;
    }
    size_t i = in->nheap++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!pkt_before(&p, &in->heap[parent])) break;
        in->heap[i] = in->heap[parent];
        i = parent;
    }
    in->heap[i] = p;
    return 0;
}

static xpkt heap_pop(xinput *in)
{
    xpkt top = in->heap[0], last = in->heap[--in->nheap];
    size_t n = in->nheap, i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && pkt_before(&in->heap[c + 1], &in->heap[c])) c++;
        if (!pkt_before(&in->heap[c], &last)) break;
        in->heap[i] = in->heap[c];
        i = c;
    }
    if (n) in->heap[i] = last;
    return top;
}

/* Grows the FIFO to hold every packet the input has (wc_xbar_send calls
 * it), so a packet entering never needs memory. */
static int ring_reserve(xinput *in)
{
    size_t need = in->n + in->nheap + 1;
    if (need > in->capring) {
        size_t cap = in->capring ? in->capring : 64;
        while (cap < need) cap *= 2;
        xpkt *r = malloc(cap * sizeof *r);
        if (!r) return -1;
        for (size_t k = 0; k < in->n; k++) r[k] = in->ring[(in->head + k) & (in->capring - 1)];
        free(in->ring);
        in->ring = r;
        in->head = 0;
        in->capring = cap;
    }
    return 0;
}

static void ring_push(xinput *in, xpkt p)
{
    in->ring[(in->head + in->n++) & (in->capring - 1)] = p;
}

static inline xpkt *ring_at(xinput *in, size_t k)
{
    return &in->ring[(in->head + k) & (in->capring - 1)];
}

/* The interconnect cycle that starts at or after core cycle t. */
static uint64_t net_cycle_of(const wc_xbar *x, uint64_t t)
{
    if (x->icnt_cycle == 1.0) return t;
    double n = (double)t / x->icnt_cycle;
    uint64_t c = (uint64_t)n;
    return c + ((double)c < n);
}

static uint64_t core_time_of(const wc_xbar *x, uint64_t n)
{
    if (x->icnt_cycle == 1.0) return n;
    double t = (double)n * x->icnt_cycle;
    uint64_t c = (uint64_t)t;
    return c + ((double)c < t);
}

/* Inputs with packets (entering or waiting to) are bits of x->busy, so a
 * cycle touches only those. */
static inline void busy_set(wc_xbar *x, unsigned i)
{
    x->busy[i >> 6] |= 1ull << (i & 63);
}

static inline void busy_update(wc_xbar *x, unsigned i)
{
    if (!x->in[i].n && !x->in[i].nheap) x->busy[i >> 6] &= ~(1ull << (i & 63));
}

int wc_xbar_send(wc_xbar *x, unsigned in, unsigned out, uint64_t ready, uint32_t flits,
                 double eject, uint32_t rec)
{
    xpkt p = {.ready = net_cycle_of(x, ready),
              .seq = x->seq++,
              .eject = eject,
              .rec = rec,
              .out = (uint16_t)out,
              .flits = (uint16_t)(flits ? flits : 1)};
    /* the engine never sends into a cycle already simulated (gpu.c,
     * run_xbar); a caller that does gets the first cycle not yet simulated */
    if (p.ready < x->cycle) p.ready = x->cycle;
    if (ring_reserve(&x->in[in]) < 0 || heap_push(&x->in[in], p) < 0) return -1;
    busy_set(x, in);
    if (rec != WC_XBAR_NONE) x->recs[rec].pending++;
    x->pending++;
    return 0;
}

/* ---- one interconnect cycle --------------------------------------------- */

/* The packet's last flit leaves the router in interconnect cycle `dep`. */
static void deliver(wc_xbar *x, const xpkt *p, uint64_t dep)
{
    x->pending--;
    if (p->rec == WC_XBAR_NONE) return;
    double at = (double)core_time_of(x, dep) + x->latency + p->eject;
    uint64_t t = (uint64_t)at;
    t += (double)t < at;
    xrec *r = &x->recs[p->rec];
    if (t > r->arrive) r->arrive = t;
    if (--r->pending == 0 && r->closed) push_done(x, p->rec, r->arrive);
}

/* Flits enter input i: one per cycle, the next of the packet entering, else
 * the first of the next ready packet. */
static inline void inject(wc_xbar *x, unsigned i, uint64_t cyc)
{
    xinput *in = &x->in[i];
    if (in->n) {
        xpkt *last = ring_at(in, in->n - 1);
        if (last->arrived < last->flits) {
            last->arrived++;
            return;
        }
    }
    if (!in->nheap || in->heap[0].ready > cyc) return;
    xpkt p = heap_pop(in);
    p.arrived = 1;
    ring_push(in, p);
    x->in_fifo++;
    if (in->n == 1) {
        in->state = IN_VCA;
        in->elig = x->step;
    }
}

/* Input i's head in router step k: it asks for its output's virtual channel
 * (the best asker per output is kept in the output; grants apply after the
 * step), or, holding it since an earlier step, sends a flit through the
 * switch.  An output freed in this step is granted from the next one on
 * (free_step), so it does not matter which input is looked at first. */
static inline void input_step(wc_xbar *x, unsigned i, uint64_t k, uint64_t cyc, unsigned *ng)
{
    xinput *in = &x->in[i];
    if (in->state == IN_IDLE || in->elig > k) return;
    xpkt *p = ring_at(in, 0);
    xoutput *o = &x->out[p->out];
    if (in->state == IN_VCA) {
        if (o->holder >= 0 || o->free_step > k) return;
        uint32_t d = i >= o->ptr ? i - o->ptr : i + x->n_in - o->ptr;
        if (o->best < 0) x->granted[(*ng)++] = p->out;
        if (o->best < 0 || d < o->best_d) {
            o->best = (int)i;
            o->best_d = d;
        }
        return;
    }
    if (p->sent == p->arrived) return;                                  /* next flit not in yet */
    if (o->last_dep > cyc && o->last_dep - cyc >= x->p.out_buf) return; /* no credit */
    o->last_dep = (o->last_dep > cyc ? o->last_dep : cyc) + 1;
    if (++p->sent < p->flits) return;
    deliver(x, p, o->last_dep);
    o->holder = -1;
    o->free_step = k + 1;
    in->head = (in->head + 1) & (in->capring - 1);
    in->n--;
    x->in_fifo--;
    in->state = in->n ? IN_VCA : IN_IDLE;
    in->elig = k + 1;
}

/* One router step over the busy inputs, then the step's grants. */
static void router_step(wc_xbar *x, uint64_t cyc)
{
    uint64_t k = x->step++;
    unsigned ng = 0;
    for (unsigned w = 0; w < x->n_words; w++)
        for (uint64_t m = x->busy[w]; m; m &= m - 1)
            input_step(x, w * 64 + (unsigned)__builtin_ctzll(m), k, cyc, &ng);
    for (unsigned g = 0; g < ng; g++) {
        xoutput *o = &x->out[x->granted[g]];
        xinput *in = &x->in[o->best];
        o->holder = o->best;
        o->ptr = (unsigned)o->best + 1 == x->n_in ? 0 : (unsigned)o->best + 1;
        o->best = -1;
        in->state = IN_ACTIVE;
        in->elig = k + 1;
    }
}

static void net_cycle(wc_xbar *x, uint64_t cyc)
{
    for (unsigned w = 0; w < x->n_words; w++)
        for (uint64_t m = x->busy[w]; m; m &= m - 1)
            inject(x, w * 64 + (unsigned)__builtin_ctzll(m), cyc);
    x->partial_x100 += x->p.speedup_x100;
    while (x->partial_x100 >= 100) {
        router_step(x, cyc);
        x->partial_x100 -= 100;
    }
    for (unsigned w = 0; w < x->n_words; w++)
        for (uint64_t m = x->busy[w]; m; m &= m - 1)
            busy_update(x, w * 64 + (unsigned)__builtin_ctzll(m));
}

static uint64_t next_ready(const wc_xbar *x)
{
    uint64_t best = UINT64_MAX;
    for (unsigned i = 0; i < x->n_in; i++)
        if (x->in[i].nheap && x->in[i].heap[0].ready < best) best = x->in[i].heap[0].ready;
    return best;
}

void wc_xbar_run(wc_xbar *x, uint64_t now)
{
    while (x->pending && core_time_of(x, x->cycle) <= now) {
        if (!x->in_fifo) { /* nothing inside: skip the idle cycles, up to now */
            uint64_t r = next_ready(x);
            if (core_time_of(x, r) > now) break;
            if (r > x->cycle) x->cycle = r;
        }
        net_cycle(x, x->cycle++);
    }
    /* Cycles up to now with nothing inside are over too; a packet sent
     * later is never ready before them (wc_xbar_send). */
}

uint64_t wc_xbar_next(const wc_xbar *x)
{
    if (!x->pending) return WC_NEVER;
    if (x->in_fifo) return core_time_of(x, x->cycle);
    uint64_t r = next_ready(x);
    return core_time_of(x, r > x->cycle ? r : x->cycle);
}

size_t wc_xbar_done(wc_xbar *x, const uint32_t **recs, const uint64_t **times)
{
    size_t n = x->ndone;
    *recs = x->done_id;
    *times = x->done_t;
    for (size_t k = 0; k < n; k++) x->free_ids[x->nfree++] = x->done_id[k];
    x->ndone = 0;
    return n;
}

uint64_t wc_xbar_pending(const wc_xbar *x)
{
    return x->pending;
}
