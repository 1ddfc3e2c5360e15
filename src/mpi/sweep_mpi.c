/*
 * sweep_mpi.c - the MPI executor of `warpcache sweep` (see sweep_exec.h):
 * rank 0 hands out points one at a time, the other ranks simulate them.
 *
 * Dynamic load balancing: points differ in cost by orders of magnitude, so
 * nothing is divided up front; a worker asks for the next point by sending
 * the line of its last one (its first message is an empty request), and
 * rank 0 answers with the next point still to run, or stop.  Every rank
 * parsed the same command line and built the same grid, so a point travels
 * as its index and its result as the finished JSON line, with the CPU time
 * it took: rank 0 hands out the longest expected points first, learned from
 * those times (point_pick.c), so that the sweep does not end with one
 * worker on a long point and the others idle.  Rank 0 answers before it
 * writes the line it got: the worker does not wait for the fdatasync.
 *
 * What reaches the file: rank 0 appends each line as it arrives (one
 * write(), fdatasync'd) - in completion order, so that a finished point is
 * never held only in memory; cmd_sweep.c puts the file into point order at
 * the end.  A failed point arrives as an error line and the sweep goes on.
 * If a rank dies, Open MPI ends the whole job; the file then holds every
 * point that had finished (complete lines, at most one torn last line if
 * rank 0 itself died inside a write), and `sweep --resume` - under MPI or
 * not - runs only the others.  Open MPI ends the surviving ranks with
 * SIGTERM; rank 0 then names the points that were in flight, and on which
 * rank, before it goes.
 *
 * Rank 0 waits with MPI_Iprobe and a short sleep instead of a blocking
 * receive, which in Open MPI spins: with one rank per core it would take a
 * core from a worker.
 *
 * With -j N every worker rank runs N requesters on threads (one rank per
 * machine, N simulations on it); each asks and is answered on its own, one
 * thread in MPI at a time (MPI_THREAD_SERIALIZED: a request and its answer
 * under one mutex, so the answer goes to the thread that asked).  Every
 * rank parsed the same -j, so rank 0 knows how many requesters there are.
 */
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/sweep_exec.h"
#include "exp/point_pick.h"
#include "mpi/sweep_mpi.h"

enum { TAG_RESULT = 1, TAG_WORK = 2, TAG_STOP = 3 };

#define NO_POINT UINT64_MAX

/* A worker's message: this header, then the point's line. */
typedef struct result_head {
    uint64_t point; /* NO_POINT: the first request, no line */
    int32_t status; /* 0, or the failed point's exit status */
    int32_t slot;   /* which of the rank's requesters (threads) */
    uint64_t cost;  /* the simulation's CPU time, ns: what the hand-out order learns */
} result_head;

typedef struct mpi_exec {
    int rank, size;
    bool serialized; /* MPI_THREAD_SERIALIZED provided: -j N threads per rank */
} mpi_exec;

/* ---- the points in flight, for a job ended under rank 0 -------------------- */

/* inflight[r] = the point rank r is simulating, NO_POINT when none;
 * writing = the point rank 0 has received but not yet written (the worker
 * already has its next one), from writing_rank.  A signal handler reaches
 * state only through statics; these are set by run_writer alone and read by
 * on_term alone. */
static volatile uint64_t *inflight;
static volatile int inflight_n, inflight_per; /* slots, slots per rank */
static volatile uint64_t writing = NO_POINT;
static volatile int writing_rank;

