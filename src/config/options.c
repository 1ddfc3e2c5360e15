/*
 * options.c - the table of every modelled option, and the functions it
 * drives: wc_config_set (by name), wc_config_get, wc_config_options (help)
 * and wc_config_dump (the effective configuration as a gpgpusim.config).
 *
 * Each option is one line of WC_OPTION_TABLE: its name (GPGPU-Sim's name
 * without the leading '-', or a warpcache name without the gpgpu_ prefix),
 * its kind, the wc_config field it lives in, its allowed range and a help
 * text.  Adding an option is one line here (plus docs/config.md).  Values
 * are parsed strictly (no "12abc", no negative numbers, no overflow) and
 * checked by the same code that wc_config_validate runs, so a file, a
 * `-o name=value` and a configuration built in code obey the same rules.
 */
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_internal.h"
#include "core/issue_ahead.h"
#include "core/memstage.h"
#include "core/sched.h"
#include "mem/addrdec.h"
#include "mem/mem.h"
#include "mem/xbar.h"
#include "warpcache/cache.h"
#include "warpcache/control.h"
#include "warpcache/params.h"

typedef enum opt_kind {
    OPT_U32,
    OPT_U64,
    OPT_BOOL,
    OPT_STRING,
    OPT_GEOM,     /* a wc_cache_geom string */
    OPT_PIPELINE, /* "threads:warp size" -> max_threads_per_sm, warp_size */
    OPT_CLOCKS    /* "core:icnt:l2:dram" MHz -> clk_core .. clk_dram */
} opt_kind;

typedef enum opt_check {
    CHK_NONE,
    CHK_POW2,        /* numbers: a power of two */
    CHK_COALESCE,    /* numbers: 0 or a power of two */
    CHK_SCHEDULER,   /* strings: a known warp scheduler (see scheduler_check) */
    CHK_NAME,        /* strings: a plug-in name ([A-Za-z0-9_.+-]) */
    CHK_L1_ORG,      /* strings: a registered L1 organisation */
    CHK_AHEAD,       /* strings: "auto" or a count 0..64 (mem_issue_ahead) */
    CHK_WIDTHS,      /* strings: GPGPU-Sim's comma-separated pipeline widths */
    CHK_DRAM_TIMING, /* strings: GPGPU-Sim's -gpgpu_dram_timing_opt */
    CHK_ADDR_MAP,    /* strings: GPGPU-Sim's -gpgpu_mem_addr_mapping (or empty) */
    CHK_POW2_OR_0,   /* numbers: 0 or a power of two */
    CHK_ICNT,        /* strings: -icnt_model (mem/xbar.h) */
    CHK_MEM_STAGE,   /* strings: -mem_stage against the stages' schemas (core/memstage.h) */
    CHK_CONTROLLERS  /* strings: -controllers against the controllers' schemas (control.h) */
} opt_check;

typedef struct opt_desc {
    const char *name;
    opt_kind kind;
    size_t offset, size; /* of the (first) field in wc_config */
    uint64_t min, max;   /* numbers */
    opt_check check;
    const char *help;
} opt_desc;

#define MAX_LAT 1000000u /* latencies: anything longer is a typo */

