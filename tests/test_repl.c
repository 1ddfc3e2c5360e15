/*
 * test_repl.c - replacement policies (LRU, FIFO, NRU, SRRIP, SHiP, PDP) on hand-traced
 * victim sequences, the policy registry, and the tag array built on them
 * (invalid ways first, reserved ways never victims, fully-associative sets).
 */
#include "cache/repl_impl.h"
#include "check.h"
#include "warpcache/cache.h"
#include "warpcache/params.h"

static void fill_set(wc_line *set, uint32_t assoc)
{
    memset(set, 0, sizeof(wc_line) * assoc);
    for (uint32_t w = 0; w < assoc; w++) {
        set[w].state = WC_LINE_VALID;
        set[w].tag = 100 + w;
    }
}

static void insert_all(const wc_repl_ops *r, wc_line *set, uint32_t assoc, uint64_t *stamp)
{
    for (uint32_t w = 0; w < assoc; w++) r->on_insert(NULL, set, assoc, w, ++*stamp, NULL);
}

static void test_lru(void)
{
    const wc_repl_ops *r = wc_repl_find("lru");
    wc_line s[4];
    uint64_t st = 0, rng = 1;
    fill_set(s, 4);
    insert_all(r, s, 4, &st); /* ages: 0 oldest ... 3 newest */
    CHECK_EQ(r->victim(NULL, s, 4, &rng, NULL), 0);
    r->on_hit(NULL, s, 4, 0, ++st, NULL); /* order now 1 2 3 0 */
    CHECK_EQ(r->victim(NULL, s, 4, &rng, NULL), 1);
    r->on_hit(NULL, s, 4, 1, ++st, NULL); /* 2 3 0 1 */
    CHECK_EQ(r->victim(NULL, s, 4, &rng, NULL), 2);
    s[2].state = WC_LINE_RESERVED; /* skipped: next oldest is 3 */
    CHECK_EQ(r->victim(NULL, s, 4, &rng, NULL), 3);
    for (int w = 0; w < 4; w++) s[w].state = WC_LINE_RESERVED;
    CHECK_EQ(r->victim(NULL, s, 4, &rng, NULL), -1);
}

static void test_fifo(void)
{
    const wc_repl_ops *r = wc_repl_find("F");
    wc_line s[4];
    uint64_t st = 0, rng = 1;
    fill_set(s, 4);
    insert_all(r, s, 4, &st);
    r->on_hit(NULL, s, 4, 0, ++st, NULL); /* hits do not reorder */
    CHECK_EQ(r->victim(NULL, s, 4, &rng, NULL), 0);
    r->on_insert(NULL, s, 4, 0, ++st, NULL); /* way 0 refilled: now newest */
    CHECK_EQ(r->victim(NULL, s, 4, &rng, NULL), 1);
    r->on_insert(NULL, s, 4, 1, ++st, NULL);
    CHECK_EQ(r->victim(NULL, s, 4, &rng, NULL), 2);
    s[2].state = WC_LINE_RESERVED;
    CHECK_EQ(r->victim(NULL, s, 4, &rng, NULL), 3);
}

static void test_nru(void)
{
    const wc_repl_ops *r = wc_repl_find("nru");
    wc_line s[4];
    uint64_t st = 0, rng = 1;
    fill_set(s, 4);
    insert_all(r, s, 4, &st); /* bits 1111 */
    /* All referenced: the epoch ends, bits cleared, first way chosen. */
    CHECK_EQ(r->victim(NULL, s, 4, &rng, NULL), 0);
    for (int w = 0; w < 4; w++) CHECK_EQ(s[w].repl, 0);
    r->on_insert(NULL, s, 4, 0, ++st, NULL); /* 1000 */
    r->on_hit(NULL, s, 4, 2, ++st, NULL);    /* 1010 */
    CHECK_EQ(r->victim(NULL, s, 4, &rng, NULL), 1);
    r->on_insert(NULL, s, 4, 1, ++st, NULL); /* 1110 */
    CHECK_EQ(r->victim(NULL, s, 4, &rng, NULL), 3);
    s[3].state = WC_LINE_RESERVED; /* 3 is the only 0 but reserved: reset, first free = 0 */
    CHECK_EQ(r->victim(NULL, s, 4, &rng, NULL), 0);
    CHECK_EQ(s[1].repl, 0);
    s[0].state = WC_LINE_RESERVED;
    CHECK_EQ(r->victim(NULL, s, 4, &rng, NULL), 1);
    for (int w = 0; w < 4; w++) s[w].state = WC_LINE_RESERVED;
    CHECK_EQ(r->victim(NULL, s, 4, &rng, NULL), -1);
}