static size_t put_u64(char *at, uint64_t v)
{
    char d[24];
    size_t n = 0, k = 0;
    do d[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (n) at[k++] = d[--n];
    return k;
}

static size_t put_str(char *at, const char *s)
{
    size_t k = 0;
    while (s[k]) {
        at[k] = s[k];
        k++;
    }
    return k;
}

/* Async-signal-safe: formats into a stack buffer, one write(), then the
 * default action (the exit status still says which signal). */
static void on_term(int sig)
{
    char buf[4096];
    size_t k = put_str(buf, "warpcache-mpi: sweep ended by signal ");
    k += put_u64(buf + k, (uint64_t)sig);
    k += put_str(buf + k, "; points in flight, not in the results file (--resume runs them):");
    bool any = false;
    if (writing != NO_POINT) {
        k += put_str(buf + k, " ");
        k += put_u64(buf + k, writing);
        k += put_str(buf + k, " (rank ");
        k += put_u64(buf + k, (uint64_t)writing_rank);
        k += put_str(buf + k, ")");
        any = true;
    }
    for (int i = 0; i < inflight_n && k < sizeof buf - 64; i++) {
        if (inflight[i] == NO_POINT || inflight[i] == writing) continue; /* named above */
        k += put_str(buf + k, any ? ", " : " ");
        k += put_u64(buf + k, inflight[i]);
        k += put_str(buf + k, " (rank ");
        k += put_u64(buf + k, (uint64_t)(i / inflight_per));
        k += put_str(buf + k, ")");
        any = true;
    }
    k += put_str(buf + k, any ? "\n" : " none\n");
    ssize_t w = write(2, buf, k);
    (void)w;
    signal(sig, SIG_DFL);
    raise(sig);
}

static int lead(void *ctx, int status)
{
    if (MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD) != MPI_SUCCESS) return WC_EXIT_FAIL;
    return status;
}

static int agree(void *ctx, int status)
{
    const mpi_exec *m = ctx;
    int worst = status;
    if (MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS)
        return WC_EXIT_FAIL;
    if (m->rank == 0 && status == WC_EXIT_OK && worst != WC_EXIT_OK)
        wc_cli_error("sweep --mpi: another rank could not set up (its message above); nothing "
                     "was run");
    return worst;
}

/* One rank alone: no one to hand points to, so it runs them itself. */
static int run_alone(wc_sweep_task *t)
{
    const size_t *todo;
    size_t n = wc_sweep_todo(t, &todo);
    for (size_t i = 0; i < n; i++) {
        char *line = NULL;
        size_t len = 0;
        int status = 0;
        if (wc_sweep_simulate(t, todo[i], &line, &len, &status) < 0) {
            wc_cli_error("out of memory");
            return WC_EXIT_FAIL;
        }
        int rc = wc_sweep_append(t, todo[i], line, len, status);
        free(line);
        if (rc < 0) break; /* the reason is reported by the sweep */
    }
    return WC_EXIT_OK;
}

/* Waits for the next worker message without spinning: 1 ms sleeps growing
 * to 2 ms while nothing arrives.  A worker waits for its answer for as long
 * as rank 0 sleeps: 20 ms sleeps cost a worker 10 ms per point on average
 * (about 2 % of a sweep whose points take half a second), 2 ms sleeps about
 * 1 ms, for about 450 wake-ups a second on rank 0 (an MPI_Iprobe and a
 * nanosleep each, 15-20 us measured under load: under 1 % of a core). */
static int wait_result(MPI_Status *st)
{
    long ns = 1000000;
    for (;;) {
        int flag = 0;
        if (MPI_Iprobe(MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &flag, st) != MPI_SUCCESS)
            return -1;
        if (flag) return 0;
        struct timespec ts = {0, ns};
        nanosleep(&ts, NULL);
        if (ns < 2000000) ns += ns / 2;
    }
}

/* Requesters per worker rank: the same on every rank (same -j, same MPI). */
static int per_rank(const mpi_exec *m, const wc_sweep_task *t)
{
    return m->serialized ? (int)wc_sweep_threads(t) : 1;
}

/* The hand-out order of the points still to run (point_pick.c). */
static int pick_init(wc_point_pick *pk, const wc_sweep_task *t)
{
    const size_t *todo;
    size_t n = wc_sweep_todo(t, &todo);
    size_t *input = malloc((n ? n : 1) * sizeof *input);
    if (!input) return -1;
    for (size_t i = 0; i < n; i++) input[i] = wc_sweep_input_of(t, todo[i]);
    int rc = wc_point_pick_init(pk, todo, input, n, wc_sweep_inputs(t));
    free(input);
    return rc;
}

