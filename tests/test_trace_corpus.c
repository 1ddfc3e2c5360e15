/*
 * test_trace_corpus.c - replays the saved fuzzer inputs in
 * tests/fuzz_corpus/<reader>/ (inputs that once crashed a reader, plus
 * hand-made nasty cases) through the same bounded harness the fuzzers use
 * (fuzz/fuzz_common.h).  Every input must be either read or rejected with a
 * message; a crash fails the test binary.
 */
#include <dirent.h>

#include "../fuzz/fuzz_common.h"
#include "check.h"

static unsigned replay_dir(const char *dir, wc_trace_format fmt, unsigned *bad)
{
    DIR *d = opendir(dir);
    unsigned n = 0;
    if (!d) return 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f) continue;
        static unsigned char buf[1 << 20];
        size_t len = fread(buf, 1, sizeof buf, f);
        fclose(f);
        int r = fuzz_one(buf, len, fmt);
        if (r < 0) {
            fprintf(stderr, "%s: rejected without a message\n", path);
            (*bad)++;
        }
        n++;
    }
    closedir(d);
    return n;
}

static void test_replay(void)
{
    unsigned bad = 0, n = 0;
    n += replay_dir("tests/fuzz_corpus/accelsim", WC_TRACE_ACCELSIM, &bad);
    n += replay_dir("tests/fuzz_corpus/trc", WC_TRACE_TRC, &bad);
    n += replay_dir("tests/fuzz_corpus/wct", WC_TRACE_WCT, &bad);
    CHECK(n >= 3);
    CHECK_EQ(bad, 0);
}

int main(void)
{
    RUN(test_replay);
    return check_summary("trace_corpus");
}
