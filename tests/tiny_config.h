/*
 * tiny_config.h - the hand-timed GPU the engine tests derive cycle counts
 * on: one SM, one scheduler, round latencies, equal clocks.  By hand (I =
 * icnt 10, R = L2 100, D = DRAM 50): an L2 miss issued at cycle t is
 * answered at t + 186 - the request leaves at t + 1, is at the L2 at t + 12,
 * DRAM starts at t + 112 and ends at t + 166 (50 + 4: 128 B at 32 B per
 * cycle), the 5-flit response leaves the L2 port at t + 171, crosses (10)
 * and drains the SM port at t + 186.  An L2 hit: at the L2 at t + 12, ready
 * at t + 112, port t + 117, SM t + 132.
 */
#ifndef WC_TESTS_TINY_CONFIG_H
#define WC_TESTS_TINY_CONFIG_H

#include <stdio.h>
#include "warpcache/config.h"

static inline void tiny_config(wc_config *c)
{
    wc_config_defaults(c);
    c->n_clusters = 1;
    c->cores_per_cluster = 1;
    c->n_sched_per_sm = 1;
    /* the L1 looked up when a request leaves the stage (the timings below);
     * tests of the latency queue set l1q themselves */
    snprintf(c->mem_stage, sizeof c->mem_stage, "inorder");
    c->alu_latency = 4;
    c->oc_wb_latency = 0; /* results after the units' latencies alone (tests that want the
                             operand collector's stages set them) */
    /* nor the front end, bank conflicts, store acknowledgements at exit or the
     * block order carried across kernels: the tests of each set them */
    c->icache = 0;
    c->shmem_bank_conflicts = 0;
    c->exit_store_acks = 0;
    c->block_rr_carry = 0;
    c->dram_atoms = 0; /* the DRAM moves the bytes asked for */
    c->l1_latency = 20;
    c->icnt_latency = 10;
    c->l2_latency = 100;
    c->dram_latency = 50;
    /* no activate or CAS time: the DRAM is latency + transfer */
    snprintf(c->dram_timing, sizeof c->dram_timing, "RCD=0:CL=0");
    c->clk_core = c->clk_icnt = c->clk_l2 = c->clk_dram = 1000.0;
    /* 4 B bus x 4 x 2 chips = 32 B per cycle: a 128 B line takes 4 cycles. */
    c->dram_bus_bytes = 4;
    c->dram_freq_ratio = 4;
    c->dram_chips_per_channel = 2;
    c->flit_bytes = 32;
    c->ctrl_bytes = 8;
    c->icnt_flits_per_cycle = 1;
}

#endif