static void test_srrip(void)
{
    const wc_repl_ops *r = wc_repl_find("R");
    CHECK_STR(r->name, "srrip");
    wc_line s[4];
    uint64_t st = 0, rng = 1;
    fill_set(s, 4);
    insert_all(r, s, 4, &st); /* RRPV 2 2 2 2 */
    for (int w = 0; w < 4; w++) CHECK_EQ(s[w].repl, 2);
    r->on_hit(NULL, s, 4, 1, ++st, NULL); /* 2 0 2 2 */
    /* No 3: age by one -> 3 1 3 3, first 3 is way 0. */
    CHECK_EQ(r->victim(NULL, s, 4, &rng, NULL), 0);
    CHECK_EQ(s[0].repl, 3);
    CHECK_EQ(s[1].repl, 1);
    CHECK_EQ(s[3].repl, 3);
    r->on_insert(NULL, s, 4, 0, ++st, NULL); /* 2 1 3 3 */
    CHECK_EQ(r->victim(NULL, s, 4, &rng, NULL), 2);
    r->on_insert(NULL, s, 4, 2, ++st, NULL); /* 2 1 2 3 */
    s[3].state = WC_LINE_RESERVED;
    /* Non-reserved max is 2: age by one -> 3 2 3 3(sat), first non-reserved 3 = way 0. */
    CHECK_EQ(r->victim(NULL, s, 4, &rng, NULL), 0);
    CHECK_EQ(s[1].repl, 2);
    CHECK_EQ(s[3].repl, 3);
    /* Hit ways survive longest: hit everything but way 2, age twice, way 2 goes. */
    s[3].state = WC_LINE_VALID;
    for (uint32_t w = 0; w < 4; w++) r->on_hit(NULL, s, 4, w, ++st, NULL);
    r->on_insert(NULL, s, 4, 2, ++st, NULL); /* 0 0 2 0 */
    CHECK_EQ(r->victim(NULL, s, 4, &rng, NULL), 2);
    CHECK_EQ(s[0].repl, 1);
}

static void test_registry(void)
{
    size_t n = 0;
    const wc_repl_ops *const *all = wc_repl_list(&n);
    CHECK_EQ(n, 6);
    const char *names[] = {"lru", "fifo", "nru", "srrip", "ship", "pdp"};
    const char letters[] = "LFNRSP";
    for (size_t i = 0; i < n && i < 6; i++) {
        CHECK_STR(all[i]->name, names[i]);
        char key[2] = {letters[i], 0};
        CHECK(wc_repl_find(key) == all[i]);
        CHECK(wc_repl_find(names[i]) == all[i]);
    }
    CHECK(wc_repl_find("l") == all[0]);
    CHECK(wc_repl_find("X") == NULL);
    CHECK(wc_repl_find("") == NULL);
}

static wc_cache_geom geom(uint32_t nsets, uint32_t assoc, char repl, char sif)
{
    wc_cache_geom g;
    memset(&g, 0, sizeof g);
    g.type = 'N';
    g.nsets = nsets;
    g.line_bytes = 128;
    g.assoc = assoc;
    g.repl = repl;
    g.set_index = sif;
    return g;
}