/* X(name, kind, field, min, max, check, help) */
#define WC_OPTION_TABLE(X)                                                                         \
    /* SMs */                                                                                      \
    X("gpgpu_n_clusters", OPT_U32, n_clusters, 1, 4096, CHK_NONE,                                  \
      "SIMT core clusters; SMs = clusters x cores per cluster")                                    \
    X("gpgpu_n_cores_per_cluster", OPT_U32, cores_per_cluster, 1, 64, CHK_NONE, "SMs per cluster") \
    X("gpgpu_shader_core_pipeline", OPT_PIPELINE, max_threads_per_sm, 0, 0, CHK_NONE,              \
      "<threads per SM>:<warp size> (warp size must be 32)")                                       \
    X("gpgpu_shader_cta", OPT_U32, max_blocks_per_sm, 1, 1024, CHK_NONE,                           \
      "maximum resident thread blocks per SM")                                                     \
    X("gpgpu_shader_registers", OPT_U32, regs_per_sm, 1, 1u << 24, CHK_NONE,                       \
      "registers per SM (limits resident blocks)")                                                 \
    X("gpgpu_shmem_size", OPT_U32, shmem_per_sm, 0, 1u << 24, CHK_NONE,                            \
      "shared memory bytes per SM (limits resident blocks)")                                       \
    X("gpgpu_num_sched_per_core", OPT_U32, n_sched_per_sm, 1, 64, CHK_NONE,                        \
      "warp schedulers per SM")                                                                    \
    X("gpgpu_scheduler", OPT_STRING, scheduler, 0, 0, CHK_SCHEDULER,                               \
      "warp scheduler: lrr | gto (warpcache list schedulers)")                                     \
    X("alu_latency", OPT_U32, alu_latency, 1, MAX_LAT, CHK_NONE,                                   \
      "result latency of ALU instructions, core cycles")                                           \
    X("sfu_latency", OPT_U32, sfu_latency, 1, MAX_LAT, CHK_NONE,                                   \
      "result latency of SFU instructions, core cycles")                                           \
    X("gpgpu_smem_latency", OPT_U32, smem_latency, 1, MAX_LAT, CHK_NONE,                           \
      "shared memory access latency, core cycles")                                                 \
    X("oc_wb_latency", OPT_U32, oc_wb_latency, 0, MAX_LAT, CHK_NONE,                               \
      "cycles added to ALU and SFU result latencies (and one more to shared-memory loads) for "    \
      "GPGPU-Sim's operand collector and writeback stages (5 in GPGPU-Sim: "                       \
      "src/core/op_latency.c); "                                                                   \
      "0 = none")                                                                                  \
    X("shmem_issue_limit", OPT_U32, shmem_issue_limit, 0, 1, CHK_NONE,                             \
      "1 = one shared-memory instruction per SM per cycle (GPGPU-Sim's LD/ST dispatch register: "  \
      "src/core/shmem_unit.c); 0 = each scheduler may issue one")                                  \
    X("shmem_bank_conflicts", OPT_U32, shmem_bank_conflicts, 0, 1, CHK_NONE,                       \
      "1 = a shared-memory instruction holds the LD/ST unit for its bank-conflict degree and "     \
      "its result comes that much later (GPGPU-Sim's rule; implies -shmem_issue_limit); "          \
      "0 = conflict-free")                                                                         \
    X("gpgpu_shmem_num_banks", OPT_U32, shmem_num_banks, 1, 1024, CHK_NONE,                        \
      "shared-memory banks of 4 bytes (used with -shmem_bank_conflicts 1)")                        \
    X("gpgpu_shmem_limited_broadcast", OPT_BOOL, shmem_limited_broadcast, 0, 1, CHK_NONE,          \
      "1 = only one shared-memory word is broadcast per access (used with "                        \
      "-shmem_bank_conflicts 1)")                                                                  \
    X("gpgpu_shmem_warp_parts", OPT_U32, shmem_warp_parts, 1, 32, CHK_POW2,                        \
      "parts of a warp checked for shared-memory bank conflicts one after the other (used with "   \
      "-shmem_bank_conflicts 1)")                                                                  \
    X("exit_store_acks", OPT_U32, exit_store_acks, 0, 1, CHK_NONE,                                 \
      "1 = a warp exits (and its block and kernel end) only once the L2 has acknowledged its "     \
      "stores (GPGPU-Sim's shd_warp_t::stores_done); 0 = when its stream ends")                    \
    X("block_rr_carry", OPT_U32, block_rr_carry, 0, 1, CHK_NONE,                                   \
      "1 = a kernel's first block goes to the SM after the one that took the previous kernel's "   \
      "last block (GPGPU-Sim's m_last_cluster_issue); 0 = to SM 0")                                \
    X("max_warp_limit", OPT_U32, max_warp_limit, 0, 65536, CHK_NONE,                               \
      "active warps per scheduler (static warp limiting); 0 = no limit")                           \
    X("sched_rotate", OPT_U32, sched_rotate, 0, 1, CHK_NONE,                                       \
      "1 = the SM's schedulers take turns at issuing first, one step per cycle (GPGPU-Sim since "  \
      "2017); 0 = scheduler 0 always issues first (GPGPU-Sim 3.x)")                                \
    X("ifetch", OPT_U32, ifetch, 0, 1, CHK_NONE,                                                   \
      "1 = GPGPU-Sim's front end: warps issue from 2-entry instruction buffers refilled one warp " \
      "per cycle; 0 = every next instruction is available at once")                                \
    X("icache", OPT_U32, icache, 0, 1, CHK_NONE,                                                   \
      "1 = the fetch unit looks instructions up in GPGPU-Sim's L1 instruction cache "              \
      "(-gpgpu_cache:il1; misses go through the interconnect and L2 like loads; implies -ifetch "  \
      "1); 0 = instruction fetches always hit")                                                    \
    X("gpgpu_perfect_inst_const_cache", OPT_BOOL, perfect_icache, 0, 1, CHK_NONE,                  \
      "1 = instruction fetches always hit, whatever -icache says (GPGPU-Sim's option; the "        \
      "Pascal-and-later files set it)")                                                            \
    X("gpgpu_kernel_launch_latency", OPT_U32, kernel_launch_latency, 0, MAX_LAT, CHK_NONE,         \
      "core cycles from a kernel's launch to its first block, counted in its cycles")              \
    X("gpgpu_TB_launch_latency", OPT_U32, tb_launch_latency, 0, MAX_LAT, CHK_NONE,                 \
      "core cycles added to the launch latency per thread block of the kernel")                    \
    X("mem_stage", OPT_STRING, mem_stage, 0, 0, CHK_MEM_STAGE,                                     \
      "memory stage between issue and the L1: NAME[:key=value,...] (inorder; warpcache list "      \
      "stages)")                                                                                   \
    X("mem_issue_ahead", OPT_STRING, mem_issue_ahead, 0, 0, CHK_AHEAD,                             \
      "memory instructions issued ahead of the memory stage: auto (ID_OC_MEM + memory operand "    \
      "collector units + OC_EX_MEM, GPGPU-Sim's pipeline) or 0..64 (0: issue waits for the "       \
      "stage)")                                                                                    \
    X("gpgpu_operand_collector_num_units_mem", OPT_U32, oc_units_mem, 0, 64, CHK_NONE,             \
      "operand collector units for memory instructions (count toward mem_issue_ahead auto)")       \
    X("gpgpu_pipeline_widths", OPT_STRING, pipe_widths, 0, 0, CHK_WIDTHS,                          \
      "GPGPU-Sim pipeline register widths ID_OC_SP,ID_OC_DP,ID_OC_INT,ID_OC_SFU,ID_OC_MEM,"        \
      "OC_EX_SP,...,OC_EX_MEM,...; ID_OC_MEM and OC_EX_MEM count toward mem_issue_ahead auto")     \
    X("controllers", OPT_STRING, controllers, 0, 0, CHK_CONTROLLERS,                               \
      "GPU-wide controllers: NAME[:key=value,...][+NAME...] (warpcache list controllers); empty "  \
      "= none")                                                                                    \
    X("analysis", OPT_STRING, analysis, 0, 0, CHK_NONE,                                            \
      "analyses reported as extras: NAME[,NAME...] (contention, locality); empty = none")          \
    /* L1 data cache */                                                                            \
    X("gpgpu_cache:dl1", OPT_GEOM, l1, 0, 0, CHK_NONE, "L1 data cache geometry (per SM)")          \
    X("gpgpu_cache:il1", OPT_GEOM, il1, 0, 0, CHK_NONE,                                            \
      "L1 instruction cache geometry (per SM; used with -icache 1)")                               \
    X("l1_org", OPT_STRING, l1_org, 0, 0, CHK_L1_ORG,                                              \
      "L1 organisation by registry name (conventional, ...)")                                      \
    X("gpgpu_l1_latency", OPT_U32, l1_latency, 1, MAX_LAT, CHK_NONE,                               \
      "L1 hit latency, core cycles")                                                               \
    X("gpgpu_gmem_skip_L1D", OPT_BOOL, l1_skip, 0, 1, CHK_NONE,                                    \
      "1 = global accesses bypass the L1")                                                         \
    X("gpgpu_flush_l1_cache", OPT_BOOL, l1_flush, 0, 1, CHK_NONE,                                  \
      "1 = invalidate the L1s at every kernel boundary (L1 is not coherent)")                      \
    X("l1_rd_hist", OPT_BOOL, l1_rd_hist, 0, 1, CHK_NONE,                                          \
      "1 = report the reuse-distance histogram and footprint of the L1 data stores' access "       \
      "stream (docs/stats.md)")                                                                    \
    X("l1_ipoly_poly", OPT_U32, ipoly_poly, 0, UINT32_MAX, CHK_NONE,                               \
      "IPOLY (set index P) polynomial with its x^n term, degree log2(L1 sets); 0 = default")       \
    X("coalesce_bytes", OPT_U32, coalesce_bytes, 0, 4096, CHK_COALESCE,                            \
      "coalescer segment bytes: a power of two up to the L1 line, or 0 for the L1 line size")      \
    X("l1_mshr_per_warp", OPT_U32, l1_mshr_per_warp, 0, 65536, CHK_NONE,                           \
      "L1 MSHR entries one warp may hold at a time (a further miss of the warp is a "              \
      "MSHR_ENTRY reservation fail); 0 = no limit (seed 003 measured 6 on Fermi)")                 \
    X("ldst_loads_per_warp", OPT_U32, ldst_loads_per_warp, 0, 16, CHK_NONE,                        \
      "load instructions one warp may have in flight (issued, not all requests answered); its "    \
      "next load waits for one to complete; 0 = no limit but the scoreboard's (seed 003's 6 per "  \
      "warp read as incomplete instructions)")                                                     \
    X("gpgpu_coalesce_arch", OPT_U32, coalesce_arch, 0, 1000, CHK_NONE,                            \
      "GPGPU-Sim coalescing architecture (13, 20, ...); recorded, requests are 128 B segments")    \
    /* interconnect */                                                                             \
    X("icnt_flit_size", OPT_U32, flit_bytes, 1, 4096, CHK_NONE, "interconnect flit bytes")         \
    X("icnt_latency", OPT_U32, icnt_latency, 1, MAX_LAT, CHK_NONE,                                 \
      "one-way interconnect latency, core cycles")                                                 \
    X("icnt_flits_per_cycle", OPT_U32, icnt_flits_per_cycle, 1, 1024, CHK_NONE,                    \
      "flits per cycle per SM port and per L2 port")                                               \
    X("icnt_model", OPT_STRING, icnt_model, 0, 0, CHK_ICNT,                                        \
      "ports: each packet passes a timestamped SM port and L2 port; islip[:speedup=2,buf=64]: "    \
      "replies cross GPGPU-Sim's booksim router cycle by cycle (one virtual channel, iSLIP, "      \
      "internal speedup, output buffer in flits); local: GPGPU-Sim 4.x's crossbar (L2 -> SM); "    \
      "auto: islip under -network_mode 1, local under 2, else ports")                              \
    X("inter_config_file", OPT_STRING, inter_config_file, 0, 0, CHK_NONE,                          \
      "GPGPU-Sim's booksim file, beside the configuration: with -network_mode 1 and -icnt_model "  \
      "auto its internal_speedup and vc_buf_size set -icnt_model islip's")                         \
    X("network_mode", OPT_U32, network_mode, 0, 2, CHK_NONE,                                       \
      "GPGPU-Sim's interconnect: 1 booksim (-icnt_model auto: islip), 2 its local crossbar "       \
      "(-icnt_model auto: local), 0 not given")                                                    \
    X("icnt_in_buffer_limit", OPT_U32, icnt_in_buffer_limit, 1, 1u << 20, CHK_NONE,                \
      "-icnt_model local: packets an L2 sub-partition's input buffer holds")                       \
    X("icnt_out_buffer_limit", OPT_U32, icnt_out_buffer_limit, 1, 1u << 20, CHK_NONE,              \
      "-icnt_model local: packets an SM's output buffer holds")                                    \
    X("icnt_subnets", OPT_U32, icnt_subnets, 2, 2, CHK_NONE,                                       \
      "-icnt_model local: routers, one per direction (GPGPU-Sim 4.2 works only with 2)")           \
    X("icnt_arbiter_algo", OPT_U32, icnt_arbiter_algo, 0, 1, CHK_NONE,                             \
      "-icnt_model local: 0 naive round robin, 1 iSLIP")                                           \
    X("icnt_grant_cycles", OPT_U32, icnt_grant_cycles, 1, 1000000, CHK_NONE,                       \
      "-icnt_model local, iSLIP: busy cycles an output's round-robin pointer stays put")           \
    X("ctrl_bytes", OPT_U32, ctrl_bytes, 0, 4096, CHK_NONE,                                        \
      "header bytes of a request/response packet")                                                 \
    /* L2 and memory partitions */                                                                 \
    X("gpgpu_cache:dl2", OPT_GEOM, l2, 0, 0, CHK_NONE, "L2 cache geometry (per sub-partition)")    \
    X("l2_ipoly_poly", OPT_U32, l2_ipoly_poly, 0, UINT32_MAX, CHK_NONE,                            \
      "IPOLY (L2 set index P) polynomial with its x^n term, degree log2(L2 sets); 0 = default")    \
    X("gpgpu_n_mem", OPT_U32, n_mem, 1, 1024, CHK_NONE, "memory channels (partitions)")            \
    X("gpgpu_n_sub_partition_per_mchannel", OPT_U32, sub_per_channel, 1, 64, CHK_NONE,             \
      "L2 sub-partitions per memory channel")                                                      \
    X("gpgpu_l2_rop_latency", OPT_U32, l2_latency, 1, MAX_LAT, CHK_NONE,                           \
      "L2 (ROP) latency, L2 cycles")                                                               \
    X("partition_interleave", OPT_U32, partition_interleave, 0, 1u << 30, CHK_POW2_OR_0,           \
      "nonzero: bytes of consecutive addresses mapped to one sub-partition, in turn (power of "    \
      "two); 0: GPGPU-Sim's address map (-gpgpu_mem_addr_mapping)")                                \
    X("gpgpu_mem_addr_mapping", OPT_STRING, addr_mapping, 0, 0, CHK_ADDR_MAP,                      \
      "GPGPU-Sim's address map: [dramid@N;] then 64 bits of D(channel) B(bank) R(row) C(column) "  \
      "S(burst) 0(unused); empty = the built-in map of -gpgpu_mem_address_mask")                   \
    X("gpgpu_mem_address_mask", OPT_U32, addr_mask_mode, 0, 1000, CHK_NONE,                        \
      "GPGPU-Sim's built-in address map used without -gpgpu_mem_addr_mapping (0, 1, 2, 3, 5, 6, "  \
      "14, 15, 16, 100, 103, 106, 160)")                                                           \
    X("gpgpu_memory_partition_indexing", OPT_U32, partition_indexing, 0, 4, CHK_NONE,              \
      "sub-partition hash: 0 none, 1 XOR, 2 IPOLY, 3 custom (none), 4 random")                     \
    /* DRAM */                                                                                     \
    X("dram_latency", OPT_U32, dram_latency, 1, MAX_LAT, CHK_NONE,                                 \
      "core cycles from the L2 to the DRAM's queue (GPGPU-Sim's dram latency queue)")              \
    X("gpgpu_dram_timing_opt", OPT_STRING, dram_timing, 0, 0, CHK_DRAM_TIMING,                     \
      "DRAM timing, KEY=N:KEY=N...; RCD + CL (DRAM cycles) are added to every access")             \
    X("gpgpu_dram_buswidth", OPT_U32, dram_bus_bytes, 1, 1024, CHK_NONE,                           \
      "DRAM bus bytes per chip")                                                                   \
    X("gpgpu_dram_burst_length", OPT_U32, dram_burst, 1, 1024, CHK_NONE,                           \
      "DRAM burst length, transfers")                                                              \
    X("dram_data_command_freq_ratio", OPT_U32, dram_freq_ratio, 1, 64, CHK_NONE,                   \
      "data transfers per DRAM command clock (4 = GDDR5 QDR)")                                     \
    X("gpgpu_n_mem_per_ctrlr", OPT_U32, dram_chips_per_channel, 1, 64, CHK_NONE,                   \
      "DRAM chips per memory channel")                                                             \
    X("dram_atoms", OPT_U32, dram_atoms, 0, 1, CHK_NONE,                                           \
      "1 = each DRAM request moves whole atoms of burst length x bus width x chips bytes "         \
      "(GPGPU-Sim's dram_atom_size, 64 B on the GTX480 files), so a sectored L2's 32 B sector "    \
      "holds the channel as long as 64 B; 0 = the channel is busy for the bytes moved")            \
    X("gpgpu_clock_domains", OPT_CLOCKS, clk_core, 0, 0, CHK_NONE,                                 \
      "<core>:<interconnect>:<L2>:<DRAM> clocks in MHz")                                           \
    /* run control */                                                                              \
    X("seed", OPT_U64, seed, 0, UINT64_MAX, CHK_NONE, "random seed")                               \
    X("max_cycles", OPT_U64, max_cycles, 0, UINT64_MAX, CHK_NONE,                                  \
      "stop a kernel (and the run) after this many core cycles; 0 = unlimited")

