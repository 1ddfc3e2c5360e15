/*
 * test_booksim.c - reading GPGPU-Sim's booksim file (src/config/booksim.c):
 * the two values the crossbar model takes from it, booksim's defaults for
 * what a file leaves out, the notes for what is not modelled, errors with
 * file and line, and the file found beside a configuration turning
 * `-icnt_model auto` into islip with its values (and nothing else doing so).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "config/config_internal.h"
#include "mem/xbar.h"

typedef struct notes {
    char text[1024];
    unsigned n;
} notes;

static void note(void *ctx, const char *name, const char *where)
{
    notes *n = ctx;
    n->n++;
    size_t len = strlen(n->text);
    snprintf(n->text + len, sizeof n->text - len, "%s@%s;", name, where);
}

static int parse(const char *text, wc_booksim *b, notes *n, wc_err *err)
{
    memset(n, 0, sizeof *n);
    return wc_booksim_parse(text, strlen(text), "t.icnt", b, note, n, err);
}

static void test_parse(void)
{
    wc_booksim b;
    notes n;
    wc_err err;
    /* comments, spacing, a list over two lines, names not modelled */
    CHECK_EQ(parse("// router\ntopology = fly; num_vcs=1;\n"
                   "packet_size = {{1,2},\n {3}}; // sizes\n"
                   "internal_speedup  = 2.0 ;\nvc_buf_size = 64;",
                   &b, &n, &err),
             0);
    CHECK_EQ(b.speedup_x100, 200);
    CHECK_EQ(b.vc_buf, 64);
    CHECK_EQ(n.n, 0);
    /* GPGPU-Sim 3.x's values */
    CHECK_EQ(parse("topology = fly;\nnum_vcs = 1;\ninternal_speedup = 1.0;\nvc_buf_size = 8;", &b,
                   &n, &err),
             0);
    CHECK_EQ(b.speedup_x100, 100);
    CHECK_EQ(b.vc_buf, 8);
    /* left out: booksim's defaults, speedup 1.0, 8 flits, 16 VCs on a torus */
    CHECK_EQ(parse("k = 27;", &b, &n, &err), 0);
    CHECK_EQ(b.speedup_x100, 100);
    CHECK_EQ(b.vc_buf, 8);
    CHECK_EQ(n.n, 2);
    CHECK(strstr(n.text, "num_vcs") != NULL && strstr(n.text, "topology") != NULL);
    CHECK_EQ(parse("topology = mesh; num_vcs = 4;", &b, &n, &err), 0);
    CHECK_EQ(n.n, 2);
    CHECK_EQ(parse("", &b, &n, &err), 0);
    /* a long value of a name not read is fine; of one read, an error */
    char text[400] = "traffic = {";
    for (int k = 0; k < 60; k++) strcat(text, "1,");
    strcat(text, "2};\ninternal_speedup = 2;");
    CHECK_EQ(parse(text, &b, &n, &err), 0);
    CHECK_EQ(b.speedup_x100, 200);
    char big[200] = "internal_speedup = 2.";
    for (int k = 0; k < 70; k++) strcat(big, "0");
    strcat(big, ";");
    CHECK(parse(big, &b, &n, &err) < 0);
    CHECK(strstr(err.msg, "t.icnt:1: the value of internal_speedup is too long") != NULL);
}

static void test_errors(void)
{
    wc_booksim b;
    notes n;
    wc_err err;
    CHECK(parse("k = 1;\ninternal_speedup = fast;", &b, &n, &err) < 0);
    CHECK(strstr(err.msg, "t.icnt:2: internal_speedup = fast") != NULL);
    CHECK(parse("internal_speedup = 0;", &b, &n, &err) < 0);
    CHECK(parse("vc_buf_size = 2.5;", &b, &n, &err) < 0);
    CHECK(strstr(err.msg, "t.icnt:1: vc_buf_size") != NULL);
    CHECK(parse("vc_buf_size = 0;", &b, &n, &err) < 0);
    CHECK(parse("k = 1;\n\nn = 1", &b, &n, &err) < 0); /* no ';' */
    CHECK(strstr(err.msg, "t.icnt:3:") != NULL && strstr(err.msg, "';'") != NULL);
    CHECK(parse("= 3;", &b, &n, &err) < 0);
    CHECK(strstr(err.msg, "t.icnt:1: expected a name") != NULL);
    CHECK(parse("k 3;", &b, &n, &err) < 0);
    CHECK(strstr(err.msg, "expected '='") != NULL);
    CHECK(parse("k = 3};", &b, &n, &err) < 0);
    CHECK(strstr(err.msg, "'}'") != NULL);
}

