/*
 * winst.c - small helpers on the warp-instruction model of trace.h.
 */
#include <string.h>

#include "warpcache/trace.h"

static const char *const op_names[WC_OP__COUNT] = {
    "alu", "sfu", "ldg", "stg", "ldl", "stl", "lds", "sts", "atom", "bar", "exit",
};

const char *wc_opclass_name(wc_opclass op)
{
    return (unsigned)op < WC_OP__COUNT ? op_names[op] : "?";
}

void wc_winst_clear(wc_winst *in)
{
    in->pc = 0;
    in->mask = 0xffffffffu;
    in->op = WC_OP_ALU;
    in->width = 0;
    in->flags = 0;
    in->amode = WC_ADDR_NONE;
    in->ndst = 0;
    in->nsrc = 0;
    in->base = 0;
    in->stride = 0;
}
