/*
 * test_config_corpus.c - replays the inputs that once broke the configuration
 * parser under the fuzzer (tests/fuzz_corpus/config/).  Each is loaded from an
 * exactly-sized, unterminated buffer, as the fuzzer does, so ASan (make asan)
 * catches a read past the end; each must load or fail with a message naming
 * the input.
 */
#include <dirent.h>
#include <stdlib.h>

#include "check.h"
#include "warpcache/config.h"

static void test_replay_corpus(void)
{
    const char *dir = "tests/fuzz_corpus/config";
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    if (!d) return;
    int seen = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f) continue;
        fseek(f, 0, SEEK_END);
        long n = ftell(f);
        rewind(f);
        char *buf = malloc(n ? (size_t)n : 1);
        size_t got = fread(buf, 1, (size_t)n, f);
        fclose(f);
        wc_config cfg;
        wc_config_defaults(&cfg);
        wc_err err = {{0}};
        if (wc_config_load_text(&cfg, buf, got, "corpus", NULL, NULL, &err) < 0)
            CHECK(strncmp(err.msg, "corpus:", 7) == 0);
        free(buf);
        seen++;
    }
    closedir(d);
    CHECK(seen > 0);
}

int main(void)
{
    RUN(test_replay_corpus);
    return check_summary("config_corpus");
}