static void test_tag_array(void)
{
    wc_tag_array ta;
    wc_err err;
    wc_cache_geom g = geom(32, 4, 'L', 'H');
    CHECK(wc_tag_array_init(&ta, &g, 0, 1, NULL, &err) == 0);
    CHECK_EQ(ta.line_log2, 7);
    CHECK_EQ(wc_tag_array_find(&ta, 3, 42), -1);
    CHECK_EQ(wc_tag_array_pick(&ta, 3, NULL), 0); /* all invalid: way 0 */
    wc_line *s = wc_tag_array_set(&ta, 3);
    s[0].tag = 42;
    CHECK_EQ(wc_tag_array_find(&ta, 3, 42), -1); /* still INVALID */
    s[0].state = WC_LINE_RESERVED;
    CHECK_EQ(wc_tag_array_find(&ta, 3, 42), 0);
    CHECK_EQ(wc_tag_array_pick(&ta, 3, NULL), 1); /* first invalid way */
    for (uint32_t w = 1; w < 4; w++) {
        s[w].state = WC_LINE_VALID;
        s[w].tag = w;
        ta.repl->on_insert(NULL, s, 4, w, ++ta.stamp, NULL);
    }
    CHECK_EQ(wc_tag_array_pick(&ta, 3, NULL), 1); /* LRU among non-reserved */
    CHECK_EQ(wc_tag_array_find(&ta, 4, 42), -1);  /* other set */
    wc_tag_array_free(&ta);

    g = geom(30, 4, 'L', 'L');
    CHECK(wc_tag_array_init(&ta, &g, 0, 1, NULL, &err) < 0);
    CHECK(strstr(err.msg, "30") != NULL);
    g = geom(32, 4, 'Z', 'L');
    CHECK(wc_tag_array_init(&ta, &g, 0, 1, NULL, &err) < 0);
    g = geom(32, 0, 'L', 'L');
    CHECK(wc_tag_array_init(&ta, &g, 0, 1, NULL, &err) < 0);
    g = geom(16, 4, 'L', 'H'); /* Fermi hash has no 16-set form */
    CHECK(wc_tag_array_init(&ta, &g, 0, 1, NULL, &err) < 0);
    g = geom(1u << 20, 1u << 12, 'L', 'L');
    CHECK(wc_tag_array_init(&ta, &g, 0, 1, NULL, &err) < 0); /* absurd size refused */
}

static void test_fully_associative(void)
{
    wc_tag_array ta;
    wc_err err;
    wc_cache_geom g = geom(1, 512, 'L', 'H'); /* one set: the index is moot */
    CHECK(wc_tag_array_init(&ta, &g, 0, 1, NULL, &err) == 0);
    wc_line *s = wc_tag_array_set(&ta, 0);
    for (uint32_t i = 0; i < 512; i++) {
        CHECK_EQ(wc_index_set(&ta.index, (uint64_t)i * 4096), 0);
        int w = wc_tag_array_pick(&ta, 0, NULL);
        CHECK_EQ(w, (int)i);
        s[w].state = WC_LINE_VALID;
        s[w].tag = 1000 + i;
        ta.repl->on_insert(NULL, s, 512, (uint32_t)w, ++ta.stamp, NULL);
    }
    CHECK_EQ(wc_tag_array_find(&ta, 0, 1000 + 300), 300);
    ta.repl->on_hit(NULL, s, 512, 0, ++ta.stamp, NULL);
    CHECK_EQ(wc_tag_array_pick(&ta, 0, NULL), 1); /* way 0 was just used */
    wc_tag_array_free(&ta);
}

/* One access to line `tag` of set 0 by instruction `pc`, as an L1 does it:
 * a hit updates the policy; a miss takes the invalid way or the victim,
 * evicting a valid line first (on_evict), and inserts.  Returns the way. */
