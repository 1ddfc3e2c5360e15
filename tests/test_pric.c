/*
 * test_pric.c - seed 002's PRIC (IPOLY set index 'P') on every cache that
 * has sets: each L1 organisation and the L2 take the index and their own
 * polynomial (-l1_ipoly_poly, -l2_ipoly_poly), checked against sets worked
 * out by hand with polynomial arithmetic over GF(2).  The sets are read
 * from the organisation's own lookup (the L1's tag store) and from the L2
 * partition's tag array, so the test sees what the cache will use.
 */
#include "cache/l1_core.h"
#include "check.h"
#include "fake_l1.h"
#include "mem/mem.h"
#include "warpcache/config.h"
#include "warpcache/sim.h"

static void *the_shared; /* the organisation's shared block of the L1 being tested */

static fake_l1 the_fake; /* what the L1 sends and answers (not checked here) */

/* An L1 of organisation `org`, 32 sets x 4 x 128 B, set index P, with
 * polynomial `poly` (0 = default).  "sector" is the conventional
 * organisation on a sector geometry (type S). */
static wc_l1 *make_l1(const char *org, uint32_t poly)
{
    bool sector = strcmp(org, "sector") == 0;
    if (sector) org = "conventional";
    wc_config cfg;
    wc_config_defaults(&cfg);
    wc_err err = {{0}};
    char p[16];
    snprintf(p, sizeof p, "%u", poly);
    if (wc_config_set(&cfg, "gpgpu_cache:dl1",
                      sector ? "S:32:128:4,L:L:m:N:P,A:32:8,8" : "N:32:128:4,L:L:m:N:P,A:32:8,8",
                      "test", &err) ||
        wc_config_set(&cfg, "l1_org", org, "test", &err) ||
        wc_config_set(&cfg, "l1_ipoly_poly", p, "test", &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return NULL;
    }
    const wc_l1_ops *ops = wc_l1_find(org);
    /* the block every SM's instance shares (TSC+), made as the engine does */
    the_shared = ops->shared_create ? ops->shared_create(&cfg, 1, &err) : NULL;
    wc_l1_env env = fake_l1_env(&the_fake);
    env.shared = the_shared;
    wc_l1 *l1 = ops->create(&cfg, &env, &err);
    if (!l1) fprintf(stderr, "%s: %s\n", org, err.msg);
    return l1;
}

static void free_l1(const char *org, wc_l1 *l1)
{
    l1->ops->destroy(l1);
    if (the_shared)
        wc_l1_find(strcmp(org, "sector") ? org : "conventional")->shared_destroy(the_shared);
    the_shared = NULL;
}

/* The set the L1's tag store maps line number `line` to. */
static uint32_t l1_set(wc_l1 *l1, uint64_t line)
{
    wc_tagstore *ts = ((wc_l1_core *)l1)->ts;
    uint32_t set = UINT32_MAX;
    ts->ops->lookup(ts, line << 7, &set);
    return set;
}

/*
 * Poly(41) = x^5 + x^3 + 1 (one of the paper's six degree-5 I-polys, not the
 * default 37).  Reducing powers of x by x^5 = x^3 + 1:
 *   x^5 = x^3 + 1                       = 0b01001 =  9
 *   x^6 = x^4 + x                       = 0b10010 = 18
 *   x^7 = x^5 + x^2 = x^3 + x^2 + 1     = 0b01101 = 13
 * so line 32 (x^5) -> 9, line 33 (x^5 + 1) -> 8, line 96 (x^6 + x^5) ->
 * 18 ^ 9 = 27, line 128 (x^7) -> 13; lines below 32 map to themselves.
 * The default Poly(37) = x^5 + x^2 + 1 gives x^5 = x^2 + 1 = 5 for line 32.
 */
static void check_poly41(const char *org)
{
    wc_l1 *l1 = make_l1(org, 41);
    CHECK(l1 != NULL);
    if (!l1) return;
    CHECK_EQ(l1_set(l1, 7), 7);
    CHECK_EQ(l1_set(l1, 32), 9);
    CHECK_EQ(l1_set(l1, 33), 8);
    CHECK_EQ(l1_set(l1, 96), 27);
    CHECK_EQ(l1_set(l1, 128), 13);
    free_l1(org, l1);
    l1 = make_l1(org, 0);
    CHECK(l1 != NULL);
    if (!l1) return;
    CHECK_EQ(l1_set(l1, 32), 5);
    free_l1(org, l1);
}

static void test_l1_tsc(void)
{
    check_poly41("tsc");
}

static void test_l1_dsc(void)
{
    check_poly41("dsc");
}

static void test_l1_tsc_plus(void)
{
    check_poly41("tsc-plus");
}

static void test_l1_dl1d(void)
{
    check_poly41("dl1d-static");
}

static void test_l1_conventional(void)
{
    check_poly41("conventional");
}

static void test_l1_sector(void)
{
    check_poly41("sector");
}

/* BALL keeps nothing, so it has no sets; it must still accept the index. */
static void test_l1_ball_accepts(void)
{
    wc_l1 *l1 = make_l1("ball", 41);
    CHECK(l1 != NULL);
    if (l1) free_l1("ball", l1);
}

/*
 * The L2: 64 sets per partition (fermi-16k's N:64:128:16), index P, with
 * -l2_ipoly_poly 97 = x^6 + x^5 + 1 (the reciprocal of the default
 * x^6 + x + 1, so irreducible too).  Reducing by x^6 = x^5 + 1:
 *   x^6 = x^5 + 1                    = 0b100001 = 33
 *   x^7 = x^6 + x = x^5 + x + 1      = 0b100011 = 35
 * line 64 (x^6) -> 33, line 65 -> 32, line 128 (x^7) -> 35, line 192
 * (x^7 + x^6) -> 35 ^ 33 = 2.  Default x^6 + x + 1: line 64 -> x + 1 = 3.
 * The L1 keeps its own polynomial (l1_ipoly_poly untouched).
 */
static int l2_sets(uint32_t poly, uint32_t *out, const uint64_t *lines, size_t n)
{
    wc_config cfg;
    wc_config_defaults(&cfg);
    wc_err err = {{0}};
    char p[16];
    snprintf(p, sizeof p, "%u", poly);
    if (wc_config_set(&cfg, "gpgpu_cache:dl2", "N:64:128:16,L:B:m:N:P,A:32:4,8", "test", &err) ||
        wc_config_set(&cfg, "l2_ipoly_poly", p, "test", &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    wc_mem m;
    memset(&m, 0, sizeof m);
    if (wc_mem_init(&m, &cfg, &err) < 0) {
        fprintf(stderr, "mem: %s\n", err.msg);
        wc_mem_free(&m);
        return -1;
    }
    for (size_t i = 0; i < n; i++) out[i] = wc_index_set(&m.l2[0].tags.index, lines[i] << 7);
    wc_mem_free(&m);
    return 0;
}

static void test_l2_polynomial(void)
{
    const uint64_t lines[] = {5, 64, 65, 128, 192};
    uint32_t s[5];
    CHECK_EQ(l2_sets(97, s, lines, 5), 0);
    CHECK_EQ(s[0], 5);
    CHECK_EQ(s[1], 33);
    CHECK_EQ(s[2], 32);
    CHECK_EQ(s[3], 35);
    CHECK_EQ(s[4], 2);
    CHECK_EQ(l2_sets(0, s, lines, 2), 0);
    CHECK_EQ(s[1], 3);
}

/* A polynomial of the wrong degree for the L2 is refused naming the option;
 * a reducible one (x^6 + 1 = (x^3 + 1)^2) when the L2 is built. */
static void test_l2_bad_polynomial(void)
{
    wc_config cfg;
    wc_config_defaults(&cfg);
    wc_err err = {{0}};
    CHECK_EQ(wc_config_set(&cfg, "l2_ipoly_poly", "37", "test", &err), 0);
    CHECK(wc_config_validate(&cfg, &err) < 0);
    CHECK(strstr(err.msg, "l2_ipoly_poly") != NULL);
    uint32_t s[1];
    const uint64_t line[] = {1};
    CHECK_EQ(l2_sets(65, s, line, 1), -1);
}

int main(void)
{
    RUN(test_l1_tsc);
    RUN(test_l1_dsc);
    RUN(test_l1_tsc_plus);
    RUN(test_l1_dl1d);
    RUN(test_l1_conventional);
    RUN(test_l1_sector);
    RUN(test_l1_ball_accepts);
    RUN(test_l2_polynomial);
    RUN(test_l2_bad_polynomial);
    return check_summary("pric");
}