/* Writes `text` to dir/name. */
static void put(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

/* Loads dir/gpgpusim.config into c; returns the load's result. */
static int load(const char *dir, wc_config *c, notes *n, wc_err *err)
{
    char path[512];
    snprintf(path, sizeof path, "%s/gpgpusim.config", dir);
    wc_config_defaults(c);
    memset(n, 0, sizeof *n);
    return wc_config_load_file(c, path, note, n, err);
}

static void test_beside_config(void)
{
    char dir[] = "/tmp/wc_booksim_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    wc_config c;
    notes n;
    wc_err err;
    put(dir, "b.icnt", "topology = fly; num_vcs = 1; internal_speedup = 1.0; vc_buf_size = 8;\n");
    /* found beside the configuration: auto becomes islip with its values */
    put(dir, "gpgpusim.config", "-network_mode 1\n-inter_config_file b.icnt\n");
    CHECK_EQ(load(dir, &c, &n, &err), 0);
    CHECK_EQ(strcmp(c.icnt_model, "islip:speedup=1.00,buf=8"), 0);
    CHECK_EQ(n.n, 0);
    bool x;
    wc_xbar_params p;
    CHECK_EQ(wc_xbar_parse(c.icnt_model, c.network_mode, &x, &p, &err), 0);
    CHECK(x);
    CHECK_EQ(p.speedup_x100, 100);
    CHECK_EQ(p.out_buf, 8);
    CHECK_EQ(wc_config_validate(&c, &err), 0);
    /* not there: reported as ignored, auto's defaults written out */
    put(dir, "gpgpusim.config", "-network_mode 1\n-inter_config_file missing.icnt\n");
    CHECK_EQ(load(dir, &c, &n, &err), 0);
    CHECK_EQ(strcmp(c.icnt_model, "islip:speedup=2.00,buf=64"), 0);
    CHECK_EQ(n.n, 1);
    CHECK(strstr(n.text, "inter_config_file") != NULL);
    /* an explicit model, or GPGPU-Sim's local crossbar: the file is not read */
    put(dir, "gpgpusim.config", "-network_mode 1\n-icnt_model ports\n-inter_config_file b.icnt\n");
    CHECK_EQ(load(dir, &c, &n, &err), 0);
    CHECK_EQ(strcmp(c.icnt_model, "ports"), 0);
    put(dir, "gpgpusim.config", "-network_mode 2\n-inter_config_file b.icnt\n");
    CHECK_EQ(load(dir, &c, &n, &err), 0);
    CHECK_EQ(strcmp(c.icnt_model, "auto"), 0);
    /* a broken file: the error names it and the line */
    put(dir, "b.icnt", "num_vcs = 1;\nvc_buf_size = many;\n");
    put(dir, "gpgpusim.config", "-network_mode 1\n-inter_config_file b.icnt\n");
    CHECK(load(dir, &c, &n, &err) < 0);
    CHECK(strstr(err.msg, "b.icnt:2: vc_buf_size = many") != NULL);
    /* the checked-in example file */
    wc_booksim b;
    FILE *f = fopen("tests/data/booksim/fermi.icnt", "rb");
    CHECK(f != NULL);
    if (f) {
        char text[4096];
        size_t len = fread(text, 1, sizeof text, f);
        fclose(f);
        memset(&n, 0, sizeof n);
        CHECK_EQ(wc_booksim_parse(text, len, "fermi.icnt", &b, note, &n, &err), 0);
        CHECK_EQ(b.speedup_x100, 200);
        CHECK_EQ(b.vc_buf, 64);
        CHECK_EQ(n.n, 0);
    }
    char path[512];
    snprintf(path, sizeof path, "%s/b.icnt", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/gpgpusim.config", dir);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    RUN(test_parse);
    RUN(test_errors);
    RUN(test_beside_config);
    return check_summary("booksim");
}
