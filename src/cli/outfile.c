/*
 * outfile.c - outputs that appear whole or not at all.
 *
 * Every file a command writes (--json, --csv, --svg, --hist-csv, converted
 * traces) goes to a temporary file in the destination's own directory and is
 * renamed over the destination only once it is complete and every write,
 * flush and close succeeded.  rename(2) within a directory is atomic, so a
 * reader, a second warpcache writing the same file, or an interruption never
 * sees a truncated file: the destination holds the old complete version or
 * the new one.  Traces of several files (Accel-Sim folders, .trc series) are
 * written into a temporary staging folder and moved into place at the end,
 * kernelslist.g last.
 *
 * Destinations that are not regular files (/dev/null, /dev/full, a pipe,
 * /dev/stdout) cannot be replaced by a rename; they are written in place, and
 * their write errors are reported all the same.
 *
 * The temporary paths are registered so that SIGINT, SIGTERM, SIGHUP and
 * SIGPIPE remove them before the process dies (the signal is then re-raised
 * with its default action, so the exit status still tells of the signal).
 * A signal handler can reach only static storage, which is why the registry
 * is the one piece of process-wide state in the program; it is touched only
 * by the registering functions below and by the handler.
 *
 * Exit statuses: a destination that cannot be opened (no such folder, a
 * folder where a file is wanted, permission denied, a read-only file) is bad
 * input, 2; a write that fails once the
 * output is open (disk full, I/O error) is an internal failure, 1.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cli/cli.h"

/* ---- temporary paths removed on a fatal signal ---------------------------- */

#define MAX_TEMPS 16

static char temp_path[MAX_TEMPS][WC_OUT_PATH];
static volatile sig_atomic_t temp_kind[MAX_TEMPS]; /* 0 free, 1 file, 2 folder */
static bool handlers_installed;

/* Removes the files of a flat folder and the folder, with system calls only
 * (opendir and readdir may allocate, which a signal handler must not). */
static void remove_flat_dir_raw(const char *dir)
{
#if defined(__linux__) && defined(SYS_getdents64)
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        char buf[4096];
        long n;
        while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
            for (long off = 0; off < n;) {
                /* struct linux_dirent64: u64 ino, s64 off, u16 reclen, u8 type, name */
                unsigned short reclen;
                memcpy(&reclen, buf + off + 16, sizeof reclen);
                const char *name = buf + off + 19;
                if (strcmp(name, ".") != 0 && strcmp(name, "..") != 0) unlinkat(fd, name, 0);
                off += reclen;
            }
        }
        close(fd);
    }
#endif
    rmdir(dir);
}

static void on_fatal_signal(int sig)
{
    for (int i = 0; i < MAX_TEMPS; i++) {
        if (temp_kind[i] == 1) unlink(temp_path[i]);
        if (temp_kind[i] == 2) remove_flat_dir_raw(temp_path[i]);
    }
    /* SA_RESETHAND restored the default action; the signal, blocked while
     * the handler runs, is delivered again when it returns. */
    raise(sig);
}

static void install_handlers(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    if (handlers_installed) return;
    handlers_installed = true;
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old, sa;
        /* A signal the caller ignores (nohup, a background job) stays ignored. */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESETHAND;
        sigaction(sigs[i], &sa, NULL);
    }
}

/* Registers a temporary path (kind 1 file, 2 folder); the slot or -1. */
static int temp_register(const char *path, int kind)
{
    install_handlers();
    for (int i = 0; i < MAX_TEMPS; i++)
        if (temp_kind[i] == 0) {
            snprintf(temp_path[i], sizeof temp_path[i], "%s", path);
            temp_kind[i] = kind; /* set last: the handler reads a complete path */
            return i;
        }
    return -1; /* more than MAX_TEMPS at once: still atomic, just not cleaned on a signal */
}

static void temp_unregister(int slot)
{
    if (slot >= 0) temp_kind[slot] = 0;
}

int wc_out_temp_register(const char *path)
{
    return temp_register(path, 1);
}

/* Creates the temporary file (mkstemp) or folder (mkdtemp) of template
 * `tmpl` and registers it, with the fatal signals blocked in between: a
 * signal that came after the creation and before the registration used to
 * leave an empty .NAME.tmp.XXXXXX behind.  A signal that arrives meanwhile
 * is delivered when the mask is restored, and then finds the path
 * registered.  The fd (a file; 0 for a folder) or -1 with errno. */
static int make_temp(char *tmpl, int kind, int *slot)
{
    sigset_t fatal, old;
    install_handlers();
    sigemptyset(&fatal);
    sigaddset(&fatal, SIGINT);
    sigaddset(&fatal, SIGTERM);
    sigaddset(&fatal, SIGHUP);
    sigaddset(&fatal, SIGPIPE);
    sigprocmask(SIG_BLOCK, &fatal, &old);
    int fd = kind == 1 ? mkstemp(tmpl) : (mkdtemp(tmpl) ? 0 : -1);
    int e = errno;
    *slot = fd >= 0 ? temp_register(tmpl, kind) : -1;
    sigprocmask(SIG_SETMASK, &old, NULL);
    errno = e;
    return fd;
}