#define OPT_ENTRY(nm, kd, field, lo, hi, chk, hlp)                                                 \
    {nm, kd, offsetof(wc_config, field), sizeof(((wc_config *)0)->field), lo, hi, chk, hlp},
#define DOC_ENTRY(nm, kd, field, lo, hi, chk, hlp) {nm, hlp},

static const opt_desc options[] = {WC_OPTION_TABLE(OPT_ENTRY)};
static const wc_option_doc option_docs[] = {WC_OPTION_TABLE(DOC_ENTRY)};
#define N_OPTIONS (sizeof options / sizeof options[0])

static const opt_desc *find_option(const char *name)
{
    if (name && name[0] == '-') name++;
    for (size_t i = 0; name && i < N_OPTIONS; i++)
        if (strcmp(options[i].name, name) == 0) return &options[i];
    return NULL;
}

const char *wc_cfg_option_name(size_t i)
{
    return i < N_OPTIONS ? options[i].name : NULL;
}

static void *field_of(wc_config *cfg, const opt_desc *d)
{
    return (char *)cfg + d->offset;
}
static const void *cfield_of(const wc_config *cfg, const opt_desc *d)
{
    return (const char *)cfg + d->offset;
}

/* ---- checks on values a configuration holds --------------------------- */

/* -gpgpu_scheduler: a scheduler the simulator has (the registry of
 * src/core/sched.c) with parameters its schema accepts.  A name GPGPU-Sim
 * knows but warpcache does not model (rrr, old, warp_limiting) is refused
 * here, so that a configuration that validates also runs. */
