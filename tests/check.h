/*
 * check.h - the tiny unit-test harness every tests/test_*.c uses.
 *
 *   static void test_something(void) { CHECK(x == 1); CHECK_EQ(a, b); }
 *   int main(void) { RUN(test_something); return check_summary("suite"); }
 *
 * A test case passes when none of its checks fail.  check_summary() prints
 * "<suite>: N passed, N failed" (test cases), which scripts/run_tests.sh sums.
 */
#ifndef WC_TEST_CHECK_H
#define WC_TEST_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int check_cases_passed, check_cases_failed, check_case_failures;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            check_case_failures++;                                                                 \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);               \
        }                                                                                          \
    } while (0)

#define CHECK_EQ(a, b)                                                                             \
    do {                                                                                           \
        long long check_a_ = (long long)(a), check_b_ = (long long)(b);                            \
        if (check_a_ != check_b_) {                                                                \
            check_case_failures++;                                                                 \
            fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %lld, expected %s == %lld\n", __FILE__, \
                    __LINE__, #a, check_a_, #b, check_b_);                                         \
        }                                                                                          \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                                      \
    do {                                                                                           \
        double check_a_ = (double)(a), check_b_ = (double)(b);                                     \
        if (!(check_a_ - check_b_ <= (tol) && check_b_ - check_a_ <= (tol))) {                     \
            check_case_failures++;                                                                 \
            fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s == %g, expected %g +- %g\n", __FILE__,   \
                    __LINE__, #a, check_a_, check_b_, (double)(tol));                              \
        }                                                                                          \
    } while (0)

#define CHECK_STR(a, b)                                                                            \
    do {                                                                                           \
        const char *check_a_ = (a), *check_b_ = (b);                                               \
        if (!check_a_ || strcmp(check_a_, check_b_) != 0) {                                        \
            check_case_failures++;                                                                 \
            fprintf(stderr, "%s:%d: CHECK_STR failed: %s == \"%s\", expected \"%s\"\n", __FILE__,  \
                    __LINE__, #a, check_a_ ? check_a_ : "(null)", check_b_);                       \
        }                                                                                          \
    } while (0)

#define RUN(fn)                                                                                    \
    do {                                                                                           \
        check_case_failures = 0;                                                                   \
        fn();                                                                                      \
        if (check_case_failures) {                                                                 \
            check_cases_failed++;                                                                  \
            fprintf(stderr, "%s FAILED\n", #fn);                                                   \
        } else {                                                                                   \
            check_cases_passed++;                                                                  \
            fprintf(stderr, "%s ok\n", #fn);                                                       \
        }                                                                                          \
    } while (0)

static inline int check_summary(const char *suite)
{
    printf("%s: %d passed, %d failed\n", suite, check_cases_passed, check_cases_failed);
    return check_cases_failed ? 1 : 0;
}

/* Path of the shared test data (../shared beside the checkout). */
#ifndef WC_SHARED_DIR
#define WC_SHARED_DIR "../shared"
#endif

#endif