int wc_out_mkstemp(char *tmpl, int *slot)
{
    return make_temp(tmpl, 1, slot);
}

void wc_out_temp_unregister(int slot)
{
    temp_unregister(slot);
}

/* ---- paths ------------------------------------------------------------------ */

/* Splits path into its folder ("." when none) and its last component. */
static void split_path(const char *path, char *dir, char *base)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        snprintf(dir, WC_OUT_PATH, ".");
        snprintf(base, WC_OUT_PATH, "%s", path);
    } else {
        snprintf(dir, WC_OUT_PATH, "%.*s", slash == path ? 1 : (int)(slash - path), path);
        snprintf(base, WC_OUT_PATH, "%s", slash + 1);
    }
}

/* The process's umask (reading it means setting it, then restoring it):
 * mkstemp and mkdtemp create 0600 and 0700, where a plain open or mkdir
 * would have given 0666 or 0777 less the umask. */
static mode_t current_umask(void)
{
    mode_t mask = umask(022);
    umask(mask);
    return mask;
}

bool wc_out_same_file(const char *a, const char *b)
{
    if (strcmp(a, b) == 0) return true;
    if (strcmp(a, "-") == 0 || strcmp(b, "-") == 0) return false;
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    /* Not both existing: the same folder and the same name ("x", "./x"). */
    char da[WC_OUT_PATH], ba[WC_OUT_PATH], db[WC_OUT_PATH], bb[WC_OUT_PATH];
    split_path(a, da, ba);
    split_path(b, db, bb);
    if (strcmp(ba, bb) != 0) return false;
    if (stat(da, &sa) != 0 || stat(db, &sb) != 0) return strcmp(da, db) == 0;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int wc_out_check_distinct(const char *const *paths, const char *const *opts, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; paths[i] && j < n; j++)
            if (paths[j] && wc_out_same_file(paths[i], paths[j])) {
                wc_cli_error("options %s and %s both write %s: give each its own file", opts[i],
                             opts[j], strcmp(paths[i], "-") ? paths[i] : "standard output");
                return -1;
            }
    return 0;
}

/* Whether out is a file of the Accel-Sim trace `input` (its folder, or its
 * kernelslist.g): the list itself or a kernel file (*.traceg, compressed or
 * not) in the same folder. */