static int scheduler_check(const char *text, wc_err *err)
{
    const wc_sched_ops *ops;
    wc_param_values p;
    return wc_sched_parse(text, &ops, &p, err);
}

/* An L1 organisation the registry has (warpcache list l1). */
static int l1_org_check(const char *text, wc_err *err)
{
    if (wc_l1_find(text)) return 0;
    size_t n;
    const wc_l1_ops *const *all = wc_l1_list(&n);
    char known[256] = "";
    for (size_t i = 0; i < n; i++)
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "",
                 all[i]->name);
    return wc_errf(err, "unknown L1 organisation \"%s\" (known: %s)", text, known);
}

static int name_check(const char *text, wc_err *err)
{
    if (!*text) return wc_errf(err, "empty name");
    for (const char *p = text; *p; p++) {
        char c = *p;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '_' || c == '-' || c == '+' || c == '.';
        if (!ok) return wc_errf(err, "\"%s\" is not a name (letters, digits, _ - + . only)", text);
    }
    return 0;
}

static int number_check(const opt_desc *d, uint64_t v, wc_err *err)
{
    if (v < d->min || v > d->max)
        return wc_errf(err, "%llu is out of range (allowed %llu..%llu)", (unsigned long long)v,
                       (unsigned long long)d->min, (unsigned long long)d->max);
    if (d->check == CHK_POW2_OR_0 && v && !wc_is_pow2(v))
        return wc_errf(err, "%llu is not a power of two (or 0)", (unsigned long long)v);
    if (d->check == CHK_POW2 && !wc_is_pow2(v))
        return wc_errf(err, "%llu is not a power of two", (unsigned long long)v);
    if (d->check == CHK_COALESCE && v && !wc_is_pow2(v))
        return wc_errf(err, "%llu is not a power of two (or 0 for the L1 line size)",
                       (unsigned long long)v);
    return 0;
}

