/*
 * test_config.c - configuration: GPGPU-Sim cache geometry strings, the
 * gpgpusim.config loader on the four real files of shared/data (values
 * checked by hand against those files), warpcache's own configs/ files
 * against the built-in defaults, dump -> load round trips, and the error
 * messages of bad input (each must name the file, the line and the option).
 */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "warpcache/config.h"

#define GPGPUSIM_DIR WC_SHARED_DIR "/data/gpgpusim-configs/"
#define GTX480       GPGPUSIM_DIR "SM2_GTX480/gpgpusim.config"
#define TITANX       GPGPUSIM_DIR "SM6_TITANX/gpgpusim.config"
#define RTX2060      GPGPUSIM_DIR "SM75_RTX2060/gpgpusim.config"
#define QV100        GPGPUSIM_DIR "SM7_QV100/gpgpusim.config"

/* ---- helpers ------------------------------------------------------------ */

typedef struct ignored_list {
    int n;
    char name[256][128];
    char where[256][600];
} ignored_list;

static void collect_ignored(void *ctx, const char *name, const char *where)
{
    ignored_list *l = ctx;
    if (l->n >= 256) return;
    snprintf(l->name[l->n], sizeof l->name[0], "%s", name);
    snprintf(l->where[l->n], sizeof l->where[0], "%s", where);
    l->n++;
}

static int ignored_index(const ignored_list *l, const char *name)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->name[i], name) == 0) return i;
    return -1;
}

/* Line number (from 1) of the first line of `path` that starts with `prefix`,
 * found by reading the file line by line (independently of the loader). */
static int line_of(const char *path, const char *prefix)
{
    FILE *f = fopen(path, "r");
    char buf[4096];
    int line = 0, found = -1;
    if (!f) return -1;
    while (found < 0 && fgets(buf, sizeof buf, f)) {
        line++;
        if (strncmp(buf, prefix, strlen(prefix)) == 0) found = line;
    }
    fclose(f);
    return found;
}

/* Compares two configurations except source_file; prints differing options. */
static bool same_config(const wc_config *a, const wc_config *b)
{
    wc_config x, y;
    memcpy(&x, a, sizeof x);
    memcpy(&y, b, sizeof y);
    memset(x.source_file, 0, sizeof x.source_file);
    memset(y.source_file, 0, sizeof y.source_file);
    /* where the values came from, not what they are */
    x.dependents_set = y.dependents_set = 0;
    if (memcmp(&x, &y, sizeof x) == 0) return true;
    size_t n;
    const wc_option_doc *docs = wc_config_options(&n);
    for (size_t i = 0; i < n; i++) {
        char va[512], vb[512];
        wc_config_get(a, docs[i].name, va, sizeof va);
        wc_config_get(b, docs[i].name, vb, sizeof vb);
        if (strcmp(va, vb)) fprintf(stderr, "  -%s: %s vs %s\n", docs[i].name, va, vb);
    }
    return false;
}

/* Writes `text` to a new temporary file; returns its path in buf. */
static void temp_file(const char *text, char *path, size_t n)
{
    snprintf(path, n, "/tmp/wc_test_config_XXXXXX");
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0) return;
    size_t len = strlen(text);
    CHECK(write(fd, text, len) == (ssize_t)len);
    close(fd);
}

static int load(wc_config *cfg, const char *path, ignored_list *ign, wc_err *err)
{
    return wc_config_load_file(cfg, path, collect_ignored, ign, err);
}

/* ---- geometry strings -------------------------------------------------- */

static void test_geom_fields(void)
{
    wc_cache_geom g;
    wc_err err;
    /* The GTX480 L2 string, field by field. */
    CHECK_EQ(wc_cache_geom_parse("S:64:128:8,L:B:m:L:L,A:256:4,4:0,32", &g, &err), 0);
    CHECK_EQ(g.type, 'S');
    CHECK_EQ(g.nsets, 64);
    CHECK_EQ(g.line_bytes, 128);
    CHECK_EQ(g.assoc, 8);
    CHECK_EQ(g.repl, 'L');
    CHECK_EQ(g.write_policy, 'B');
    CHECK_EQ(g.alloc_policy, 'm');
    CHECK_EQ(g.write_alloc, 'L');
    CHECK_EQ(g.set_index, 'L');
    CHECK_EQ(g.mshr_type, 'A');
    CHECK_EQ(g.mshr_entries, 256);
    CHECK_EQ(g.mshr_max_merge, 4);
    CHECK_EQ(g.miss_queue, 4);
    CHECK_EQ(g.result_fifo, 0);
    CHECK_EQ(g.data_port_width, 32);
    /* The Fermi L1 string of the spec. */
    CHECK_EQ(wc_cache_geom_parse("N:32:128:4,L:L:m:N:H,S:64:8,8", &g, &err), 0);
    CHECK_EQ(g.type, 'N');
    CHECK_EQ(g.set_index, 'H');
    CHECK_EQ(g.mshr_type, 'S');
    CHECK_EQ(g.mshr_entries, 64);
    CHECK_EQ(g.mshr_max_merge, 8);
    CHECK_EQ(g.miss_queue, 8);
    /* warpcache's replacement extensions */
    CHECK_EQ(wc_cache_geom_parse("N:32:128:4,N:L:m:N:P,A:32:8,8", &g, &err), 0);
    CHECK_EQ(g.repl, 'N');
    CHECK_EQ(g.set_index, 'P');
    CHECK_EQ(wc_cache_geom_parse("N:64:128:8,R:B:f:W:X,A:32:8,8", &g, &err), 0);
    CHECK_EQ(g.repl, 'R');
    /* GPGPU-Sim 3.x spelling: no cache type, no set-index letter */
    CHECK_EQ(wc_cache_geom_parse("32:128:4,L:L:m:N,A:32:8,8", &g, &err), 0);
    CHECK_EQ(g.type, 'N');
    CHECK_EQ(g.nsets, 32);
    CHECK_EQ(g.set_index, 'L');
    char buf[128];
    wc_cache_geom_format(&g, buf, sizeof buf);
    CHECK_STR(buf, "N:32:128:4,L:L:m:N:L,A:32:8,8");
}

static void test_geom_round_trip(void)
{
    static const char *const strings[] = {
        "S:64:128:8,L:B:m:L:L,A:256:4,4:0,32", "S:1:128:256,L:L:s:N:L,A:256:8,16:0,32",
        "N:32:128:4,L:L:m:N:H,S:64:8,8",       "N:64:128:6,L:L:m:N:H,A:32:8,8",
        "N:4:128:24,L:R:m:N:L,T:128:4,128:2",  "S:32:128:24,L:B:m:L:P,A:192:4,32:0,32",
        "N:1:32:1,F:T:f:W:X,A:1:1,1",
    };
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
        wc_cache_geom g, g2;
        wc_err err;
        char buf[128];
        CHECK_EQ(wc_cache_geom_parse(strings[i], &g, &err), 0);
        wc_cache_geom_format(&g, buf, sizeof buf);
        CHECK_STR(buf, strings[i]);
        CHECK_EQ(wc_cache_geom_parse(buf, &g2, &err), 0);
        CHECK(memcmp(&g, &g2, sizeof g) == 0);
    }
}

