/*
 * fuzz_ncu.c - libFuzzer target for the Nsight Compute CSV reader
 * (src/hw/ncu_csv.c, the input of `validate --hw`): any bytes must either
 * parse or be refused with a message that names the file, and what parses
 * holds only finite, non-negative counters and percentages up to 100.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hw/ncu_csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_value(double v, double max)
{
    if (!isnan(v) && (!(v >= 0) || v > max)) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wc_hw_set s;
    wc_err err = {{0}};
    if (wc_ncu_parse((const char *)data, size, "fuzz.csv", &s, &err) < 0) {
        if (strncmp(err.msg, "fuzz.csv", 8) != 0) abort(); /* errors say where */
    } else {
        if (s.n == 0) abort(); /* a parsed file holds a launch */
        for (size_t i = 0; i < s.n; i++) {
            check_value(s.k[i].l1_hit_pct, 100);
            check_value(s.k[i].l2_read_sectors, INFINITY);
            check_value(s.k[i].cycles, INFINITY);
            if (strlen(s.k[i].name) >= sizeof s.k[i].name) abort();
        }
    }
    wc_hw_set_free(&s);
    return 0;
}