static int pipeline_check(const wc_config *cfg, wc_err *err)
{
    if (cfg->warp_size != 32)
        return wc_errf(err, "warp size %u is not supported (warpcache models 32-wide warps)",
                       cfg->warp_size);
    uint32_t t = cfg->max_threads_per_sm;
    /* 8192 threads = 256 warp slots, what an SM of the simulator holds
     * (WC_MAX_SLOTS in src/core/gpu.h); real GPUs have at most 2048. */
    if (t < 32 || t > 8192 || t % 32)
        return wc_errf(err, "%u threads per SM: must be a multiple of 32 from 32 to 8192", t);
    return 0;
}

static int clocks_check(const wc_config *cfg, wc_err *err)
{
    const double clk[4] = {cfg->clk_core, cfg->clk_icnt, cfg->clk_l2, cfg->clk_dram};
    static const char *const what[4] = {"core", "interconnect", "L2", "DRAM"};
    for (int i = 0; i < 4; i++)
        if (!(clk[i] > 0 && clk[i] <= 1e6))
            return wc_errf(err, "%s clock %g MHz: must be above 0 and at most 1e6", what[i],
                           clk[i]);
    return 0;
}

uint32_t wc_config_dram_access_cycles(const wc_config *cfg)
{
    uint32_t rcd = 0, cl = 0;
    if (wc_dram_timing_parse(cfg->dram_timing, &rcd, &cl, NULL) < 0) return 0;
    return rcd + cl;
}

uint32_t wc_config_mem_issue_ahead(const wc_config *cfg)
{
    uint32_t n = 0;
    if (wc_issue_ahead_parse(cfg->mem_issue_ahead, cfg->pipe_widths, cfg->oc_units_mem, &n, NULL) <
        0)
        return 0;
    return n;
}