static int touch(wc_tag_array *ta, uint64_t tag, uint64_t pc)
{
    wc_mem_req req = {.pc = pc};
    wc_repl_ctx ctx = {&req, 0};
    int way = wc_tag_array_find(ta, 0, tag);
    if (way >= 0) {
        wc_tag_array_hit(ta, 0, (uint32_t)way, &ctx);
        return way;
    }
    way = wc_tag_array_pick(ta, 0, &ctx);
    if (way < 0) return way;
    wc_line *l = wc_tag_array_set(ta, 0) + way;
    if (l->state == WC_LINE_VALID) wc_tag_array_evicting(ta, 0, (uint32_t)way);
    l->tag = tag;
    l->state = WC_LINE_VALID;
    wc_tag_array_inserted(ta, 0, (uint32_t)way, &ctx);
    return way;
}

/*
 * SHiP learns a PC whose lines are never re-used.  One set of 4 ways,
 * defaults (3-bit counters starting at 1).  PC B brings lines b0, b1 and hits
 * each once: SHCT[B] 1 -> 3.  PC A then streams lines a0, a1, a2 ... never
 * re-used.  By hand (RRPVs of ways 0..3):
 *   a0 -> way 2 at RRPV 2 (SHCT[A] = 1), a1 -> way 3 at 2:  0 0 2 2
 *   a2: no RRPV 3; age by 1 -> 1 1 3 3; victim way 2 (a0, never hit):
 *       SHCT[A] 1 -> 0; a2 inserted at RRPV 3 (SHCT[A] = 0: predicted dead)
 *   a3, a4, a5: way 2 holds RRPV 3 each time, so each A line replaces the
 *       previous one in way 2 and SHCT[A] stays 0.
 * So b0 and b1 survive the stream, and 3 of the 6 A inserts were distant.
 * SRRIP alone would insert every A line at 2 and, after a few more misses,
 * age b0/b1 out: with the same sequence plus a6, a7 it evicts b0.
 */
static void test_ship_learns_dead_pc(void)
{
    const uint64_t PCA = 0x400, PCB = 0x800;
    wc_cache_geom g = geom(1, 4, 'S', 'L');
    wc_tag_array ta;
    wc_err err;
    CHECK(wc_tag_array_init(&ta, &g, 0, 1, NULL, &err) == 0);
    CHECK_EQ(touch(&ta, 100, PCB), 0);
    CHECK_EQ(touch(&ta, 101, PCB), 1);
    touch(&ta, 100, PCB);
    touch(&ta, 101, PCB);
    CHECK_EQ(wc_repl_ship_counter(ta.repl_state, PCB), 3);
    CHECK_EQ(wc_repl_ship_counter(ta.repl_state, PCA), 1);
    CHECK_EQ(touch(&ta, 200, PCA), 2);
    CHECK_EQ(touch(&ta, 201, PCA), 3);
    CHECK_EQ(touch(&ta, 202, PCA), 2);
    CHECK_EQ(wc_repl_ship_counter(ta.repl_state, PCA), 0); /* learnt: a0 died unused */
    for (uint64_t a = 203; a <= 207; a++) CHECK_EQ(touch(&ta, a, PCA), 2);
    CHECK_EQ(wc_tag_array_find(&ta, 0, 100), 0); /* the re-used lines stay */
    CHECK_EQ(wc_tag_array_find(&ta, 0, 101), 1);
    CHECK_EQ(wc_repl_ship_counter(ta.repl_state, PCB), 3);
    wc_tag_array_free(&ta);

    /* The same sequence under SRRIP loses b0. */
    g = geom(1, 4, 'R', 'L');
    CHECK(wc_tag_array_init(&ta, &g, 0, 1, NULL, &err) == 0);
    touch(&ta, 100, PCB);
    touch(&ta, 101, PCB);
    touch(&ta, 100, PCB);
    touch(&ta, 101, PCB);
    for (uint64_t a = 200; a <= 207; a++) touch(&ta, a, PCA);
    CHECK_EQ(wc_tag_array_find(&ta, 0, 100), -1);
    wc_tag_array_free(&ta);
}

/* SHiP's parameters come from the configuration (params.h): 4 signature
 * bits leave 16 counters; a 1-bit counter saturates at 1. */
