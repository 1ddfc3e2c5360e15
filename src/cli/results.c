/*
 * results.c - sweep results files, as `sweep`, `merge` and `report` read
 * them (results.h).
 *
 * Reading is bounded: a results file is a regular file of complete lines of
 * a few KB, so a folder, a pipe or a device (/dev/zero would be read
 * forever), a file over 4 GiB or a line over 1 MiB is refused before it is
 * held in memory, not after.
 *
 * The lock: two sweeps appending to one file would leave every point twice.
 * A sweep therefore holds an exclusive flock() on ".NAME.lock" in the
 * results file's folder for as long as it runs.  Not on the results file
 * itself: a sweep ends by renaming a sorted copy over it (cmd_sweep.c), and
 * a lock on the old inode would not keep a second sweep from the new one.
 * flock() dies with its process, so a sweep killed with -9 leaves at most
 * an unlocked lock file behind, which the next sweep simply locks.  The
 * lock file is removed when the sweep ends; a sweep that locked a lock file
 * just before it was removed sees that the path no longer names what it
 * holds and locks again.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/jsonscan.h"
#include "cli/results.h"

/* ---- reading ---------------------------------------------------------------- */

static const char *kind_of(mode_t m)
{
    if (S_ISDIR(m)) return "a folder";
    if (S_ISFIFO(m)) return "a pipe";
    if (S_ISCHR(m) || S_ISBLK(m)) return "a device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

int wc_results_check_regular(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || S_ISREG(st.st_mode)) return 0;
    wc_cli_error("%s: %s, not a results file (a regular file of JSON lines)", path,
                 kind_of(st.st_mode));
    return -1;
}

/* The first line longer than WC_RESULTS_MAX_LINE: its number, or 0. */
static size_t long_line(const char *buf, size_t len)
{
    size_t lineno = 1;
    for (size_t at = 0; at < len; lineno++) {
        const char *nl = memchr(buf + at, '\n', len - at);
        size_t ll = nl ? (size_t)(nl - (buf + at)) : len - at;
        if (ll > WC_RESULTS_MAX_LINE) return lineno;
        at += ll + 1;
    }
    return 0;
}