/* Receives the next worker message into *buf (grown as needed) and checks
 * its header; -1 after saying why. */
static int receive_result(int per, char **buf, int *cap, MPI_Status *st, result_head *h, int *count)
{
    if (wait_result(st) < 0 || MPI_Get_count(st, MPI_BYTE, count) != MPI_SUCCESS ||
        *count < (int)sizeof(result_head)) {
        wc_cli_error("sweep --mpi: cannot receive a worker's result");
        return -1;
    }
    if (*count > *cap) {
        char *r = realloc(*buf, (size_t)*count);
        if (!r) {
            wc_cli_error("out of memory");
            return -1;
        }
        *buf = r;
        *cap = *count;
    }
    MPI_Recv(*buf, *count, MPI_BYTE, st->MPI_SOURCE, TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    memcpy(h, *buf, sizeof *h);
    if (h->slot < 0 || h->slot >= per) {
        wc_cli_error("internal: rank %d sent requester %d of %d", st->MPI_SOURCE, (int)h->slot,
                     per);
        return -1;
    }
    return 0;
}

/* Rank 0: hands out the points still to run, appends the lines. */
static int run_writer(const mpi_exec *m, wc_sweep_task *t)
{
    if (m->size == 1) return run_alone(t);
    int per = per_rank(m, t), nslots = m->size * per;
    int active = (m->size - 1) * per, rc = WC_EXIT_OK;
    bool stop = false; /* the file cannot be written: hand out nothing more */
    char *buf = NULL;
    int cap = 0;
    wc_point_pick pk;
    uint64_t *fly = malloc((size_t)nslots * sizeof *fly); /* [rank * per + slot] */
    if (!fly || pick_init(&pk, t) < 0) {
        wc_cli_error("out of memory");
        MPI_Abort(MPI_COMM_WORLD, WC_EXIT_FAIL);
        return WC_EXIT_FAIL;
    }
    for (int i = 0; i < nslots; i++) fly[i] = NO_POINT;
    inflight = fly;
    inflight_per = per;
    inflight_n = nslots;
    signal(SIGTERM, on_term);
    signal(SIGINT, on_term);
    while (active > 0) {
        MPI_Status st;
        result_head h;
        int count = 0;
        if (receive_result(per, &buf, &cap, &st, &h, &count) < 0) {
            rc = WC_EXIT_FAIL;
            break;
        }
        bool got = h.point != NO_POINT;
        if (got) {
            wc_point_pick_learn(&pk, wc_sweep_input_of(t, (size_t)h.point), h.cost);
            writing_rank = st.MPI_SOURCE;
            writing = h.point;
        }
        /* the answer first: the worker simulates while the line is written */
        uint64_t *mine = &fly[st.MPI_SOURCE * per + h.slot];
        size_t p = stop ? WC_PICK_NONE : wc_point_pick_next(&pk);
        *mine = p == WC_PICK_NONE ? NO_POINT : (uint64_t)p;
        if (p != WC_PICK_NONE) {
            uint64_t p64 = p;
            MPI_Send(&p64, 1, MPI_UINT64_T, st.MPI_SOURCE, TAG_WORK, MPI_COMM_WORLD);
        } else {
            MPI_Send(NULL, 0, MPI_BYTE, st.MPI_SOURCE, TAG_STOP, MPI_COMM_WORLD);
            active--;
        }
        if (got && wc_sweep_append(t, (size_t)h.point, buf + sizeof h, (size_t)count - sizeof h,
                                   h.status) < 0)
            stop = true;
        writing = NO_POINT;
    }
    signal(SIGTERM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    inflight_n = 0;
    inflight = NULL;
    inflight_per = 1;
    free(fly);
    free(buf);
    wc_point_pick_free(&pk);
    if (rc != WC_EXIT_OK) MPI_Abort(MPI_COMM_WORLD, rc); /* workers would wait forever */
    return rc;
}

static int send_result(uint64_t point, int status, int slot, uint64_t cost, const char *line,
                       size_t len)
{
    char *msg = malloc(sizeof(result_head) + len);
    if (!msg) return -1;
    result_head h = {point, status, slot, cost};
    memcpy(msg, &h, sizeof h);
    if (len) memcpy(msg + sizeof h, line, len);
    int rc = MPI_Send(msg, (int)(sizeof h + len), MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
    free(msg);
    return rc == MPI_SUCCESS ? 0 : -1;
}

/* CPU time, not wall time: what a point costs, whatever else shares the core. */
static uint64_t thread_cpu_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One requester of a worker rank (a thread with -j N). */
typedef struct requester {
    wc_sweep_task *t;
    pthread_mutex_t *mpi; /* one thread in MPI at a time */
    int slot, rc;
} requester;

/* Asks (with the line of its last point, none at first), simulates what it
 * is given, until told to stop.  The answer is received under the same lock
 * as the request, so it reaches the thread that asked. */
static void *request_loop(void *arg)
{
    requester *q = arg;
    uint64_t last = NO_POINT, cost = 0;
    int status = 0;
    char *line = NULL;
    size_t len = 0;
    for (;;) {
        MPI_Status st;
        uint64_t p = 0;
        pthread_mutex_lock(q->mpi);
        int rc = send_result(last, status, q->slot, cost, line, line ? len : 0);
        if (rc == 0 &&
            MPI_Recv(&p, 1, MPI_UINT64_T, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st) != MPI_SUCCESS)
            rc = -1;
        pthread_mutex_unlock(q->mpi);
        free(line);
        line = NULL;
        if (rc < 0) {
            q->rc = WC_EXIT_FAIL;
            return NULL;
        }
        if (st.MPI_TAG != TAG_WORK) return NULL;
        last = p;
        status = 0;
        uint64_t t0 = thread_cpu_ns();
        if (wc_sweep_simulate(q->t, (size_t)p, &line, &len, &status) < 0) status = WC_EXIT_FAIL;
        cost = thread_cpu_ns() - t0;
    }
}

/* The other ranks: their requesters on threads (the last one on this one).
 * A thread that cannot be started has its slot run here afterwards: rank 0
 * waits for every slot to ask once. */
static int run_worker(const mpi_exec *m, wc_sweep_task *t)
{
    int per = per_rank(m, t);
    requester *q = calloc((size_t)per, sizeof *q);
    pthread_t *th = calloc((size_t)per, sizeof *th);
    pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    if (!q || !th) {
        free(q);
        free(th);
        wc_cli_error("out of memory");
        MPI_Abort(MPI_COMM_WORLD, WC_EXIT_FAIL);
        return WC_EXIT_FAIL;
    }
    for (int i = 0; i < per; i++) q[i] = (requester){t, &mu, i, WC_EXIT_OK};
    int started = 0;
    while (started < per - 1 && pthread_create(&th[started], NULL, request_loop, &q[started]) == 0)
        started++;
    for (int i = started; i < per; i++) request_loop(&q[i]);
    int rc = WC_EXIT_OK;
    for (int i = 0; i < per; i++) {
        if (i < started) pthread_join(th[i], NULL);
        if (q[i].rc != WC_EXIT_OK) rc = q[i].rc;
    }
    free(q);
    free(th);
    return rc;
}

static int run(void *ctx, wc_sweep_task *t)
{
    const mpi_exec *m = ctx;
    return m->rank == 0 ? run_writer(m, t) : run_worker(m, t);
}

int wc_mpi_sweep(int argc, char **argv)
{
    int provided = MPI_THREAD_SINGLE;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
        wc_cli_error("sweep --mpi: MPI_Init_thread failed");
        return WC_EXIT_FAIL;
    }
    mpi_exec m;
    m.serialized = provided >= MPI_THREAD_SERIALIZED;
    MPI_Comm_rank(MPI_COMM_WORLD, &m.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m.size);
    wc_sweep_exec ex = {"mpi", m.rank == 0, &m, lead, agree, run};
    int rc = wc_cmd_sweep_with(argc, argv, &ex);
    MPI_Finalize();
    return rc;
}
