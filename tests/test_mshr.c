/*
 * test_mshr.c - the MSHR table: merging up to max_merge requests per line,
 * MSHR_MERGE when an entry is full, MSHR_ENTRY when the table is full, and
 * release handing back the waiting cookies in arrival order.
 */
#include "check.h"
#include "warpcache/cache.h"

static void test_merge_and_limits(void)
{
    wc_mshr m;
    CHECK(wc_mshr_init(&m, 2, 3) == 0);
    bool is_new = false;
    wc_fail_reason why = WC_FAIL_LINE_ALLOC;
    CHECK_EQ(wc_mshr_find(&m, 0), -1); /* line 0 is a real line, not "free" */
    CHECK_EQ(wc_mshr_probe(&m, 0), WC_FAIL_NONE);
    int e = wc_mshr_add(&m, 0, 11, &is_new, &why);
    CHECK(e >= 0);
    CHECK(is_new);
    CHECK_EQ(why, WC_FAIL_NONE);
    CHECK_EQ(wc_mshr_find(&m, 0), e);
    CHECK_EQ(wc_mshr_add(&m, 0, 12, &is_new, &why), e);
    CHECK(!is_new);
    CHECK_EQ(wc_mshr_add(&m, 0, 13, &is_new, &why), e);
    CHECK_EQ(m.e[e].n_merged, 3);
    /* Fourth request for the same line: the entry holds its maximum. */
    CHECK_EQ(wc_mshr_probe(&m, 0), WC_FAIL_MSHR_MERGE);
    CHECK_EQ(wc_mshr_add(&m, 0, 14, &is_new, &why), -1);
    CHECK_EQ(why, WC_FAIL_MSHR_MERGE);
    CHECK_EQ(m.e[e].n_merged, 3);

    int e2 = wc_mshr_add(&m, 77, 21, &is_new, &why);
    CHECK(e2 >= 0 && e2 != e);
    CHECK(is_new);
    CHECK_EQ(m.used, 2);
    /* A third line: no entry left. */
    CHECK_EQ(wc_mshr_probe(&m, 99), WC_FAIL_MSHR_ENTRY);
    CHECK_EQ(wc_mshr_add(&m, 99, 31, &is_new, &why), -1);
    CHECK_EQ(why, WC_FAIL_MSHR_ENTRY);
    CHECK_EQ(wc_mshr_probe(&m, 77), WC_FAIL_NONE); /* merging still fine */

    uint32_t out[3] = {0, 0, 0};
    CHECK_EQ(wc_mshr_release(&m, 0, out), 3);
    CHECK_EQ(out[0], 11);
    CHECK_EQ(out[1], 12);
    CHECK_EQ(out[2], 13);
    CHECK_EQ(m.used, 1);
    CHECK_EQ(wc_mshr_find(&m, 0), -1);
    CHECK_EQ(wc_mshr_release(&m, 0, out), -1);
    CHECK(wc_mshr_add(&m, 99, 31, &is_new, &why) >= 0);
    CHECK(is_new);
    CHECK_EQ(wc_mshr_release(&m, 77, out), 1);
    CHECK_EQ(out[0], 21);
    CHECK_EQ(wc_mshr_release(&m, 99, out), 1);
    CHECK_EQ(out[0], 31);
    CHECK_EQ(m.used, 0);
    wc_mshr_free(&m);
}

static void test_bad_sizes(void)
{
    wc_mshr m;
    CHECK(wc_mshr_init(&m, 0, 8) < 0);
    CHECK(wc_mshr_init(&m, 32, 0) < 0);
    CHECK(wc_mshr_init(&m, 1u << 20, 1u << 20) < 0);
}

static void test_entries_reused(void)
{
    wc_mshr m;
    CHECK(wc_mshr_init(&m, 4, 1) == 0);
    bool is_new;
    /* Cycle many lines through a small table: entries are recycled cleanly. */
    for (uint32_t i = 0; i < 1000; i++) {
        CHECK(wc_mshr_add(&m, i, i, &is_new, NULL) >= 0);
        if (i >= 3) {
            uint32_t out[1];
            CHECK_EQ(wc_mshr_release(&m, i - 3, out), 1);
            CHECK_EQ(out[0], i - 3);
        }
    }
    CHECK_EQ(m.used, 3);
    wc_mshr_free(&m);
}

/*
 * Releasing by entry (after a lookup) must find the right index position even
 * after other deletions moved it.  An 8-entry table (16 index positions)
 * churned 4000 times with pseudo-random lines (many share a home position,
 * so deletions shift probe runs): when full, a pseudo-randomly chosen live
 * line is found and released by entry, and must hand back exactly its own
 * two cookies (the second added with wc_mshr_merge); every other live line
 * must stay findable after each release.
 */
static void test_release_entry_after_moves(void)
{
    wc_mshr m;
    CHECK(wc_mshr_init(&m, 8, 2) == 0);
    uint64_t live[8], x = 12345;
    uint32_t n = 0, next = 0, failures = 0;
    for (int it = 0; it < 4000; it++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        if (n < 8) {
            uint64_t line = (x >> 24) | 1; /* never 0; distinct with overwhelming odds */
            if (wc_mshr_find(&m, line) >= 0) continue;
            int e = wc_mshr_add(&m, line, 2 * next, NULL, NULL);
            CHECK(e >= 0);
            wc_mshr_merge(&m, e, 2 * next + 1);
            live[n++] = line;
            next++;
            continue;
        }
        uint32_t k = (uint32_t)(x >> 60) % n;
        int e = wc_mshr_find(&m, live[k]);
        uint32_t out[2], want = m.waiters[(uint32_t)e * m.max_merge];
        failures += wc_mshr_release_entry(&m, e, out) != 2 || out[0] != want || out[1] != want + 1;
        failures += wc_mshr_find(&m, live[k]) != -1;
        live[k] = live[--n];
        for (uint32_t i = 0; i < n; i++) failures += wc_mshr_find(&m, live[i]) < 0;
    }
    CHECK_EQ(failures, 0);
    wc_mshr_free(&m);
}

/* lookup + insert (the miss path's single probe): a 2-entry table.  Line 5
 * absent: lookup -1 and a position; insert there; find sees it with one
 * waiter.  Line 9 likewise; a third line finds the table full (-1). */
static void test_lookup_insert(void)
{
    wc_mshr m;
    CHECK(wc_mshr_init(&m, 2, 4) == 0);
    uint32_t pos;
    CHECK_EQ(wc_mshr_lookup(&m, 5, &pos), -1);
    int e = wc_mshr_insert(&m, pos, 5, 77);
    CHECK(e >= 0);
    CHECK_EQ(wc_mshr_find(&m, 5), e);
    CHECK_EQ(m.e[e].n_merged, 1);
    CHECK_EQ(wc_mshr_lookup(&m, 5, &pos), e);
    CHECK_EQ(wc_mshr_lookup(&m, 9, &pos), -1);
    CHECK(wc_mshr_insert(&m, pos, 9, 78) >= 0);
    CHECK_EQ(wc_mshr_lookup(&m, 11, &pos), -1);
    CHECK_EQ(wc_mshr_insert(&m, pos, 11, 79), -1); /* full */
    uint32_t out[4];
    CHECK_EQ(wc_mshr_release(&m, 5, out), 1);
    CHECK_EQ(out[0], 77);
    wc_mshr_free(&m);
}

int main(void)
{
    RUN(test_lookup_insert);
    RUN(test_release_entry_after_moves);
    RUN(test_merge_and_limits);
    RUN(test_bad_sizes);
    RUN(test_entries_reused);
    return check_summary("mshr");
}