static int string_check(const wc_config *cfg, const opt_desc *d, wc_err *err)
{
    const char *s = cfield_of(cfg, d);
    if (!memchr(s, '\0', d->size)) return wc_errf(err, "value is not terminated");
    if (d->check == CHK_SCHEDULER) return scheduler_check(s, err);
    if (d->check == CHK_NAME) return name_check(s, err);
    if (d->check == CHK_L1_ORG) return name_check(s, err) < 0 ? -1 : l1_org_check(s, err);
    if (d->check == CHK_AHEAD) return wc_issue_ahead_parse(s, NULL, 0, NULL, err);
    if (d->check == CHK_WIDTHS) return wc_pipe_widths_parse(s, NULL, NULL, err);
    if (d->check == CHK_ADDR_MAP && s[0]) {
        uint64_t mask[WC_AD__N];
        int chip_s;
        return wc_addrdec_parse(s, mask, &chip_s, err);
    }
    if (d->check == CHK_ICNT) {
        bool is_xbar;
        wc_xbar_params p;
        return wc_xbar_parse(s, cfg->network_mode, &is_xbar, &p, err);
    }
    if (d->check == CHK_DRAM_TIMING) {
        uint32_t rcd, cl;
        return wc_dram_timing_parse(s, &rcd, &cl, err);
    }
    if (d->check == CHK_MEM_STAGE) {
        const wc_mstage_ops *ops;
        wc_param_values p;
        return wc_mstage_parse(s, &ops, &p, err);
    }
    if (d->check == CHK_CONTROLLERS) return wc_controllers_parse(s, NULL, NULL, err);
    return 0;
}

/* The checks of one option on the value cfg holds; reason only, no prefix. */
static int option_check(const wc_config *cfg, const opt_desc *d, wc_err *err)
{
    const void *f = cfield_of(cfg, d);
    switch (d->kind) {
    case OPT_U32: return number_check(d, *(const uint32_t *)f, err);
    case OPT_U64: return number_check(d, *(const uint64_t *)f, err);
    case OPT_BOOL: return 0;
    case OPT_STRING: return string_check(cfg, d, err);
    case OPT_GEOM: return wc_cache_geom_check(f, err);
    case OPT_PIPELINE: return pipeline_check(cfg, err);
    case OPT_CLOCKS: return clocks_check(cfg, err);
    }
    return wc_errf(err, "internal: unknown option kind");
}

int wc_cfg_check_options(const wc_config *cfg, const char *where, wc_err *err)
{
    for (size_t i = 0; i < N_OPTIONS; i++) {
        wc_err why;
        if (option_check(cfg, &options[i], &why) < 0)
            return wc_errf(err, "%s: option -%s: %s", where, options[i].name, why.msg);
    }
    if (cfg->n_plugin > WC_MAX_PLUGIN_PARAMS)
        return wc_errf(err, "%s: more than %u plug-in parameters", where, WC_MAX_PLUGIN_PARAMS);
    for (uint32_t i = 0; i < cfg->n_plugin; i++) {
        const char *key = cfg->plugin[i].key;
        wc_err why;
        const wc_param_desc *d =
            memchr(key, '\0', sizeof cfg->plugin[i].key) ? wc_plugin_param_find(key, NULL) : NULL;
        if (!d) return wc_errf(err, "%s: plug-in parameter %d is not known", where, (int)i);
        if (wc_param_check(d, cfg->plugin[i].value, &why) < 0)
            return wc_errf(err, "%s: option -%s: %s", where, key, why.msg);
    }
    return 0;
}

/* ---- parsing values ------------------------------------------------------ */

static int parse_number(const char *v, uint64_t max, uint64_t *out, wc_err *err)
{
    const char *why = wc_cfg_parse_u64(v, max, out);
    if (why) return wc_errf(err, "\"%s\" %s", v, why);
    return 0;
}

static int parse_bool(const char *v, bool *out, wc_err *err)
{
    if (!strcmp(v, "1") || !strcmp(v, "true"))
        *out = true;
    else if (!strcmp(v, "0") || !strcmp(v, "false"))
        *out = false;
    else
        return wc_errf(err, "\"%s\" is not a boolean (0, 1, true or false)", v);
    return 0;
}

static int parse_double(const char *v, const char *what, double *out, wc_err *err)
{
    char *end;
    double d = strtod(v, &end);
    if (end == v || *end || !isfinite(d)) return wc_errf(err, "%s \"%s\" is not a number", what, v);
    *out = d;
    return 0;
}

static int parse_pipeline(wc_config *cfg, const char *v, wc_err *err)
{
    char buf[64];
    uint64_t threads, warp;
    const char *colon = strchr(v, ':');
    if (!colon || strlen(v) >= sizeof buf)
        return wc_errf(err, "\"%s\" is not <threads per SM>:<warp size>", v);
    memcpy(buf, v, (size_t)(colon - v));
    buf[colon - v] = '\0';
    if (parse_number(buf, UINT32_MAX, &threads, err) < 0 ||
        parse_number(colon + 1, UINT32_MAX, &warp, err) < 0)
        return -1;
    cfg->max_threads_per_sm = (uint32_t)threads;
    cfg->warp_size = (uint32_t)warp;
    return 0;
}

static int parse_clocks(wc_config *cfg, const char *v, wc_err *err)
{
    static const char *const what[4] = {"core clock", "interconnect clock", "L2 clock",
                                        "DRAM clock"};
    double clk[4];
    char buf[128];
    size_t len = strlen(v);
    if (len >= sizeof buf) return wc_errf(err, "value is too long");
    memcpy(buf, v, len + 1);
    char *p = buf;
    for (int i = 0; i < 4; i++) {
        char *colon = strchr(p, ':');
        if ((i < 3) != (colon != NULL))
            return wc_errf(err, "\"%s\" is not <core>:<interconnect>:<L2>:<DRAM> (MHz)", v);
        if (colon) *colon = '\0';
        if (parse_double(p, what[i], &clk[i], err) < 0) return -1;
        if (colon) p = colon + 1;
    }
    cfg->clk_core = clk[0];
    cfg->clk_icnt = clk[1];
    cfg->clk_l2 = clk[2];
    cfg->clk_dram = clk[3];
    return 0;
}