static bool in_accelsim_trace(const char *input, const char *out)
{
    struct stat st;
    char dir[WC_OUT_PATH], base[WC_OUT_PATH], odir[WC_OUT_PATH], obase[WC_OUT_PATH];
    if (stat(input, &st) != 0) return false;
    if (S_ISDIR(st.st_mode)) {
        snprintf(dir, sizeof dir, "%s", input);
    } else {
        split_path(input, dir, base);
        if (strcmp(base, "kernelslist.g") != 0) return false;
    }
    split_path(out, odir, obase);
    if (strcmp(obase, "kernelslist.g") != 0 && !strstr(obase, ".traceg")) return false;
    struct stat a, b;
    return stat(dir, &a) == 0 && stat(odir, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

int wc_out_check_not_input(const char *input, const char *const *paths, const char *const *opts,
                           size_t n)
{
    for (size_t i = 0; input && i < n; i++)
        if (paths[i] && strcmp(paths[i], "-") != 0 &&
            (wc_out_same_file(input, paths[i]) || in_accelsim_trace(input, paths[i]))) {
            wc_cli_error("option %s would overwrite the input %s: write to another file", opts[i],
                         input);
            return -1;
        }
    return 0;
}

int wc_out_check_io(const wc_cli_common *c, const char *const *inputs, size_t nin,
                    const char *const *paths, const char *const *opts, size_t n)
{
    if (wc_out_check_distinct(paths, opts, n) < 0) return -1;
    struct stat st;
    /* --design names a file of the design folders or a path: either way the
     * file it reads is an input. */
    wc_design_info d;
    const char *design = NULL;
    if (c && c->design && (stat(c->design, &st) == 0 || strchr(c->design, '/') == NULL)) {
        wc_cli_dirs dirs;
        wc_err err = {{0}};
        wc_cli_design_dirs(&dirs);
        if (wc_design_find(c->design, dirs.dirs, dirs.n, &d, &err) == 0) design = d.path;
    }
    if (c && wc_out_check_not_input(c->config_path, paths, opts, n) < 0) return -1;
    if (wc_out_check_not_input(design, paths, opts, n) < 0) return -1;
    for (size_t i = 0; i < nin; i++)
        if (wc_out_check_not_input(inputs[i], paths, opts, n) < 0) return -1;
    return 0;
}

/* ---- one output file ---------------------------------------------------------- */

/* Decides where o writes: in place (stdout, a device, a pipe) or through a
 * temporary file next to the destination.  -1 (message printed) when the
 * destination cannot be written at all. */
static int open_target(wc_out *o, const char *path)
{
    memset(o, 0, sizeof *o);
    o->slot = -1;
    o->path = path;
    if (strcmp(path, "-") == 0) {
        o->f = stdout;
        return 0;
    }
    if (strlen(path) + 32 >= WC_OUT_PATH) {
        wc_cli_error("cannot write %s: path too long", path);
        return -1;
    }
    snprintf(o->final, sizeof o->final, "%s", path);
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) {
        wc_cli_error("cannot write %s: it is a folder", path);
        return -1;
    }
    if (exists && !S_ISREG(st.st_mode)) return 0; /* a device or pipe: in place */
    /* A file we may not write is refused as `>` would refuse it (2), not
     * replaced because its folder happens to be writable. */
    if (exists && access(path, W_OK) != 0) {
        wc_cli_error("cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    /* A symbolic link keeps pointing where it did: the file it names is replaced. */
    char real[PATH_MAX];
    if (exists && realpath(path, real) && strlen(real) + 32 < WC_OUT_PATH)
        snprintf(o->final, sizeof o->final, "%s", real);
    char dir[WC_OUT_PATH], base[WC_OUT_PATH];
    split_path(o->final, dir, base);
    snprintf(o->tmp, sizeof o->tmp, "%.3800s/.%.200s.tmp.XXXXXX", dir, base);
    int fd = make_temp(o->tmp, 1, &o->slot);
    if (fd < 0) {
        int e = errno;
        o->tmp[0] = '\0';
        /* A writable file in a folder we may not create files in: in place. */
        if (exists && (e == EACCES || e == EPERM || e == EROFS) && access(path, W_OK) == 0)
            return 0;
        wc_cli_error("cannot write %s: %s", path, strerror(e));
        return -1;
    }
    /* The destination's mode is given at commit: until then the file stays
     * mkstemp's 0600, writable by the writers that reopen it by name even
     * when the destination's mode is read-only for its owner. */
    o->mode = exists ? (st.st_mode & 07777) : (0666 & ~current_umask());
    close(fd);
    return 0;
}

int wc_out_open(wc_out *o, const char *path)
{
    if (open_target(o, path) < 0) return -1;
    if (o->f) return 0; /* stdout */
    const char *target = o->tmp[0] ? o->tmp : o->final;
    o->f = fopen(target, "w");
    if (!o->f) {
        wc_cli_error("cannot write %s: %s", path, strerror(errno));
        wc_out_abort(o);
        return -1;
    }
    return 0;
}

int wc_out_reserve(wc_out *o, const char *path)
{
    if (strcmp(path, "-") == 0) {
        wc_cli_error("cannot write %s to standard output: give a file name", "this output");
        return -1;
    }
    return open_target(o, path);
}

const char *wc_out_target(const wc_out *o)
{
    return o->tmp[0] ? o->tmp : o->final;
}

/* The error of a failed write: the flush's errno, else EIO for an error
 * flag an earlier write left behind. */
static int close_stream(FILE *f, bool is_stdout)
{
    int e = 0;
    if (fflush(f) != 0) e = errno ? errno : EIO;
    if (!e && ferror(f)) e = EIO;
    if (!is_stdout && fclose(f) != 0 && !e) e = errno ? errno : EIO;
    return e;
}

int wc_out_commit(wc_out *o)
{
    int e = 0;
    if (o->f) {
        errno = 0;
        e = close_stream(o->f, o->f == stdout);
        /* reported here once; the end-of-command check of stdout must not
         * report it again */
        if (o->f == stdout) clearerr(stdout);
        o->f = NULL;
    }
    if (!e && o->tmp[0] && chmod(o->tmp, (mode_t)o->mode) != 0) e = errno;
    if (!e && o->tmp[0] && rename(o->tmp, o->final) != 0) e = errno;
    if (e) {
        wc_cli_error("cannot write %s: %s", strcmp(o->path, "-") ? o->path : "standard output",
                     strerror(e));
        wc_out_abort(o);
        return -1;
    }
    temp_unregister(o->slot);
    o->slot = -1;
    o->tmp[0] = '\0';
    return 0;
}

void wc_out_abort(wc_out *o)
{
    if (o->f && o->f != stdout) fclose(o->f);
    o->f = NULL;
    if (o->tmp[0]) unlink(o->tmp);
    o->tmp[0] = '\0';
    temp_unregister(o->slot);
    o->slot = -1;
}

int wc_out_set_open(wc_out_set *s, const char *const *paths, size_t n)
{
    memset(s, 0, sizeof *s);
    s->n = n < WC_OUT_SET_MAX ? n : WC_OUT_SET_MAX;
    for (size_t i = 0; i < s->n; i++) {
        if (!paths[i]) continue;
        if (wc_out_open(&s->out[i], paths[i]) < 0) {
            wc_out_set_abort(s);
            return -1;
        }
        s->used[i] = true;
    }
    return 0;
}

FILE *wc_out_set_file(const wc_out_set *s, size_t i)
{
    return i < s->n && s->used[i] ? s->out[i].f : NULL;
}

int wc_out_set_commit(wc_out_set *s)
{
    int status = WC_EXIT_OK;
    for (size_t i = 0; i < s->n; i++) {
        if (!s->used[i]) continue;
        s->used[i] = false;
        if (wc_out_commit(&s->out[i]) < 0) status = WC_EXIT_FAIL;
    }
    return status;
}

void wc_out_set_abort(wc_out_set *s)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->used[i]) wc_out_abort(&s->out[i]);
    memset(s->used, 0, sizeof s->used);
}

int wc_out_finish_stdout(int status)
{
    errno = 0;
    int e = close_stream(stdout, true);
    if (!e) return status;
    wc_cli_error("cannot write standard output: %s", strerror(e));
    return status == WC_EXIT_OK ? WC_EXIT_FAIL : status;
}

/* ---- a staging folder for outputs of several files ---------------------------- */

int wc_stage_open(wc_stage *s, const char *dest_dir)
{
    memset(s, 0, sizeof *s);
    s->slot = -1;
    if (strlen(dest_dir) + 64 >= WC_OUT_PATH) {
        wc_cli_error("cannot write %s: path too long", dest_dir);
        return -1;
    }
    char dir[WC_OUT_PATH], base[WC_OUT_PATH];
    char trimmed[WC_OUT_PATH];
    snprintf(trimmed, sizeof trimmed, "%s", dest_dir);
    for (size_t n = strlen(trimmed); n > 1 && trimmed[n - 1] == '/'; n--) trimmed[n - 1] = '\0';
    split_path(trimmed, dir, base);
    snprintf(s->tmp, sizeof s->tmp, "%.3800s/.%.200s.tmp.XXXXXX", dir, base);
    if (make_temp(s->tmp, 2, &s->slot) < 0) {
        wc_cli_error("cannot write %s: %s", dest_dir, strerror(errno));
        s->tmp[0] = '\0';
        return -1;
    }
    return 0;
}

/* Renames staged file `name` into dest; errno on failure. */
static int move_one(const wc_stage *s, const char *name, const char *dest)
{
    char from[WC_OUT_PATH + 256], to[WC_OUT_PATH + 256];
    snprintf(from, sizeof from, "%s/%s", s->tmp, name);
    snprintf(to, sizeof to, "%s/%s", dest, name);
    return rename(from, to) == 0 ? 0 : errno;
}

int wc_stage_commit(wc_stage *s, const char *dest, const char *last)
{
    struct stat st;
    int e = 0;
    if (stat(dest, &st) != 0) {
        /* A new folder: the whole staging folder becomes it, in one rename. */
        chmod(s->tmp, 0777 & ~current_umask());
        if (rename(s->tmp, dest) != 0) e = errno;
    } else if (!S_ISDIR(st.st_mode)) {
        e = ENOTDIR;
    } else {
        /* An existing folder: its old list goes first, the new list comes
         * last, so that however far this gets, no list names a missing or
         * half-written kernel file. */
        char list[WC_OUT_PATH + 256];
        if (last) {
            snprintf(list, sizeof list, "%s/%s", dest, last);
            unlink(list);
        }
        DIR *d = opendir(s->tmp);
        if (!d) e = errno;
        for (struct dirent *de; !e && d && (de = readdir(d));) {
            if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
            if (last && !strcmp(de->d_name, last)) continue;
            e = move_one(s, de->d_name, dest);
        }
        if (d) closedir(d);
        if (!e && last) {
            char staged[WC_OUT_PATH + 256];
            snprintf(staged, sizeof staged, "%s/%s", s->tmp, last);
            if (access(staged, F_OK) == 0) e = move_one(s, last, dest);
        }
        if (!e) rmdir(s->tmp);
    }
    if (e) {
        wc_cli_error("cannot write %s: %s", dest, strerror(e));
        wc_stage_abort(s);
        return -1;
    }
    temp_unregister(s->slot);
    s->slot = -1;
    s->tmp[0] = '\0';
    return 0;
}

void wc_stage_abort(wc_stage *s)
{
    if (s->tmp[0]) remove_flat_dir_raw(s->tmp);
    s->tmp[0] = '\0';
    temp_unregister(s->slot);
    s->slot = -1;
}
