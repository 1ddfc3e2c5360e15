/*
 * sweep_mpi.c - the MPI executor of `warpcache sweep` (see sweep_exec.h):
 * rank 0 hands out points one at a time, the other ranks simulate them.
 *
 * Dynamic load balancing: points differ in cost by orders of magnitude, so
 * nothing is divided up front; a worker asks for the next point by sending
 * the line of its last one (its first message is an empty request), and
 * rank 0 answers with the next point still to run, or stop.  Every rank
 * parsed the same command line and built the same grid, so a point travels
 * as its index and its result as the finished JSON line.
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
 */
#include <mpi.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/sweep_exec.h"
#include "mpi/sweep_mpi.h"

enum { TAG_RESULT = 1, TAG_WORK = 2, TAG_STOP = 3 };

#define NO_POINT UINT64_MAX

/* A worker's message: this header, then the point's line. */
typedef struct result_head {
    uint64_t point; /* NO_POINT: the first request, no line */
    int32_t status; /* 0, or the failed point's exit status */
    int32_t pad;
} result_head;

typedef struct mpi_exec {
    int rank, size;
} mpi_exec;

/* ---- the points in flight, for a job ended under rank 0 -------------------- */

/* inflight[r] = the point rank r is simulating, NO_POINT when none.  A
 * signal handler reaches state only through a static; this one is set by
 * run_writer alone and read by on_term alone. */
static volatile uint64_t *inflight;
static volatile int inflight_n;

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
    for (int r = 1; r < inflight_n && k < sizeof buf - 64; r++) {
        if (inflight[r] == NO_POINT) continue;
        k += put_str(buf + k, any ? ", " : " ");
        k += put_u64(buf + k, inflight[r]);
        k += put_str(buf + k, " (rank ");
        k += put_u64(buf + k, (uint64_t)r);
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
 * to 20 ms while nothing arrives. */
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
        if (ns < 20000000) ns += ns / 2;
    }
}

/* Rank 0: hands out the points still to run, appends the lines. */
static int run_writer(const mpi_exec *m, wc_sweep_task *t)
{
    if (m->size == 1) return run_alone(t);
    const size_t *todo;
    size_t n = wc_sweep_todo(t, &todo), next = 0;
    int active = m->size - 1, rc = WC_EXIT_OK;
    bool stop = false; /* the file cannot be written: hand out nothing more */
    char *buf = NULL;
    int cap = 0;
    uint64_t *fly = malloc((size_t)m->size * sizeof *fly);
    if (!fly) {
        wc_cli_error("out of memory");
        MPI_Abort(MPI_COMM_WORLD, WC_EXIT_FAIL);
        return WC_EXIT_FAIL;
    }
    for (int r = 0; r < m->size; r++) fly[r] = NO_POINT;
    inflight = fly;
    inflight_n = m->size;
    signal(SIGTERM, on_term);
    signal(SIGINT, on_term);
    while (active > 0) {
        MPI_Status st;
        int count = 0;
        if (wait_result(&st) < 0 || MPI_Get_count(&st, MPI_BYTE, &count) != MPI_SUCCESS ||
            count < (int)sizeof(result_head)) {
            wc_cli_error("sweep --mpi: cannot receive a worker's result");
            rc = WC_EXIT_FAIL;
            break;
        }
        if (count > cap) {
            char *r = realloc(buf, (size_t)count);
            if (!r) {
                wc_cli_error("out of memory");
                rc = WC_EXIT_FAIL;
                break;
            }
            buf = r;
            cap = count;
        }
        MPI_Recv(buf, count, MPI_BYTE, st.MPI_SOURCE, TAG_RESULT, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        result_head h;
        memcpy(&h, buf, sizeof h);
        if (h.point != NO_POINT && wc_sweep_append(t, (size_t)h.point, buf + sizeof h,
                                                   (size_t)count - sizeof h, h.status) < 0)
            stop = true;
        fly[st.MPI_SOURCE] = NO_POINT;
        if (!stop && next < n) {
            uint64_t p = todo[next++];
            fly[st.MPI_SOURCE] = p;
            MPI_Send(&p, 1, MPI_UINT64_T, st.MPI_SOURCE, TAG_WORK, MPI_COMM_WORLD);
        } else {
            MPI_Send(NULL, 0, MPI_BYTE, st.MPI_SOURCE, TAG_STOP, MPI_COMM_WORLD);
            active--;
        }
    }
    signal(SIGTERM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    inflight_n = 0;
    inflight = NULL;
    free(fly);
    free(buf);
    if (rc != WC_EXIT_OK) MPI_Abort(MPI_COMM_WORLD, rc); /* workers would wait forever */
    return rc;
}

static int send_result(uint64_t point, int status, const char *line, size_t len)
{
    char *msg = malloc(sizeof(result_head) + len);
    if (!msg) return -1;
    result_head h = {point, status, 0};
    memcpy(msg, &h, sizeof h);
    if (len) memcpy(msg + sizeof h, line, len);
    int rc = MPI_Send(msg, (int)(sizeof h + len), MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
    free(msg);
    return rc == MPI_SUCCESS ? 0 : -1;
}

/* The other ranks: ask, simulate, answer with the line, until told to stop. */
static int run_worker(wc_sweep_task *t)
{
    if (send_result(NO_POINT, 0, NULL, 0) < 0) return WC_EXIT_FAIL;
    for (;;) {
        MPI_Status st;
        uint64_t p = 0;
        MPI_Recv(&p, 1, MPI_UINT64_T, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        if (st.MPI_TAG != TAG_WORK) return WC_EXIT_OK;
        char *line = NULL;
        size_t len = 0;
        int status = 0;
        if (wc_sweep_simulate(t, (size_t)p, &line, &len, &status) < 0) status = WC_EXIT_FAIL;
        int rc = send_result(p, status, line, line ? len : 0);
        free(line);
        if (rc < 0) return WC_EXIT_FAIL;
    }
}

static int run(void *ctx, wc_sweep_task *t)
{
    const mpi_exec *m = ctx;
    return m->rank == 0 ? run_writer(m, t) : run_worker(t);
}

int wc_mpi_sweep(int argc, char **argv)
{
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
        wc_cli_error("sweep --mpi: MPI_Init failed");
        return WC_EXIT_FAIL;
    }
    mpi_exec m;
    MPI_Comm_rank(MPI_COMM_WORLD, &m.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m.size);
    wc_sweep_exec ex = {"mpi", m.rank == 0, &m, lead, agree, run};
    int rc = wc_cmd_sweep_with(argc, argv, &ex);
    MPI_Finalize();
    return rc;
}