static void test_ship_params(void)
{
    wc_config cfg;
    wc_config_defaults(&cfg);
    wc_err err = {{0}};
    CHECK_EQ(wc_config_set(&cfg, "ship_ctr_bits", "1", "t", &err), 0);
    CHECK_EQ(wc_config_set(&cfg, "ship_ctr_init", "5", "t", &err), 0);
    const wc_param_desc *d = wc_plugin_param_find("ship_ctr_bits", NULL);
    CHECK(d != NULL && wc_param_get(&cfg, d) == 1);
    wc_cache_geom g = geom(1, 4, 'S', 'L');
    wc_tag_array ta;
    CHECK(wc_tag_array_init(&ta, &g, 0, 1, &cfg, &err) == 0);
    CHECK_EQ(wc_repl_ship_counter(ta.repl_state, 0x400), 1); /* init 5 clamped to max 1 */
    wc_tag_array_free(&ta);
    CHECK_EQ(wc_config_set(&cfg, "ship_sig_bits", "21", "t", &err), -1);
    CHECK(strstr(err.msg, "option -ship_sig_bits: 21 is out of range") != NULL);
}

/*
 * PDP's victim among several unprotected lines is the least recently used of
 * them: the rule repl_pdp.c states.  Seed 001 (section 3.1) says only that a
 * line whose protection distance reached 0 "can be replaced" and that with
 * none left the access bypasses; the choice among several is ours to pin
 * (test_dl1d.c covers the bypass and a single unprotected line).  One set of 4
 * ways, distance 2; every access to the set takes 1 from the other lines'
 * remaining distance (RPD), an insert or hit sets its own line's to 2.
 * RPD of ways 0..3 after each access:
 *   100 -> way 0            2 . . .
 *   101 -> way 1            1 2 . .
 *   100 hit (way 0)         2 1 . .
 *   102 -> way 2            1 0 2 .
 *   103 -> way 3            0 0 1 2
 * 104: ways 0 (100, used at the third access) and 1 (101, used at the second)
 * are unprotected; the LRU of them is way 1, although way 0 comes first.
 *   104 -> way 1            0 2 0 1
 * 105: ways 0 (100, third access) and 2 (102, fourth) are unprotected: way 0.
 *   105 -> way 0            2 1 0 0
 * 106: ways 2 (102) and 3 (103, fifth access): way 2, although way 3 is the
 * one whose protection ran out last.
 */
static void test_pdp_victim_lru_among_unprotected(void)
{
    wc_config cfg;
    wc_config_defaults(&cfg);
    wc_err err = {{0}};
    CHECK_EQ(wc_config_set(&cfg, "pdp_distance", "2", "t", &err), 0);
    wc_cache_geom g = geom(1, 4, 'P', 'L');
    wc_tag_array ta;
    CHECK(wc_tag_array_init(&ta, &g, 0, 1, &cfg, &err) == 0);
    CHECK_EQ(touch(&ta, 100, 0), 0);
    CHECK_EQ(touch(&ta, 101, 0), 1);
    CHECK_EQ(touch(&ta, 100, 0), 0);
    CHECK_EQ(touch(&ta, 102, 0), 2);
    CHECK_EQ(touch(&ta, 103, 0), 3);
    CHECK_EQ(touch(&ta, 104, 0), 1);
    CHECK_EQ(wc_tag_array_find(&ta, 0, 101), -1);
    CHECK_EQ(wc_tag_array_find(&ta, 0, 100), 0);
    CHECK_EQ(touch(&ta, 105, 0), 0);
    CHECK_EQ(touch(&ta, 106, 0), 2);
    CHECK_EQ(wc_tag_array_find(&ta, 0, 103), 3);
    wc_tag_array_free(&ta);
}

int main(void)
{
    RUN(test_ship_learns_dead_pc);
    RUN(test_ship_params);
    RUN(test_pdp_victim_lru_among_unprotected);
    RUN(test_lru);
    RUN(test_fifo);
    RUN(test_nru);
    RUN(test_srrip);
    RUN(test_registry);
    RUN(test_tag_array);
    RUN(test_fully_associative);
    return check_summary("repl");
}
