/*
 * num.c - strict unsigned number parsing for configuration values.
 *
 * strtoull alone accepts "12abc" (stops at the 'a'), " 12", "-1" (wraps
 * around) and "+5"; a configuration typo must not silently become a number,
 * so digits are checked by hand and overflow is detected exactly.
 */
#include "config/config_internal.h"

static int digit_value(char c, unsigned base)
{
    int v = -1;
    if (c >= '0' && c <= '9')
        v = c - '0';
    else if (c >= 'a' && c <= 'f')
        v = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
        v = c - 'A' + 10;
    return v >= 0 && (unsigned)v < base ? v : -1;
}

const char *wc_cfg_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
    if (!s || !*s) return "is empty (expected an unsigned integer)";
    if (*s == '-') return "is negative (expected an unsigned integer)";
    unsigned base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
        if (!*s) return "is not a number (0x without hex digits)";
    }
    uint64_t v = 0;
    for (; *s; s++) {
        int d = digit_value(*s, base);
        if (d < 0) return "is not a number (expected an unsigned integer)";
        if (v > (max - (uint64_t)d) / base) return "is too large";
        v = v * base + (uint64_t)d;
    }
    *out = v;
    return NULL;
}
