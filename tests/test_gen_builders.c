/*
 * test_gen_builders.c - the built-in workloads' inline instruction builders
 * (workloads/gen.h) against what an instruction cleared by wc_winst_clear
 * and then given the builder's fields holds.  Both start from the same
 * garbage, so a field the builder forgets to set (or sets differently from
 * wc_winst_clear) shows as a difference anywhere in the structure.
 */
#include <string.h>

#include "check.h"
#include "workloads/gen.h"

static void garbage(wc_winst *a, wc_winst *b, unsigned char byte)
{
    memset(a, byte, sizeof *a);
    memset(b, byte, sizeof *b);
}

static void test_alu(void)
{
    wc_winst got, want;
    const unsigned regs[][3] = {{5, 6, 7},
                                {WC_REG_NONE, 6, WC_REG_NONE},
                                {5, WC_REG_NONE, 9},
                                {WC_REG_NONE, WC_REG_NONE, WC_REG_NONE}};
    for (unsigned i = 0; i < 4; i++) {
        garbage(&got, &want, (unsigned char)(0xa5 + i));
        wc_gen_alu(&got, 0x40, 0x0000ffffu, regs[i][0], regs[i][1], regs[i][2]);
        wc_winst_clear(&want);
        want.pc = 0x40;
        want.mask = 0x0000ffffu;
        if (regs[i][0] != WC_REG_NONE) want.dst[want.ndst++] = (uint16_t)regs[i][0];
        if (regs[i][1] != WC_REG_NONE) want.src[want.nsrc++] = (uint16_t)regs[i][1];
        if (regs[i][2] != WC_REG_NONE) want.src[want.nsrc++] = (uint16_t)regs[i][2];
        CHECK(memcmp(&got, &want, sizeof got) == 0);
    }
}

static void test_mem(void)
{
    const wc_opclass ops[] = {WC_OP_LDG, WC_OP_STG, WC_OP_LDL, WC_OP_STL, WC_OP_ATOM, WC_OP_LDS};
    wc_winst got, want;
    for (unsigned i = 0; i < sizeof ops / sizeof *ops; i++)
        for (unsigned list = 0; list < 2; list++) {
            garbage(&got, &want, (unsigned char)(0x5a + i));
            unsigned reg = i == 3 ? WC_REG_NONE : 3, areg = i == 2 ? WC_REG_NONE : 4;
            if (list)
                wc_gen_mem_list(&got, 0x88, ops[i], 0xf0f0f0f0u, reg, areg, 8);
            else
                wc_gen_mem(&got, 0x88, ops[i], 0xf0f0f0f0u, reg, areg, 8, 0x12345678, -24);
            wc_winst_clear(&want);
            want.pc = 0x88;
            want.mask = 0xf0f0f0f0u;
            want.op = (uint8_t)ops[i];
            want.width = 8;
            if (ops[i] == WC_OP_ATOM) want.flags |= WC_INST_NO_L1_ALLOC;
            bool load = ops[i] == WC_OP_LDG || ops[i] == WC_OP_LDL || ops[i] == WC_OP_LDS ||
                        ops[i] == WC_OP_ATOM;
            if (reg != WC_REG_NONE) {
                if (load)
                    want.dst[want.ndst++] = (uint16_t)reg;
                else
                    want.src[want.nsrc++] = (uint16_t)reg;
            }
            if (areg != WC_REG_NONE) want.src[want.nsrc++] = (uint16_t)areg;
            want.amode = list ? WC_ADDR_LIST : WC_ADDR_STRIDE;
            if (!list) {
                want.base = 0x12345678;
                want.stride = -24;
            }
            CHECK(memcmp(&got, &want, sizeof got) == 0);
        }
}

static void test_bar(void)
{
    wc_winst got, want;
    garbage(&got, &want, 0x3c);
    wc_gen_bar(&got, 0x100);
    wc_winst_clear(&want);
    want.pc = 0x100;
    want.op = WC_OP_BAR;
    CHECK(memcmp(&got, &want, sizeof got) == 0);
}

int main(void)
{
    RUN(test_alu);
    RUN(test_mem);
    RUN(test_bar);
    return check_summary("gen_builders");
}
