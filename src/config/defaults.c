/*
 * defaults.c - the Fermi (GTX 480 class, GPGPU-Sim 3.2) baseline that the
 * seed papers share (shared/specs/techniques.md, first section), as a
 * wc_config.  Where the seeds say nothing the GTX480 gpgpusim.config of
 * GPGPU-Sim supplies the value; docs/config.md gives the source of each.
 * configs/fermi-16k.config is the same configuration written as a file.
 */
#include <stdio.h>
#include <string.h>

#include "warpcache/config.h"

/* Geometry from its string.  The strings below are constants that parse
 * (tests/test_config.c validates the defaults); a typo would leave zeros,
 * which wc_config_validate rejects. */
static void set_geom(wc_cache_geom *g, const char *text)
{
    wc_err err;
    if (wc_cache_geom_parse(text, g, &err) < 0) memset(g, 0, sizeof *g);
}

void wc_config_defaults(wc_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);

    /* SMs: 15 SMs, 1536 threads (48 warps), 8 blocks, 32768 registers, 48 KB shared */
    cfg->n_clusters = 15;
    cfg->cores_per_cluster = 1;
    cfg->max_threads_per_sm = 1536;
    cfg->warp_size = 32;
    cfg->max_blocks_per_sm = 8;
    cfg->regs_per_sm = 32768;
    cfg->shmem_per_sm = 49152;
    cfg->n_sched_per_sm = 2;
    snprintf(cfg->scheduler, sizeof cfg->scheduler, "gto");
    cfg->alu_latency = 4;  /* ptx_opcode_latency_int ADD of the GTX480 file */
    cfg->sfu_latency = 20; /* warpcache choice: one SFU pass on Fermi (see docs) */
    cfg->smem_latency = 26;
    cfg->oc_wb_latency =
        5; /* GPGPU-Sim 3.x and 4.x: collector and writeback stages (op_latency.c) */
    cfg->shmem_issue_limit = 0; /* warpcache: shared-memory instructions are not held */
    /* GPGPU-Sim 3.x and 4.x: a bank conflict holds the LD/ST unit (shmem_unit.c) */
    cfg->shmem_bank_conflicts = 1;
    /* the GTX480 file's values (GPGPU-Sim's own defaults are 16, 1, 2) */
    cfg->shmem_num_banks = 32;
    cfg->shmem_limited_broadcast = false;
    cfg->shmem_warp_parts = 1;
    /* GPGPU-Sim 3.x and 4.x: a warp retires once its stores are acknowledged
     * (hardware_done), and block dispatch keeps its round robin across kernels
     * (m_last_cluster_issue); docs/fidelity.md, "Kernel end and block dispatch" */
    cfg->exit_store_acks = 1;
    cfg->block_rr_carry = 1;
    cfg->max_warp_limit = 0;
    cfg->sched_rotate = 1; /* GPGPU-Sim 4.x: shader_core_ctx::issue's Issue_Prio */
    cfg->ifetch = 0;       /* implied by -icache 1 */
    cfg->icache = 1;       /* GPGPU-Sim 3.x and 4.x: fetch through the L1I (src/core/icache.c) */
    cfg->perfect_icache = false;
    cfg->kernel_launch_latency = 0; /* GPGPU-Sim 3.x had none; its 4.x files set 5000 */
    cfg->tb_launch_latency = 0;

    /* L1D: 16 KB, 4-way, 128 B lines (32 sets), LRU, write-evict, allocate on
     * miss, Fermi hash index, 32 MSHRs merging 8 requests, 8-entry miss queue */
    set_geom(&cfg->l1, "N:32:128:4,L:L:m:N:H,A:32:8,8");
    /* L1I (-icache 1): the GTX480 files' 2 KB, 4 sets of 4 x 128 B lines,
     * LRU, read-only, allocate on fill, linear index, 2 MSHRs merging 32
     * fetches, 4-entry miss queue (GPGPU-Sim 3.2's letters, A; SM2_GTX480
     * writes S, a type icache.c does not tell apart) */
    set_geom(&cfg->il1, "N:4:128:4,L:R:f:N:L,A:2:32,4");
    snprintf(cfg->l1_org, sizeof cfg->l1_org, "conventional");
    /* GPGPU-Sim 4.x's L1 latency queue (docs/fidelity.md); 3.x: "inorder" */
    snprintf(cfg->mem_stage, sizeof cfg->mem_stage, "l1q");
    /* GPGPU-Sim's pipeline ahead of the LD/ST unit: the GTX480 file's widths
     * (ID_OC_MEM 1, OC_EX_MEM 1) and its default 2 memory collector units. */
    snprintf(cfg->mem_issue_ahead, sizeof cfg->mem_issue_ahead, "auto");
    cfg->oc_units_mem = 2;
    snprintf(cfg->pipe_widths, sizeof cfg->pipe_widths, "2,0,0,1,1,2,0,0,1,1,2");
    cfg->l1_mshr_per_warp = 0;    /* warpcache: no per-warp limit (GPGPU-Sim has none) */
    cfg->ldst_loads_per_warp = 0; /* warpcache: only the scoreboard's (GPGPU-Sim's) */
    cfg->l1_latency = 20;         /* GPGPU-Sim 3.2 had no L1 latency option; see docs */
    cfg->l1_skip = false;
    cfg->l1_flush = true; /* GTX480 file; Fermi's L1 is not coherent across kernels */
    cfg->ipoly_poly = 0;
    cfg->l2_ipoly_poly = 0;
    cfg->coalesce_bytes = 128;
    cfg->coalesce_arch = 20;

    /* interconnect: 32 B flits */
    cfg->flit_bytes = 32;
    cfg->icnt_latency = 10; /* GPGPU-Sim 4.2's unloaded L2 round trip with the l1q stage */
    cfg->icnt_flits_per_cycle = 1;
    snprintf(cfg->icnt_model, sizeof cfg->icnt_model, "auto"); /* ports unless -network_mode 1/2 */
    /* the local crossbar: GPGPU-Sim 4.2's registered defaults (icnt_wrapper.cc);
     * its Volta and Turing files set 512 and 512 */
    cfg->icnt_in_buffer_limit = 64;
    cfg->icnt_out_buffer_limit = 64;
    cfg->icnt_subnets = 2;
    cfg->icnt_arbiter_algo = 1;
    cfg->icnt_grant_cycles = 1;
    cfg->ctrl_bytes = 8;

    /* L2: 6 partitions x 128 KB (64 sets x 16 ways x 128 B), write-back */
    set_geom(&cfg->l2, "N:64:128:16,L:B:m:N:L,A:32:4,8");
    cfg->n_mem = 6;
    cfg->sub_per_channel = 1;
    cfg->l2_latency = 120;
    /* GPGPU-Sim's GTX480 address map (3.2.2 and 4.2 files): channel =
     * address / 256 mod 6, L2 sets indexed within the channel */
    cfg->partition_interleave = 0;
    snprintf(cfg->addr_mapping, sizeof cfg->addr_mapping, "%s",
             "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS");
    cfg->addr_mask_mode = 1;
    cfg->partition_indexing = 0;

    /* GDDR5 DRAM, GTX480 file values */
    cfg->dram_latency = 100;
    snprintf(cfg->dram_timing, sizeof cfg->dram_timing, "%s",
             "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=1:CCDL=0:"
             "RTPL=0"); /* the GTX480 file */
    cfg->dram_bus_bytes = 4;
    cfg->dram_burst = 8;
    cfg->dram_freq_ratio = 4;
    cfg->dram_chips_per_channel = 2;
    cfg->dram_atoms = 1; /* GPGPU-Sim: requests move whole atoms (memsys.c) */
    cfg->clk_core = 700.0;
    cfg->clk_icnt = 700.0;
    cfg->clk_l2 = 700.0;
    cfg->clk_dram = 924.0;

    cfg->seed = 1;
    cfg->max_cycles = 0;
}