static void test_geom_errors(void)
{
    static const struct {
        const char *text, *expect;
    } cases[] = {
        {"N:0:128:4,L:L:m:N:L,A:32:8,8", "sets = 0"},
        {"N:48:128:4,L:L:m:N:L,A:32:8,8", "sets = 48: must be a power of two"},
        {"Q:32:128:4,L:L:m:N:H,A:32:8,8", "cache type 'Q'"},
        {"N:32:128:4,L:L:m:N:H,A:32:0,8", "MSHR max merge = 0"},
        {"N:32:128:4,L:L:m:N:H,A:0:8,8", "MSHR entries = 0"},
        {"N:32:128:4,L:L:m:N:H,A:32:8,0", "miss queue = 0"},
        {"N:32:96:4,L:L:m:N:L,A:32:8,8", "line size = 96"},
        {"N:32:16:4,L:L:m:N:L,A:32:8,8", "line size = 16"},
        {"S:4:1024:4,L:L:m:N:L,A:32:8,8", "sectored cache (type S) holds at most 16 sectors"},
        {"N:32:128:0,L:L:m:N:L,A:32:8,8", "associativity = 0"},
        {"N:16:128:4,L:L:m:N:H,A:32:8,8", "'H' (Fermi hash) needs 32 or 64 sets, not 16"},
        {"N:32:128:4,Z:L:m:N:L,A:32:8,8", "replacement policy 'Z'"},
        {"N:32:128:4,L:Q:m:N:L,A:32:8,8", "write policy 'Q'"},
        {"N:32:128:4,L:L:x:N:L,A:32:8,8", "allocation policy 'x'"},
        {"N:32:128:4,L:L:m:Q:L,A:32:8,8", "write-allocate policy 'Q'"},
        {"N:32:128:4,L:L:m:N:Z,A:32:8,8", "set index function 'Z'"},
        {"N:32:128:4,L:L:m:N:L,Q:32:8,8", "MSHR type 'Q'"},
        {"N:32:128:4,L:L:m:N:L,T:32:8,8", "texture fifo) needs a result fifo"},
        {"N:32:12a8:4,L:L:m:N:L,A:32:8,8", "line size \"12a8\" is not a number"},
        {"N:-32:128:4,L:L:m:N:L,A:32:8,8", "sets \"-32\" is negative"},
        {"N:99999999999:128:4,L:L:m:N:L,A:32:8,8", "sets \"99999999999\" is too large"},
        {"N:32:128:4,LL:L:m:N:L,A:32:8,8", "replacement policy \"LL\" must be a single letter"},
        {"N:32:128:4,L:L:m:N:L,A:32:8,8,32", "needs the result fifo field"},
        {"N:32:128:4,L:L:m:N:L,A:32:8", "fewer than the 4 or 5"},
        {"N:32:128:4,L:L:m:N:L,A:32:8,8:0,32,1", "more than the 4 or 5"},
        {"N:32:128:4:1,L:L:m:N:L,A:32:8,8", "first group"},
        {"N:65536:4096:4096,L:L:m:N:L,A:32:8,8", "exceeds 1 GiB"},
        {"none", "not modelled"},
        {"", "fewer than"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        wc_cache_geom g;
        memset(&g, 0x5a, sizeof g);
        wc_cache_geom before = g;
        wc_err err = {{0}};
        CHECK_EQ(wc_cache_geom_parse(cases[i].text, &g, &err), -1);
        if (!strstr(err.msg, cases[i].expect))
            fprintf(stderr, "  \"%s\": got \"%s\", expected \"%s\"\n", cases[i].text, err.msg,
                    cases[i].expect);
        CHECK(strstr(err.msg, cases[i].expect) != NULL);
        CHECK(memcmp(&g, &before, sizeof g) == 0); /* untouched on error */
    }
}

/* ---- defaults and option table ------------------------------------------ */

static void test_defaults(void)
{
    wc_config c;
    wc_err err;
    wc_config_defaults(&c);
    CHECK_EQ(wc_config_validate(&c, &err), 0);
    /* techniques.md baseline, by hand */
    CHECK_EQ(wc_config_n_sm(&c), 15);
    CHECK_EQ(c.max_threads_per_sm / c.warp_size, 48);
    CHECK_EQ(c.max_blocks_per_sm, 8);
    CHECK_EQ(c.regs_per_sm, 32768);
    CHECK_EQ(c.shmem_per_sm, 48 * 1024);
    CHECK_EQ(c.n_sched_per_sm, 2);
    CHECK_STR(c.scheduler, "gto");
    CHECK_EQ((uint64_t)c.l1.nsets * c.l1.assoc * c.l1.line_bytes, 16 * 1024); /* 16 KB */
    CHECK_EQ(c.l1.assoc, 4);
    CHECK_EQ(c.l1.set_index, 'H');
    CHECK_EQ(c.l1.repl, 'L');
    CHECK_EQ(c.l1.alloc_policy, 'm');
    CHECK_EQ(c.l1.mshr_entries, 32);
    /* L2: 768 KB in 6 partitions, 16-way, 128 B lines */
    CHECK_EQ((uint64_t)c.l2.nsets * c.l2.assoc * c.l2.line_bytes * wc_config_n_l2(&c), 768 * 1024);
    CHECK_EQ(wc_config_n_l2(&c), 6);
    CHECK_EQ(c.l2.assoc, 16);
    CHECK_EQ(c.l2.write_policy, 'B');
    CHECK_EQ(c.flit_bytes, 32);
    CHECK_EQ(c.n_mem, 6);
    CHECK_NEAR(c.clk_dram, 924.0, 0);
    CHECK_EQ(c.dram_chips_per_channel, 2);
    CHECK_EQ(c.seed, 1);
}

/* An option that acts only under a switch, set while the switch is off, is
 * listed; the switch on (in any order) or the option never set: nothing. */
static void test_inert_options(void)
{
    wc_config c;
    wc_err err;
    char buf[256];
    wc_config_defaults(&c);
    CHECK_EQ(wc_config_inert_options(&c, buf, sizeof buf), 0u);
    CHECK_STR(buf, "");
    /* both mechanisms are on by default: the options act */
    CHECK_EQ(wc_config_set(&c, "gpgpu_shmem_num_banks", "16", "t", &err), 0);
    CHECK_EQ(wc_config_inert_options(&c, buf, sizeof buf), 0u);
    CHECK_EQ(wc_config_set(&c, "icache", "0", "t", &err), 0);
    CHECK_EQ(wc_config_set(&c, "shmem_bank_conflicts", "0", "t", &err), 0);
    CHECK_EQ(wc_config_set(&c, "-gpgpu_cache:il1", "N:4:128:4,L:R:f:N:L,A:2:32,4", "t", &err), 0);
    CHECK_EQ(wc_config_inert_options(&c, buf, sizeof buf), 2u);
    CHECK_STR(buf, "-gpgpu_cache:il1 (needs -icache 1), -gpgpu_shmem_num_banks (needs "
                   "-shmem_bank_conflicts 1)");
    CHECK_EQ(wc_config_set(&c, "icache", "1", "t", &err), 0);
    CHECK_EQ(wc_config_inert_options(&c, buf, sizeof buf), 1u);
    CHECK_STR(buf, "-gpgpu_shmem_num_banks (needs -shmem_bank_conflicts 1)");
    /* the local crossbar's options act when -icnt_model (auto under
     * -network_mode 2, or local) selects it */
    wc_config_defaults(&c);
    CHECK_EQ(wc_config_set(&c, "icnt_in_buffer_limit", "512", "t", &err), 0);
    CHECK_EQ(wc_config_inert_options(&c, buf, sizeof buf), 1u);
    CHECK_STR(buf, "-icnt_in_buffer_limit (needs -icnt_model local)");
    CHECK_EQ(wc_config_set(&c, "network_mode", "2", "t", &err), 0);
    CHECK_EQ(wc_config_inert_options(&c, buf, sizeof buf), 0u);
    CHECK_EQ(wc_config_set(&c, "icnt_model", "ports", "t", &err), 0);
    CHECK_EQ(wc_config_inert_options(&c, buf, sizeof buf), 1u);
    /* a rejected value sets nothing */
    wc_config_defaults(&c);
    c.shmem_bank_conflicts = 0;
    CHECK(wc_config_set(&c, "gpgpu_shmem_warp_parts", "3", "t", &err) < 0);
    CHECK_EQ(wc_config_inert_options(&c, buf, sizeof buf), 0u);
}

static void test_set_by_name(void)
{
    wc_config c;
    wc_err err;
    wc_config_defaults(&c);
    CHECK_EQ(wc_config_set(&c, "gpgpu_n_mem", "8", NULL, &err), 0);
    CHECK_EQ(c.n_mem, 8);
    CHECK_EQ(wc_config_set(&c, "-gpgpu_n_mem", " 12 ", NULL, &err), 0); /* dash, blanks */
    CHECK_EQ(c.n_mem, 12);
    CHECK_EQ(wc_config_set(&c, "gpgpu_n_mem", "0x10", NULL, &err), 0);
    CHECK_EQ(c.n_mem, 16);
    CHECK_EQ(wc_config_set(&c, "gpgpu_shader_core_pipeline", "2048:32", NULL, &err), 0);
    CHECK_EQ(c.max_threads_per_sm, 2048);
    CHECK_EQ(c.warp_size, 32);
    CHECK_EQ(wc_config_set(&c, "gpgpu_clock_domains", "1400.5:700:700:1848", NULL, &err), 0);
    CHECK_NEAR(c.clk_core, 1400.5, 0);
    CHECK_NEAR(c.clk_dram, 1848.0, 0);
    CHECK_EQ(wc_config_set(&c, "gpgpu_scheduler", "two_level_active:6:0:1", NULL, &err), 0);
    CHECK_STR(c.scheduler, "two_level_active:6:0:1");
    CHECK_EQ(wc_config_set(&c, "gpgpu_scheduler", "lrr", NULL, &err), 0);
    CHECK_EQ(wc_config_set(&c, "gpgpu_gmem_skip_L1D", "1", NULL, &err), 0);
    CHECK(c.l1_skip);
    CHECK_EQ(wc_config_set(&c, "seed", "18446744073709551615", NULL, &err), 0);
    CHECK(c.seed == UINT64_MAX);
    CHECK_EQ(wc_config_set(&c, "coalesce_bytes", "32", NULL, &err), 0);
    CHECK_EQ(c.coalesce_bytes, 32);
    CHECK_EQ(wc_config_set(&c, "l1_org", "conventional", NULL, &err), 0);
    CHECK_STR(c.l1_org, "conventional");
    CHECK_EQ(wc_config_set(&c, "no_such_option", "1", NULL, &err), 1);

    /* bad values: -1, "WHERE: option -NAME: reason", configuration unchanged */
    static const struct {
        const char *name, *value, *expect;
    } bad[] = {
        {"gpgpu_n_mem", "12abc", "\"12abc\" is not a number"},
        {"gpgpu_n_mem", "-3", "is negative"},
        {"gpgpu_n_mem", "+3", "is not a number"},
        {"gpgpu_n_mem", "", "is empty"},
        {"gpgpu_n_mem", "0", "0 is out of range (allowed 1..1024)"},
        {"gpgpu_n_clusters", "4294967296", "is too large"},
        {"seed", "18446744073709551616", "is too large"},
        {"gpgpu_shader_core_pipeline", "1536:16", "warp size 16 is not supported"},
        {"gpgpu_shader_core_pipeline", "1500:32", "1500 threads per SM"},
        {"gpgpu_shader_core_pipeline", "1536", "is not <threads per SM>:<warp size>"},
        {"gpgpu_clock_domains", "700:700:700", "is not <core>:<interconnect>:<L2>:<DRAM>"},
        {"gpgpu_clock_domains", "700:700:x:924", "L2 clock \"x\" is not a number"},
        {"gpgpu_clock_domains", "700:0:700:924", "interconnect clock 0 MHz"},
        {"gpgpu_scheduler", "fancy", "scheduler \"fancy\" is not supported (supported: lrr, gto"},
        {"gpgpu_scheduler", "two_level_active:6:x", "two_level_active: inner=x: must be 0"},
        /* gto takes no parameters: refused here, as the run would */
        {"gpgpu_scheduler", "gto:6:0:1", "gto: takes no parameters (got \"6:0:1\")"},
        /* GPGPU-Sim names the simulator has no policy for: refused when the
         * configuration is read, not when `run` builds the GPU */
        {"gpgpu_scheduler", "rrr", "scheduler \"rrr\" is not supported"},
        {"gpgpu_scheduler", "old", "scheduler \"old\" is not supported"},
        {"gpgpu_scheduler", "warp_limiting", "scheduler \"warp_limiting\" is not supported"},
        {"l1_org", "nosuch", "unknown L1 organisation \"nosuch\" (known: conventional"},
        /* 256 warp slots per SM at most (src/core/gpu.h WC_MAX_SLOTS) */
        {"gpgpu_shader_core_pipeline", "8224:32", "must be a multiple of 32 from 32 to 8192"},
        {"gpgpu_gmem_skip_L1D", "2", "is not a boolean"},
        {"coalesce_bytes", "96", "96 is not a power of two"},
        {"partition_interleave", "384", "384 is not a power of two"},
        {"l1_org", "my org", "is not a name"},
        {"gpgpu_cache:dl1", "N:0:128:4,L:L:m:N:L,A:32:8,8", "sets = 0"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        wc_config before;
        memcpy(&before, &c, sizeof c);
        err.msg[0] = '\0';
        CHECK_EQ(wc_config_set(&c, bad[i].name, bad[i].value, "cmdline", &err), -1);
        char prefix[128];
        snprintf(prefix, sizeof prefix, "cmdline: option -%s: ", bad[i].name);
        bool ok = strncmp(err.msg, prefix, strlen(prefix)) == 0 && strstr(err.msg, bad[i].expect);
        if (!ok) fprintf(stderr, "  got \"%s\", expected \"%s\"\n", err.msg, bad[i].expect);
        CHECK(ok);
        CHECK(memcmp(&before, &c, sizeof c) == 0);
    }
}

/* Every option: its formatted value sets back; every option is documented. */
/* -mem_issue_ahead auto = ID_OC_MEM + memory collector units + OC_EX_MEM,
 * read from either of GPGPU-Sim's -gpgpu_pipeline_widths layouts: 3.x's
 * "2,1,1,2,1,1,2" has ID_OC_MEM third and OC_EX_MEM sixth (1 + 2 + 1 = 4);
 * the TITAN X file's 4.x "4,0,0,4,4,4,0,0,4,4,8" has them fifth and tenth
 * (4 + 8 + 4 = 16 with 8 units); a number is taken as it is. */
static void test_mem_issue_ahead(void)
{
    wc_config c;
    wc_config_defaults(&c);
    wc_err err = {{0}};
    CHECK_EQ(wc_config_mem_issue_ahead(&c), 4); /* the built-in GTX480 values */
    CHECK_EQ(wc_config_set(&c, "gpgpu_pipeline_widths", "2,1,1,2,1,1,2", "t", &err), 0);
    CHECK_EQ(wc_config_mem_issue_ahead(&c), 4);
    CHECK_EQ(wc_config_set(&c, "gpgpu_pipeline_widths", "2,1,3,2,1,5,2", "t", &err), 0);
    CHECK_EQ(wc_config_mem_issue_ahead(&c), 3 + 2 + 5);
    CHECK_EQ(wc_config_set(&c, "gpgpu_pipeline_widths", "4,0,0,4,4,4,0,0,4,4,8", "t", &err), 0);
    CHECK_EQ(wc_config_set(&c, "gpgpu_operand_collector_num_units_mem", "8", "t", &err), 0);
    CHECK_EQ(wc_config_mem_issue_ahead(&c), 16);
    CHECK_EQ(wc_config_set(&c, "mem_issue_ahead", "0", "t", &err), 0);
    CHECK_EQ(wc_config_mem_issue_ahead(&c), 0);
    CHECK_EQ(wc_config_set(&c, "mem_issue_ahead", "7", "t", &err), 0);
    CHECK_EQ(wc_config_mem_issue_ahead(&c), 7);
    /* 8 or 9 fields fit neither layout; 64 is the largest width */
    CHECK(wc_config_set(&c, "gpgpu_pipeline_widths", "1,1,1,1,1,1,1,1", "t", &err) < 0);
    CHECK(strstr(err.msg, "8 fields") != NULL);
    CHECK(wc_config_set(&c, "gpgpu_pipeline_widths", "1,1,65,1,1,1,1", "t", &err) < 0);
    CHECK(wc_config_set(&c, "gpgpu_pipeline_widths", "1,,1,1,1,1,1", "t", &err) < 0);
    CHECK(wc_config_set(&c, "mem_issue_ahead", "-1", "t", &err) < 0);
    CHECK(wc_config_set(&c, "mem_issue_ahead", "4x", "t", &err) < 0);
}

static void test_option_table(void)
{
    wc_config c, d;
    wc_err err;
    size_t n;
    const wc_option_doc *docs = wc_config_options(&n);
    /* every option the brief asks for is in the table */
    static const char *const expected[] = {"gpgpu_n_clusters",
                                           "gpgpu_n_cores_per_cluster",
                                           "gpgpu_shader_core_pipeline",
                                           "gpgpu_shader_cta",
                                           "gpgpu_shader_registers",
                                           "gpgpu_shmem_size",
                                           "gpgpu_num_sched_per_core",
                                           "gpgpu_scheduler",
                                           "gpgpu_cache:dl1",
                                           "gpgpu_cache:dl2",
                                           "gpgpu_l1_latency",
                                           "gpgpu_smem_latency",
                                           "gpgpu_gmem_skip_L1D",
                                           "gpgpu_flush_l1_cache",
                                           "gpgpu_n_mem",
                                           "gpgpu_n_sub_partition_per_mchannel",
                                           "gpgpu_l2_rop_latency",
                                           "dram_latency",
                                           "gpgpu_dram_buswidth",
                                           "gpgpu_dram_burst_length",
                                           "dram_data_command_freq_ratio",
                                           "gpgpu_n_mem_per_ctrlr",
                                           "dram_atoms",
                                           "gpgpu_clock_domains",
                                           "icnt_flit_size",
                                           "gpgpu_coalesce_arch",
                                           "l1_org",
                                           "l1_ipoly_poly",
                                           "l2_ipoly_poly",
                                           "l1_rd_hist",
                                           "l1_mshr_per_warp",
                                           "ldst_loads_per_warp",
                                           "coalesce_bytes",
                                           "icnt_latency",
                                           "icnt_flits_per_cycle",
                                           "icnt_model",
                                           "inter_config_file",
                                           "icnt_in_buffer_limit",
                                           "icnt_out_buffer_limit",
                                           "icnt_subnets",
                                           "icnt_arbiter_algo",
                                           "icnt_grant_cycles",
                                           "network_mode",
                                           "ctrl_bytes",
                                           "partition_interleave",
                                           "gpgpu_mem_addr_mapping",
                                           "gpgpu_mem_address_mask",
                                           "gpgpu_memory_partition_indexing",
                                           "alu_latency",
                                           "sfu_latency",
                                           "oc_wb_latency",
                                           "shmem_issue_limit",
                                           "shmem_bank_conflicts",
                                           "gpgpu_shmem_num_banks",
                                           "gpgpu_shmem_limited_broadcast",
                                           "gpgpu_shmem_warp_parts",
                                           "exit_store_acks",
                                           "block_rr_carry",
                                           "max_warp_limit",
                                           "sched_rotate",
                                           "ifetch",
                                           "icache",
                                           "gpgpu_cache:il1",
                                           "gpgpu_perfect_inst_const_cache",
                                           "gpgpu_kernel_launch_latency",
                                           "gpgpu_TB_launch_latency",
                                           "mem_stage",
                                           "mem_issue_ahead",
                                           "gpgpu_operand_collector_num_units_mem",
                                           "gpgpu_pipeline_widths",
                                           "gpgpu_dram_timing_opt",
                                           "controllers",
                                           "analysis",
                                           "seed",
                                           "max_cycles"};
    size_t n_expected = sizeof expected / sizeof expected[0];
    CHECK_EQ(n, n_expected);
    for (size_t i = 0; i < n_expected; i++) {
        bool found = false;
        for (size_t j = 0; j < n; j++) found |= strcmp(docs[j].name, expected[i]) == 0;
        if (!found) fprintf(stderr, "  option %s missing\n", expected[i]);
        CHECK(found);
    }
    wc_config_defaults(&c);
    memset(&d, 0, sizeof d);
    wc_config_defaults(&d);
    FILE *md = fopen("docs/config.md", "r");
    CHECK(md != NULL);
    static char text[1 << 17];
    size_t len = md ? fread(text, 1, sizeof text - 1, md) : 0;
    text[len] = '\0';
    if (md) fclose(md);
    for (size_t i = 0; i < n; i++) {
        char v[512], name[160];
        CHECK(docs[i].help && docs[i].help[0]);
        CHECK_EQ(wc_config_get(&c, docs[i].name, v, sizeof v), 0);
        CHECK_EQ(wc_config_set(&d, docs[i].name, v, "t", &err), 0);
        snprintf(name, sizeof name, "`-%s`", docs[i].name);
        if (!strstr(text, name)) fprintf(stderr, "  %s not in docs/config.md\n", name);
        CHECK(strstr(text, name) != NULL);
        for (size_t j = 0; j < i; j++) CHECK(strcmp(docs[i].name, docs[j].name) != 0);
    }
    CHECK(same_config(&c, &d));
    char v[16];
    CHECK_EQ(wc_config_get(&c, "nonexistent", v, sizeof v), 1);
}

/* ---- the real GPGPU-Sim files ------------------------------------------- */

static void print_ignored(const char *path, const ignored_list *l)
{
    fprintf(stderr, "  %s: %d ignored:", path, l->n);
    for (int i = 0; i < l->n; i++) fprintf(stderr, " %s", l->name[i]);
    fprintf(stderr, "\n");
}

static void test_gtx480(void)
{
    wc_config c;
    wc_err err;
    static ignored_list ign;
    memset(&ign, 0, sizeof ign);
    wc_config_defaults(&c);
    int rc = load(&c, GTX480, &ign, &err);
    if (rc) fprintf(stderr, "  %s\n", err.msg);
    CHECK_EQ(rc, 0);
    print_ignored(GTX480, &ign);
    CHECK_STR(c.source_file, GTX480);
    /* -gpgpu_cache:dl1  N:32:128:4,L:L:m:N:H,S:64:8,8 */
    CHECK_EQ(c.l1.type, 'N');
    CHECK_EQ(c.l1.nsets, 32);
    CHECK_EQ(c.l1.line_bytes, 128);
    CHECK_EQ(c.l1.assoc, 4);
    CHECK_EQ(c.l1.set_index, 'H');
    CHECK_EQ(c.l1.mshr_type, 'S');
    CHECK_EQ(c.l1.mshr_entries, 64);
    /* -gpgpu_cache:dl2 S:64:128:8,L:B:m:L:L,A:256:4,4:0,32 */
    CHECK_EQ(c.l2.type, 'S');
    CHECK_EQ(c.l2.assoc, 8);
    CHECK_EQ(c.l2.data_port_width, 32);
    CHECK_EQ(c.n_mem, 6);
    CHECK_EQ(c.sub_per_channel, 2);
    CHECK_EQ(c.n_clusters, 15);
    CHECK_EQ(c.max_threads_per_sm, 1536);
    CHECK_NEAR(c.clk_core, 700.0, 0);
    CHECK_NEAR(c.clk_dram, 924.0, 0);
    CHECK_EQ(c.flit_bytes, 40);
    CHECK_EQ(c.l1_latency, 35);
    CHECK_EQ(c.smem_latency, 26);
    CHECK_EQ(c.l2_latency, 120);
    CHECK_EQ(c.dram_latency, 100);
    CHECK_EQ(c.dram_chips_per_channel, 2);
    CHECK_EQ(c.dram_freq_ratio, 4); /* value followed by "# GDDR5 is QDR" */
    CHECK_EQ(c.coalesce_arch, 20);
    CHECK_STR(c.scheduler, "gto"); /* the commented-out lrr / two_level lines do not count */
    CHECK_EQ(c.n_sched_per_sm, 2);
    CHECK(!c.l1_skip);
    CHECK_EQ(wc_config_validate(&c, &err), 0);

    /* Ignored: unmodelled options, each once, with the line it starts on. */
    CHECK(ign.n > 40);
    CHECK(ignored_index(&ign, "gpgpu_ptx_sim_mode") >= 0);
    CHECK(ignored_index(&ign, "gpgpu_cache:dl1") < 0);
    CHECK(ignored_index(&ign, "gpgpu_n_mem") < 0);
    /* the quoted DRAM timing spans two lines: RCD=12 is on the first, CL=12
     * on the second, and the next option's line is still right */
    CHECK(ignored_index(&ign, "gpgpu_dram_timing_opt") < 0);
    CHECK_EQ(wc_config_dram_access_cycles(&c), 12 + 12);
    int b = ignored_index(&ign, "dram_bnk_indexing_policy");
    CHECK(b >= 0);
    char where[600];
    snprintf(where, sizeof where, "%s:%d", GTX480, line_of(GTX480, "-dram_bnk_indexing_policy"));
    if (b >= 0) CHECK_STR(ign.where[b], where);
}

static void test_other_gpgpusim_files(void)
{
    wc_config c;
    wc_err err;
    static ignored_list ign;
    const char *paths[3] = {TITANX, RTX2060, QV100};
    for (int i = 0; i < 3; i++) {
        memset(&ign, 0, sizeof ign);
        wc_config_defaults(&c);
        int rc = load(&c, paths[i], &ign, &err);
        if (rc) fprintf(stderr, "  %s\n", err.msg);
        CHECK_EQ(rc, 0);
        print_ignored(paths[i], &ign);
        CHECK(ign.n > 20);
        CHECK_EQ(wc_config_validate(&c, &err), 0);
        if (i == 0) { /* TITAN X */
            CHECK_EQ(c.l1.nsets, 4);
            CHECK_EQ(c.l1.assoc, 96);
            CHECK_EQ(c.l1.alloc_policy, 's');
            CHECK(c.l1_skip);
            CHECK_EQ(c.n_clusters, 28);
            CHECK_EQ(c.n_mem, 12);
            CHECK_NEAR(c.clk_dram, 2500.0, 0);
            CHECK_EQ(c.l2.set_index, 'P');
            CHECK_EQ(c.l2.mshr_max_merge, 64);
            CHECK(ignored_index(&ign, "gpgpu_cache:dl1PrefL1") >= 0);
        } else if (i == 1) { /* RTX 2060 (a UTF-8 comment in it) */
            CHECK_EQ(c.l1.nsets, 1);
            CHECK_EQ(c.l1.assoc, 512);
            CHECK_EQ(c.n_clusters, 30);
            CHECK_EQ(c.l2_latency, 160);
            CHECK_EQ(c.dram_bus_bytes, 2);
            CHECK_EQ(c.dram_burst, 16);
            CHECK_NEAR(c.clk_core, 1365.0, 0);
            CHECK_EQ(c.coalesce_arch, 75);
        } else { /* Quadro V100 */
            CHECK_EQ(c.l1.type, 'S');
            CHECK_EQ(c.l1.nsets, 1);
            CHECK_EQ(c.l1.assoc, 256);
            CHECK_EQ(c.l1.miss_queue, 16);
            CHECK_EQ(c.n_clusters, 80);
            CHECK_EQ(c.n_mem, 32);
            CHECK_EQ(c.l2.nsets, 32);
            CHECK_EQ(c.l2.assoc, 24);
            CHECK_EQ(c.dram_bus_bytes, 16);
            CHECK_EQ(c.dram_freq_ratio, 2);
            CHECK_NEAR(c.clk_dram, 850.0, 0);
            CHECK_EQ(c.max_threads_per_sm, 2048);
            CHECK_EQ(c.n_sched_per_sm, 4);
        }
    }
}

/* ---- warpcache's own configs/ ------------------------------------------- */

static void test_fermi_configs(void)
{
    wc_config c, expect;
    wc_err err;
    static ignored_list ign;

    memset(&ign, 0, sizeof ign);
    wc_config_defaults(&c);
    c.n_mem = 99; /* proves the file sets it */
    CHECK_EQ(load(&c, "configs/fermi-16k.config", &ign, &err), 0);
    CHECK_EQ(ign.n, 0);
    wc_config_defaults(&expect);
    CHECK(same_config(&c, &expect)); /* the 16 KB file is the defaults */
    CHECK_EQ(wc_config_validate(&c, &err), 0);

    memset(&ign, 0, sizeof ign);
    wc_config_defaults(&c);
    CHECK_EQ(load(&c, "configs/fermi-48k.config", &ign, &err), 0);
    CHECK_EQ(ign.n, 0);
    CHECK_EQ(wc_config_validate(&c, &err), 0);
    /* 48 KB L1 = 64 sets x 6 ways x 128 B, 16 KB shared; all else as defaults */
    wc_config_defaults(&expect);
    expect.l1.nsets = 64;
    expect.l1.assoc = 6;
    expect.shmem_per_sm = 16 * 1024;
    CHECK(same_config(&c, &expect));
    CHECK_EQ((uint64_t)c.l1.nsets * c.l1.assoc * c.l1.line_bytes, 48 * 1024);
}

/* configs/fermi-hw.config is fermi-16k with exactly the four hardware values
 * its comments cite (seed 003 sections 4.4 and 5.2, Fermi's replay): 64
 * MSHRs, allocation on fill, 6 loads in flight per warp, the replay stage
 * retrying every waiting instruction after a fill; nothing else. */
static void test_fermi_hw_file(void)
{
    wc_config c, expect;
    wc_err err;
    static ignored_list ign;
    memset(&ign, 0, sizeof ign);
    wc_config_defaults(&c);
    CHECK_EQ(load(&c, "configs/fermi-hw.config", &ign, &err), 0);
    CHECK_EQ(ign.n, 0);
    CHECK_EQ(wc_config_validate(&c, &err), 0);
    wc_config_defaults(&expect);
    expect.l1.mshr_entries = 64;
    expect.l1.alloc_policy = 'f';
    expect.ldst_loads_per_warp = 6;
    snprintf(expect.mem_stage, sizeof expect.mem_stage, "replay:wake=all");
    CHECK(same_config(&c, &expect));
}

/* configs/h100.config: loads with nothing ignored, and its derived sizes are
 * the public H100 SXM5 figures its comments cite: 132 SMs of 64 warps, a
 * 256 KB L1 (4 sets x 512 ways x 128 B), 228 KB of shared memory, a 50 MB
 * L2 (80 channels x 2 slices x 128 sets x 20 ways x 128 B), and HBM3 at
 * 80 channels x 8 B x 2 (DDR) x 2619 MHz = 3.352 TB/s. */
static void test_h100_file(void)
{
    wc_config c;
    wc_err err;
    static ignored_list ign;
    memset(&ign, 0, sizeof ign);
    wc_config_defaults(&c);
    CHECK_EQ(load(&c, "configs/h100.config", &ign, &err), 0);
    CHECK_EQ(ign.n, 0);
    CHECK_EQ(wc_config_validate(&c, &err), 0);
    CHECK_EQ(wc_config_n_sm(&c), 132);
    CHECK_EQ(c.max_threads_per_sm / 32, 64);
    CHECK_EQ((uint64_t)c.l1.nsets * c.l1.assoc * c.l1.line_bytes, 256 * 1024);
    CHECK_EQ(c.shmem_per_sm, 228 * 1024);
    CHECK_EQ((uint64_t)wc_config_n_l2(&c) * c.l2.nsets * c.l2.assoc * c.l2.line_bytes,
             50ull * 1024 * 1024);
    double bytes_per_s = (double)c.n_mem * c.dram_bus_bytes * c.dram_freq_ratio * c.clk_dram * 1e6;
    CHECK_NEAR(bytes_per_s / 1e12, 3.352, 0.001);
}

/* ---- dump -> load ------------------------------------------------------- */

static void round_trip(const wc_config *src)
{
    char path[64];
    temp_file("", path, sizeof path);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    wc_config_dump(src, f);
    fclose(f);
    /* Start from zeros: anything the dump forgets would show. */
    wc_config back;
    wc_err err;
    static ignored_list ign;
    memset(&ign, 0, sizeof ign);
    memset(&back, 0, sizeof back);
    int rc = load(&back, path, &ign, &err);
    if (rc) fprintf(stderr, "  %s\n", err.msg);
    CHECK_EQ(rc, 0);
    CHECK_EQ(ign.n, 0);
    CHECK(same_config(src, &back));
    CHECK_STR(back.source_file, path);
    unlink(path);
}

static void test_dump_round_trip(void)
{
    const char *paths[] = {
        GTX480, TITANX, RTX2060, QV100, "configs/fermi-48k.config", "configs/h100.config"};
    wc_config c;
    wc_err err;
    wc_config_defaults(&c);
    round_trip(&c);
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        wc_config_defaults(&c);
        CHECK_EQ(wc_config_load_file(&c, paths[i], NULL, NULL, &err), 0);
        round_trip(&c);
    }
    /* values that need care: odd clocks, long scheduler text, huge numbers */
    wc_config_defaults(&c);
    CHECK_EQ(wc_config_set(&c, "gpgpu_clock_domains", "1417.3:0.1:1e3:2500.123456789", "t", &err),
             0);
    CHECK_EQ(wc_config_set(&c, "gpgpu_scheduler", "two_level_active:6:0:1", "t", &err), 0);
    CHECK_EQ(wc_config_set(&c, "max_cycles", "18446744073709551615", "t", &err), 0);
    CHECK_EQ(wc_config_set(&c, "gpgpu_cache:dl1", "N:4:128:24,L:R:m:N:L,T:128:4,128:2", "t", &err),
             0);
    round_trip(&c);
}

/* ---- file errors -------------------------------------------------------- */

/* Loads `text` from a temp file; expects failure at `line` naming `option`
 * and containing `reason`; the configuration must be unchanged. */
static void expect_file_error(const char *text, int line, const char *option, const char *reason)
{
    char path[64], loc[128];
    temp_file(text, path, sizeof path);
    wc_config c, before;
    wc_err err = {{0}};
    wc_config_defaults(&c);
    memcpy(&before, &c, sizeof c);
    CHECK_EQ(wc_config_load_file(&c, path, NULL, NULL, &err), -1);
    snprintf(loc, sizeof loc, "%s:%d: ", path, line);
    bool ok = strncmp(err.msg, loc, strlen(loc)) == 0 && strstr(err.msg, option) &&
              strstr(err.msg, reason);
    if (!ok)
        fprintf(stderr, "  got \"%s\"\n  expected \"%s\" + \"%s\" + \"%s\"\n", err.msg, loc, option,
                reason);
    CHECK(ok);
    CHECK(memcmp(&c, &before, sizeof c) == 0);
    unlink(path);
}

static void test_file_errors(void)
{
    expect_file_error("# header\n-gpgpu_n_mem 6\n-gpgpu_cache:dl1 N:0:128:4,L:L:m:N:H,A:32:8,8\n",
                      3, "-gpgpu_cache:dl1", "sets = 0");
    expect_file_error("-gpgpu_cache:dl1 N:24:128:4,L:L:m:N:L,A:32:8,8 # comment\n", 1,
                      "-gpgpu_cache:dl1", "sets = 24: must be a power of two");
    expect_file_error("\n\n\n\n-gpgpu_cache:dl2 Y:64:128:16,L:B:m:N:L,A:32:4,8\n", 5,
                      "-gpgpu_cache:dl2", "cache type 'Y'");
    expect_file_error("-gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,A:32:0,8\n", 1, "-gpgpu_cache:dl1",
                      "MSHR max merge = 0");
    expect_file_error("-gpgpu_n_clusters 15\n  -gpgpu_n_mem 12abc\n", 2, "-gpgpu_n_mem",
                      "\"12abc\" is not a number");
    expect_file_error("-gpgpu_n_mem 6\n-gpgpu_scheduler \"gto\n-gpgpu_n_clusters 4\n", 2,
                      "-gpgpu_scheduler", "no closing");
    expect_file_error("-gpgpu_n_mem\n-gpgpu_n_clusters 4\n", 1, "-gpgpu_n_mem", "has no value");
    expect_file_error("-gpgpu_n_mem    # six\n", 1, "-gpgpu_n_mem", "has no value");
    expect_file_error("-gpgpu_n_mem", 1, "-gpgpu_n_mem", "has no value");
    expect_file_error("-some_unknown_option\n", 1, "-some_unknown_option", "has no value");
    expect_file_error("-gpgpu_n_mem -3\n", 1, "-gpgpu_n_mem", "is negative");
    expect_file_error("-gpgpu_n_mem 6 7\n", 1, "-gpgpu_n_mem", "unexpected text \"7");
    expect_file_error("-gpgpu_n_mem 6\ngpgpu_n_clusters 4\n", 2, "gpgpu_n_clusters",
                      "expected an option");
    expect_file_error("-gpgpu_n_mem 6\n- 4\n", 2, "'-'", "without an option name");
    expect_file_error("-gpgpu_shader_core_pipeline 1536:64\n", 1, "-gpgpu_shader_core_pipeline",
                      "warp size 64");
    /* multi-line quoted value: an error after it is on the right line */
    expect_file_error("-gpgpu_runtime_stat \"a\nb\nc\"\n-gpgpu_n_mem 0\n", 4, "-gpgpu_n_mem",
                      "out of range");

    wc_config c;
    wc_err err;
    wc_config_defaults(&c);
    CHECK_EQ(wc_config_load_file(&c, "/nonexistent/dir/x.config", NULL, NULL, &err), -1);
    CHECK(strstr(err.msg, "/nonexistent/dir/x.config: cannot open") != NULL);
    CHECK_EQ(wc_config_load_file(&c, "/tmp", NULL, NULL, &err), -1); /* a directory */
    CHECK(strstr(err.msg, "/tmp: cannot read") != NULL);
}

static void test_file_syntax(void)
{
    /* CRLF line ends, tabs, '#' glued to a value, quoted known value,
     * quoted '#' kept, last line without newline, later value wins. */
    const char *text = "# c\r\n\t-gpgpu_n_mem\t8#eight\r\n-gpgpu_scheduler \"lrr\"  # q\n"
                       "-gpgpu_runtime_stat \"a # not a comment\" # but this is\n"
                       "-gpgpu_n_clusters 3\n-gpgpu_n_clusters 4";
    wc_config c;
    wc_err err;
    static ignored_list ign;
    memset(&ign, 0, sizeof ign);
    wc_config_defaults(&c);
    int rc = wc_config_load_text(&c, text, strlen(text), "mem.config", collect_ignored, &ign, &err);
    if (rc) fprintf(stderr, "  %s\n", err.msg);
    CHECK_EQ(rc, 0);
    CHECK_EQ(c.n_mem, 8);
    CHECK_STR(c.scheduler, "lrr");
    CHECK_EQ(c.n_clusters, 4);
    CHECK_EQ(ign.n, 1);
    CHECK_STR(ign.name[0], "gpgpu_runtime_stat");
    CHECK_STR(ign.where[0], "mem.config:4");
    CHECK_STR(c.source_file, "mem.config");
    /* CR alone ends a line too (old Mac files): a leading comment used to
     * swallow the whole file, which then loaded as empty */
    const char *cr = "# header comment\r-gpgpu_n_mem 5\r# another\r-gpgpu_n_clusters 7\r";
    wc_config_defaults(&c);
    CHECK_EQ(wc_config_load_text(&c, cr, strlen(cr), "cr.config", NULL, NULL, &err), 0);
    CHECK_EQ(c.n_mem, 5);
    CHECK_EQ(c.n_clusters, 7);
    /* line numbers count CR, LF and CRLF as one line end each: the bad
     * value is on line 4 of "a CR b LF c CRLF d" */
    const char *mixed = "# a\r# b\n# c\r\n-gpgpu_n_mem 0\r\n";
    CHECK_EQ(wc_config_load_text(&c, mixed, strlen(mixed), "mixed.config", NULL, NULL, &err), -1);
    CHECK(strstr(err.msg, "mixed.config:4: option -gpgpu_n_mem:") == err.msg);
    /* an option without a value before a CR is an error on its own line */
    const char *novalue = "-gpgpu_n_mem\r-gpgpu_n_clusters 4\r";
    CHECK_EQ(wc_config_load_text(&c, novalue, strlen(novalue), "nv.config", NULL, NULL, &err), -1);
    CHECK(strstr(err.msg, "nv.config:1: option -gpgpu_n_mem has no value") == err.msg);
    /* an embedded NUL is an error, not a silent truncation */
    const char nul[] = "-gpgpu_n_mem 6\0 7\n";
    CHECK_EQ(wc_config_load_text(&c, nul, sizeof nul - 1, "nul.config", NULL, NULL, &err), -1);
    CHECK(strstr(err.msg, "nul.config:1:") != NULL);
}

/* ---- validation --------------------------------------------------------- */

/* The SM count limit (1024): 4096 clusters x 64 cores once took 17 GB. */
static void test_sm_count_limit(void)
{
    wc_config c;
    wc_err err;
    wc_config_defaults(&c);
    c.n_clusters = 4096; /* each factor within its option range */
    c.cores_per_cluster = 64;
    CHECK_EQ(wc_config_validate(&c, &err), -1);
    CHECK(strstr(err.msg, "configuration: option -gpgpu_n_clusters: 4096 clusters x 64 cores "
                          "per cluster = 262144 SMs; at most 1024") == err.msg);
    c.n_clusters = 16; /* 16 x 64 = 1024: the largest accepted */
    CHECK_EQ(wc_config_validate(&c, &err), 0);
    c.n_clusters = 17; /* 1088 */
    CHECK_EQ(wc_config_validate(&c, &err), -1);
}

static void test_validate(void)
{
    wc_config c;
    wc_err err;
    wc_config_defaults(&c);
    snprintf(c.source_file, sizeof c.source_file, "my.config");

    c.ipoly_poly = 37; /* x^5 + x^2 + 1 for 32 sets (seed 002) */
    CHECK_EQ(wc_config_validate(&c, &err), 0);
    c.ipoly_poly = 67; /* degree 6: wrong for 32 sets */
    CHECK_EQ(wc_config_validate(&c, &err), -1);
    CHECK(strstr(err.msg, "my.config: option -l1_ipoly_poly:") == err.msg);
    CHECK(strstr(err.msg, "degree 6") != NULL);
    CHECK_EQ(wc_config_set(&c, "gpgpu_cache:dl1", "N:64:128:6,L:L:m:N:P,A:32:8,8", "t", &err), 0);
    CHECK_EQ(wc_config_validate(&c, &err), 0); /* 67 = x^6 + x + 1 fits 64 sets */

    wc_config_defaults(&c);
    c.n_sched_per_sm = 64; /* 48 warps per SM */
    CHECK_EQ(wc_config_validate(&c, &err), -1);
    CHECK(strstr(err.msg, "configuration: option -gpgpu_num_sched_per_core:") == err.msg);

    wc_config_defaults(&c);
    c.l1.nsets = 3; /* built in code, not parsed */
    CHECK_EQ(wc_config_validate(&c, &err), -1);
    CHECK(strstr(err.msg, "option -gpgpu_cache:dl1: sets = 3") != NULL);

    wc_config_defaults(&c);
    c.clk_l2 = 0;
    CHECK_EQ(wc_config_validate(&c, &err), -1);
    CHECK(strstr(err.msg, "-gpgpu_clock_domains: L2 clock 0") != NULL);

    wc_config_defaults(&c);
    c.coalesce_bytes = 96;
    CHECK_EQ(wc_config_validate(&c, &err), -1);
    CHECK(strstr(err.msg, "-coalesce_bytes") != NULL);

    wc_config_defaults(&c);
    c.partition_interleave = 64; /* smaller than a 128 B L2 line */
    CHECK_EQ(wc_config_validate(&c, &err), -1);
    CHECK(strstr(err.msg, "-partition_interleave") != NULL);

    wc_config_defaults(&c);
    c.scheduler[0] = '\0';
    CHECK_EQ(wc_config_validate(&c, &err), -1);
    CHECK(strstr(err.msg, "-gpgpu_scheduler") != NULL);

    wc_config_defaults(&c);
    c.max_warp_limit = 49;
    CHECK_EQ(wc_config_validate(&c, &err), -1);
    CHECK(strstr(err.msg, "-max_warp_limit") != NULL);
}

/* A name neither warpcache nor any GPGPU-Sim release has is a typo: an error
 * at its line with the nearest known name, the configuration unchanged (it
 * used to be listed as ignored and the run went on with the default). */
static void test_unknown_options(void)
{
    /* "cat" for "cta": one swapped pair of letters */
    expect_file_error("-gpgpu_n_mem 6\n-gpgpu_shader_cat 8\n", 2, "-gpgpu_shader_cat",
                      "unknown option -gpgpu_shader_cat (did you mean -gpgpu_shader_cta?)");
    /* a plug-in parameter is a candidate: one letter left out */
    expect_file_error("-tsc_privte_bits 3\n", 1, "-tsc_privte_bits",
                      "did you mean -tsc_private_bits?");
    /* a GPGPU-Sim option warpcache does not model is a candidate too */
    expect_file_error("-gpgpu_ptx_sim_mod 0\n", 1, "-gpgpu_ptx_sim_mod",
                      "did you mean -gpgpu_ptx_sim_mode?");
    /* nothing near: no guess */
    expect_file_error("-zzqq 1\n", 1, "-zzqq", "neither warpcache nor GPGPU-Sim has it");

    /* GPGPU-Sim's names of every era are known, not modelled: 4.x
     * (-gpgpu_ptx_sim_mode), 3.x only (-rop_latency, -gpuwattch_xml_file),
     * registered in a loop (-specialized_unit_8), Accel-Sim's trace-driven
     * front end (-trace_opcode_latency_initiation_int, -trace) */
    const char *known = "-gpgpu_ptx_sim_mode 0\n-rop_latency 120\n-gpuwattch_xml_file x.xml\n"
                        "-specialized_unit_8 1,4,4,4,4,BRA\n"
                        "-trace_opcode_latency_initiation_int 4,1\n-trace ./traces/kernelslist.g\n";
    wc_config c;
    wc_err err = {{0}};
    static ignored_list ign;
    memset(&ign, 0, sizeof ign);
    wc_config_defaults(&c);
    CHECK_EQ(wc_config_load_text(&c, known, strlen(known), "k.config", collect_ignored, &ign, &err),
             0);
    CHECK_EQ(ign.n, 6);
    CHECK(wc_config_is_gpgpusim_option("-gpgpu_ptx_sim_mode"));
    CHECK(wc_config_is_gpgpusim_option("accelwattch_xml_file")); /* the first letters */
    CHECK(wc_config_is_gpgpusim_option("visualizer_zlevel"));    /* the last */
    CHECK(!wc_config_is_gpgpusim_option("gpgpu_shader_cat"));
    CHECK(!wc_config_is_gpgpusim_option("idata")); /* option_parser.cc's own self-test */

    /* WC_CONFIG_LENIENT: the unknown name goes to `ignored` like the rest */
    const char *typo = "-gpgpu_shader_cat 8\n-gpgpu_n_mem 5\n";
    memset(&ign, 0, sizeof ign);
    wc_config_defaults(&c);
    CHECK_EQ(wc_config_load_text_flags(&c, typo, strlen(typo), "t.config", WC_CONFIG_LENIENT,
                                       collect_ignored, &ign, &err),
             0);
    CHECK_EQ(c.n_mem, 5);
    CHECK_EQ(ign.n, 1);
    CHECK_STR(ign.name[0], "gpgpu_shader_cat");
    CHECK_STR(ign.where[0], "t.config:1");

    char near[128];
    CHECK(wc_config_suggest("-gpgpu_n_clusterss", near, sizeof near));
    CHECK_STR(near, "gpgpu_n_clusters");
    CHECK(!wc_config_suggest("gpgpu_n_clusters", near, sizeof near)); /* itself: no typo */
    CHECK(!wc_config_suggest("l9", near, sizeof near));               /* too short to guess */
}

/* Every real GPGPU-Sim file in shared/ and every file of configs/ loads, and
 * what it holds that warpcache does not model is all GPGPU-Sim's. */
static void test_every_real_file_loads(void)
{
    const char *paths[] = {GTX480,
                           TITANX,
                           RTX2060,
                           QV100,
                           GPGPUSIM_DIR "GPGPU-Sim-3.2.0_GTX480/gpgpusim.config",
                           GPGPUSIM_DIR "GPGPU-Sim-3.2.2_GTX480/gpgpusim.config",
                           "configs/fermi-16k.config",
                           "configs/fermi-48k.config",
                           "configs/fermi-hw.config",
                           "configs/gpgpusim3.config",
                           "configs/h100.config"};
    static ignored_list ign;
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        wc_config c;
        wc_err err = {{0}};
        memset(&ign, 0, sizeof ign);
        wc_config_defaults(&c);
        int rc = load(&c, paths[i], &ign, &err);
        if (rc) fprintf(stderr, "  %s\n", err.msg);
        CHECK_EQ(rc, 0);
        for (int k = 0; k < ign.n; k++)
            if (!wc_config_is_gpgpusim_option(ign.name[k]) &&
                strcmp(ign.name[k], "inter_config_file") != 0 && !strchr(ign.name[k], ' ')) {
                fprintf(stderr, "  %s: %s is nobody's option\n", paths[i], ign.name[k]);
                CHECK(false);
            }
    }
}

int main(void)
{
    RUN(test_geom_fields);
    RUN(test_geom_round_trip);
    RUN(test_geom_errors);
    RUN(test_defaults);
    RUN(test_set_by_name);
    RUN(test_inert_options);
    RUN(test_option_table);
    RUN(test_mem_issue_ahead);
    RUN(test_gtx480);
    RUN(test_other_gpgpusim_files);
    RUN(test_fermi_configs);
    RUN(test_h100_file);
    RUN(test_fermi_hw_file);
    RUN(test_dump_round_trip);
    RUN(test_file_errors);
    RUN(test_file_syntax);
    RUN(test_unknown_options);
    RUN(test_every_real_file_loads);
    RUN(test_validate);
    RUN(test_sm_count_limit);
    return check_summary("config");
}