/* Stores text `v` into option d of cfg (syntax only; option_check follows). */
static int parse_value(wc_config *cfg, const opt_desc *d, const char *v, wc_err *err)
{
    void *f = field_of(cfg, d);
    uint64_t n;
    switch (d->kind) {
    case OPT_U32:
        if (parse_number(v, UINT32_MAX, &n, err) < 0) return -1;
        *(uint32_t *)f = (uint32_t)n;
        return 0;
    case OPT_U64:
        if (parse_number(v, UINT64_MAX, &n, err) < 0) return -1;
        *(uint64_t *)f = n;
        return 0;
    case OPT_BOOL: return parse_bool(v, (bool *)f, err);
    case OPT_STRING:
        if (strlen(v) >= d->size)
            return wc_errf(err, "\"%s\" is longer than %zu characters", v, d->size - 1);
        memset(f, 0, d->size);
        memcpy(f, v, strlen(v));
        return 0;
    case OPT_GEOM: return wc_cache_geom_parse(v, f, err);
    case OPT_PIPELINE: return parse_pipeline(cfg, v, err);
    case OPT_CLOCKS: return parse_clocks(cfg, v, err);
    }
    return wc_errf(err, "internal: unknown option kind");
}

/* Copies `v` without surrounding blanks into buf. */
static bool trim_copy(const char *v, char *buf, size_t n)
{
    while (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r') v++;
    size_t len = strlen(v);
    while (len &&
           (v[len - 1] == ' ' || v[len - 1] == '\t' || v[len - 1] == '\n' || v[len - 1] == '\r'))
        len--;
    if (len >= n) return false;
    memcpy(buf, v, len);
    buf[len] = '\0';
    return true;
}

/* A plug-in parameter (params.h): a number checked against the plug-in's
 * range, stored by key in cfg->plugin. */
static int set_plugin_param(wc_config *cfg, const wc_param_desc *d, const char *value,
                            const char *where, wc_err *err)
{
    char buf[64];
    uint64_t v;
    wc_err why;
    if (!value) return wc_errf(err, "%s: option -%s: no value", where, d->key);
    if (!trim_copy(value, buf, sizeof buf))
        return wc_errf(err, "%s: option -%s: value longer than %zu characters", where, d->key,
                       sizeof buf - 1);
    if (parse_number(buf, UINT64_MAX, &v, &why) < 0 || wc_param_check(d, v, &why) < 0)
        return wc_errf(err, "%s: option -%s: %s", where, d->key, why.msg);
    uint32_t i = 0;
    while (i < cfg->n_plugin && strcmp(cfg->plugin[i].key, d->key) != 0) i++;
    if (i == WC_MAX_PLUGIN_PARAMS)
        return wc_errf(err, "%s: option -%s: more than %u plug-in parameters set", where, d->key,
                       WC_MAX_PLUGIN_PARAMS);
    if (i == cfg->n_plugin) {
        snprintf(cfg->plugin[i].key, sizeof cfg->plugin[i].key, "%s", d->key);
        cfg->n_plugin++;
    }
    cfg->plugin[i].value = v;
    return 0;
}

/* Whether a mechanism that some options act under is in use. */
static bool icache_on(const wc_config *cfg)
{
    return cfg->icache != 0;
}
static bool shmem_banks_on(const wc_config *cfg)
{
    return cfg->shmem_bank_conflicts != 0;
}
static bool local_xbar_on(const wc_config *cfg)
{
    bool is_xbar;
    wc_xbar_params p;
    wc_err err;
    return wc_xbar_parse(cfg->icnt_model, cfg->network_mode, &is_xbar, &p, &err) == 0 && is_xbar &&
           p.kind == WC_XBAR_LOCAL;
}

/* Options read from GPGPU-Sim's files that act only under a mechanism that
 * may be off (a warpcache switch, off by default, or an interconnect model):
 * set while it is off, they are reported, not silently inert. */
static const struct {
    const char *name, *needs;
    bool (*active)(const wc_config *cfg);
} dependents[] = {
    {"gpgpu_cache:il1", "-icache 1", icache_on},
    {"gpgpu_shmem_num_banks", "-shmem_bank_conflicts 1", shmem_banks_on},
    {"gpgpu_shmem_limited_broadcast", "-shmem_bank_conflicts 1", shmem_banks_on},
    {"gpgpu_shmem_warp_parts", "-shmem_bank_conflicts 1", shmem_banks_on},
    {"icnt_in_buffer_limit", "-icnt_model local", local_xbar_on},
    {"icnt_out_buffer_limit", "-icnt_model local", local_xbar_on},
    {"icnt_subnets", "-icnt_model local", local_xbar_on},
    {"icnt_arbiter_algo", "-icnt_model local", local_xbar_on},
    {"icnt_grant_cycles", "-icnt_model local", local_xbar_on},
};

static void note_dependent_set(wc_config *cfg, const char *name)
{
    for (size_t i = 0; i < sizeof dependents / sizeof dependents[0]; i++)
        if (strcmp(name, dependents[i].name) == 0) cfg->dependents_set |= 1u << i;
}

unsigned wc_config_inert_options(const wc_config *cfg, char *buf, size_t n)
{
    unsigned count = 0;
    size_t len = 0;
    if (n) buf[0] = '\0';
    for (size_t i = 0; i < sizeof dependents / sizeof dependents[0]; i++) {
        if (!(cfg->dependents_set & (1u << i)) || dependents[i].active(cfg)) continue;
        count++;
        if (len < n)
            len += (size_t)snprintf(buf + len, n - len, "%s-%s (needs %s)", count > 1 ? ", " : "",
                                    dependents[i].name, dependents[i].needs);
    }
    return count;
}

int wc_config_set(wc_config *cfg, const char *name, const char *value, const char *where,
                  wc_err *err)
{
    const opt_desc *d = find_option(name);
    if (!where) where = "-o";
    if (!d) {
        const wc_param_desc *p = wc_plugin_param_find(name, NULL);
        return p ? set_plugin_param(cfg, p, value, where, err) : 1;
    }
    char buf[1024];
    if (!value) return wc_errf(err, "%s: option -%s: no value", where, d->name);
    if (!trim_copy(value, buf, sizeof buf))
        return wc_errf(err, "%s: option -%s: value longer than %zu characters", where, d->name,
                       sizeof buf - 1);
    /* Work on a copy so that a rejected value leaves cfg as it was. */
    wc_config tmp;
    memcpy(&tmp, cfg, sizeof tmp);
    wc_err why;
    if (parse_value(&tmp, d, buf, &why) < 0 || option_check(&tmp, d, &why) < 0)
        return wc_errf(err, "%s: option -%s: %s", where, d->name, why.msg);
    memcpy(cfg, &tmp, sizeof tmp);
    note_dependent_set(cfg, d->name);
    return 0;
}

/* ---- formatting ---------------------------------------------------------- */

/* Shortest of "%.1f" / "%.17g" that reads back as exactly d. */
static void format_double(double d, char *buf, size_t n)
{
    snprintf(buf, n, "%.1f", d);
    if (strtod(buf, NULL) != d) snprintf(buf, n, "%.17g", d);
}

static void format_value(const wc_config *cfg, const opt_desc *d, char *buf, size_t n)
{
    const void *f = cfield_of(cfg, d);
    char c[4][40];
    switch (d->kind) {
    case OPT_U32: snprintf(buf, n, "%u", *(const uint32_t *)f); return;
    case OPT_U64: snprintf(buf, n, "%llu", (unsigned long long)*(const uint64_t *)f); return;
    case OPT_BOOL: snprintf(buf, n, "%d", *(const bool *)f ? 1 : 0); return;
    case OPT_STRING: snprintf(buf, n, "%.*s", (int)d->size, (const char *)f); return;
    case OPT_GEOM: wc_cache_geom_format(f, buf, n); return;
    case OPT_PIPELINE: snprintf(buf, n, "%u:%u", cfg->max_threads_per_sm, cfg->warp_size); return;
    case OPT_CLOCKS:
        format_double(cfg->clk_core, c[0], sizeof c[0]);
        format_double(cfg->clk_icnt, c[1], sizeof c[1]);
        format_double(cfg->clk_l2, c[2], sizeof c[2]);
        format_double(cfg->clk_dram, c[3], sizeof c[3]);
        snprintf(buf, n, "%s:%s:%s:%s", c[0], c[1], c[2], c[3]);
        return;
    }
    snprintf(buf, n, "?");
}

int wc_config_get(const wc_config *cfg, const char *name, char *buf, size_t n)
{
    const opt_desc *d = find_option(name);
    if (!d) {
        const wc_param_desc *p = wc_plugin_param_find(name, NULL);
        if (!p) return 1;
        snprintf(buf, n, "%llu", (unsigned long long)wc_param_get(cfg, p));
        return 0;
    }
    format_value(cfg, d, buf, n);
    return 0;
}

const wc_option_doc *wc_config_options(size_t *count)
{
    *count = N_OPTIONS;
    return option_docs;
}

/* A value needs quotes in a config file if it holds blanks, '#' or nothing. */
static bool needs_quotes(const char *v)
{
    return !*v || strpbrk(v, " \t\n\r#") != NULL;
}

typedef struct dump_ctx {
    const wc_config *cfg;
    FILE *out;
} dump_ctx;

/* A parameter that was set is an option line; one at its default is a
 * comment, so that reading the dump back gives the same configuration. */
static void dump_plugin(void *ctx, const char *owner, const wc_param_desc *d)
{
    dump_ctx *x = ctx;
    bool set = false;
    for (uint32_t i = 0; i < x->cfg->n_plugin && i < WC_MAX_PLUGIN_PARAMS; i++)
        set |= strcmp(x->cfg->plugin[i].key, d->key) == 0;
    fprintf(x->out, "\n# %s (%s)\n%s-%s %llu\n", d->help, owner, set ? "" : "# ", d->key,
            (unsigned long long)wc_param_get(x->cfg, d));
}

void wc_config_dump(const wc_config *cfg, void *file)
{
    FILE *out = file;
    fprintf(out, "# warpcache effective configuration%s%s\n",
            cfg->source_file[0] ? ", loaded from " : "", cfg->source_file);
    fprintf(out, "# gpgpusim.config syntax: `warpcache -c` reads it back unchanged.\n");
    for (size_t i = 0; i < N_OPTIONS; i++) {
        char v[512];
        format_value(cfg, &options[i], v, sizeof v);
        const char *q = needs_quotes(v) ? "\"" : "";
        fprintf(out, "\n# %s\n-%s %s%s%s\n", options[i].help, options[i].name, q, v, q);
    }
    fprintf(out, "\n# ---- plug-in parameters (declared by each plug-in) ----\n");
    dump_ctx x = {cfg, out};
    wc_plugin_params_each(dump_plugin, &x);
}