char *wc_results_read(const char *path, size_t *len, bool *missing)
{
    if (missing) *missing = false;
    *len = 0;
    /* O_NONBLOCK: opening a pipe with no writer must not hang */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (missing && errno == ENOENT)
            *missing = true;
        else
            wc_cli_error("cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        wc_cli_error("cannot read %s: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        wc_cli_error("%s: %s, not a results file (a regular file of JSON lines)", path,
                     kind_of(st.st_mode));
        close(fd);
        return NULL;
    }
    if ((uint64_t)st.st_size > WC_RESULTS_MAX_BYTES) {
        wc_cli_error("%s: %llu bytes, more than a results file holds (4 GiB)", path,
                     (unsigned long long)st.st_size);
        close(fd);
        return NULL;
    }
    /* the size may change while it is read (a sweep appending): read what
     * is there, never more than the limit */
    size_t cap = (size_t)st.st_size + 1, n = 0;
    char *buf = malloc(cap);
    if (!buf) {
        close(fd);
        wc_cli_error("out of memory reading %s", path);
        return NULL;
    }
    for (;;) {
        ssize_t got = read(fd, buf + n, cap - 1 - n);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            wc_cli_error("cannot read %s: %s", path, strerror(errno));
            free(buf);
            close(fd);
            return NULL;
        }
        if (got == 0 || n + (size_t)got == cap - 1) {
            n += (size_t)got;
            break;
        }
        n += (size_t)got;
    }
    close(fd);
    buf[n] = 0;
    size_t bad = long_line(buf, n);
    if (bad) {
        wc_cli_error("%s:%zu: a line longer than 1 MiB: not a sweep result line", path, bad);
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

/* ---- the head of a line ------------------------------------------------------- */

typedef struct head_scan {
    wc_results_head *h;
    char point[32];
    bool key_long, id_bad, point_str;
} head_scan;

static bool is_sweep_id(const char *s)
{
    size_t n = 0;
    for (; s[n]; n++)
        if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f'))) return false;
    return n == WC_SWEEP_ID_LEN;
}

static void grab_head(void *ctx, const char *path, const char *text, bool is_string)
{
    head_scan *s = ctx;
    wc_results_head *h = s->h;
    if (strcmp(path, "schema_version") == 0) {
        h->has_schema = true;
    } else if (strcmp(path, "key") == 0 && is_string) {
        s->key_long = strlen(text) > WC_RESULTS_MAX_KEY;
        snprintf(h->key, sizeof h->key, "%s", text);
        h->has_key = true;
    } else if (strcmp(path, "sweep_id") == 0) {
        s->id_bad = !is_string || !is_sweep_id(text);
        snprintf(h->sweep_id, sizeof h->sweep_id, "%s", text);
        h->has_sweep_id = true;
    } else if (strcmp(path, "point") == 0) {
        s->point_str = is_string;
        snprintf(s->point, sizeof s->point, "%s", text);
        h->has_point = true;
    }
}

int wc_results_scan_head(const char *line, size_t len, wc_results_head *h)
{
    memset(h, 0, sizeof *h);
    head_scan s = {h, "", false, false, false};
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
    if (i == len || line[i] != '{') return -1; /* an object, not any JSON value */
    if (wc_json_scan(line, len, grab_head, &s) < 0) return -1;
    if (!h->has_schema || !h->has_key || s.key_long || s.id_bad) return -1;
    if (h->has_point) {
        char *end = NULL;
        errno = 0;
        unsigned long long p = strtoull(s.point, &end, 10);
        if (s.point_str || errno || end == s.point || *end || s.point[0] == '-' || p >= 1000000)
            return -1;
        h->point = p;
    }
    return 0;
}

uint64_t wc_fnv1a64(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* ---- the lock ------------------------------------------------------------------- */

/* ".NAME.lock" in the folder of the results file, the folder resolved (and
 * the file, when it is a symbolic link), so that every way of naming the
 * file names one lock. */
static int lock_path(const char *results, char *out, size_t n)
{
    char real[PATH_MAX], dir[PATH_MAX];
    const char *p = realpath(results, real) ? real : results;
    const char *slash = strrchr(p, '/');
    const char *base = slash ? slash + 1 : p;
    if (slash)
        snprintf(dir, sizeof dir, "%.*s", slash == p ? 1 : (int)(slash - p), p);
    else
        snprintf(dir, sizeof dir, ".");
    if (!*base) {
        wc_cli_error("cannot write %s: not a file name", results);
        return -1;
    }
    char rdir[PATH_MAX];
    if (!realpath(dir, rdir)) {
        wc_cli_error("cannot write %s: %s", results, strerror(errno));
        return -1;
    }
    if ((size_t)snprintf(out, n, "%s%s.%s.lock", rdir, strcmp(rdir, "/") ? "/" : "", base) >= n) {
        wc_cli_error("cannot write %s: path too long", results);
        return -1;
    }
    return 0;
}

/* The process id written in the lock file by its holder, for the message;
 * 0 when unreadable. */
static long holder_of(int fd)
{
    char buf[32];
    ssize_t got = pread(fd, buf, sizeof buf - 1, 0);
    if (got <= 0) return 0;
    buf[got] = 0;
    return strtol(buf, NULL, 10);
}

static void note_pid(int fd)
{
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) == 0 && pwrite(fd, buf, (size_t)n, 0) == n) return;
    /* only the message of a refused second sweep would miss it */
}

int wc_results_lock_take(wc_results_lock *l, const char *results)
{
    l->fd = -1;
    l->slot = -1;
    if (lock_path(results, l->path, sizeof l->path) < 0) return -1;
    for (int tries = 0; tries < 100; tries++) {
        int fd = open(l->path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) {
            wc_cli_error("cannot lock %s: cannot create %s: %s", results, l->path, strerror(errno));
            return -1;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            int e = errno;
            long pid = e == EWOULDBLOCK ? holder_of(fd) : 0;
            close(fd);
            if (e == EINTR) continue;
            if (e != EWOULDBLOCK) {
                wc_cli_error("cannot lock %s (%s): %s", results, l->path, strerror(e));
                return -1;
            }
            char who[48] = "";
            if (pid > 0) snprintf(who, sizeof who, " (process %ld)", pid);
            wc_cli_error("%s: in use by another sweep%s; two sweeps on one results file would "
                         "write every point twice: wait for it to end, then --resume",
                         results, who);
            return -1;
        }
        /* locked; but if the holder before us removed the lock file in the
         * meantime, what we hold is no longer the lock file: again */
        struct stat a, b;
        if (fstat(fd, &a) == 0 && stat(l->path, &b) == 0 && a.st_dev == b.st_dev &&
            a.st_ino == b.st_ino) {
            l->fd = fd;
            note_pid(fd);
            l->slot = wc_out_temp_register(l->path);
            return 0;
        }
        close(fd);
    }
    wc_cli_error("cannot lock %s: %s keeps being replaced", results, l->path);
    return -1;
}

void wc_results_lock_release(wc_results_lock *l)
{
    if (l->fd < 0) return;
    /* removed while still held: whoever opens the old file then finds it
     * gone (wc_results_lock_take) */
    unlink(l->path);
    wc_out_temp_unregister(l->slot);
    close(l->fd);
    l->fd = -1;
    l->slot = -1;
}
