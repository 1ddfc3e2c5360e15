/*
 * config.h - the parsed configuration of one simulated GPU.
 *
 * A wc_config is plain data, built from GPGPU-Sim `gpgpusim.config` syntax
 * (`-name value` lines) plus warpcache's own options, and passed explicitly
 * to everything that needs it: there are no globals, so many configurations
 * can be simulated in one process.  Every option has a name in a table
 * (src/config/options.c); `wc_config_set` sets any of them by name, which is
 * how both files and `-o name=value` on the command line work.
 */
#ifndef WARPCACHE_CONFIG_H
#define WARPCACHE_CONFIG_H

#include "warpcache/common.h"

/* One cache's geometry and policies, in GPGPU-Sim's vocabulary. */
typedef struct wc_cache_geom {
    char type; /* 'N' normal lines, 'S' sectored (4 x 32 B sectors per 128 B line) */
    uint32_t nsets, line_bytes, assoc;
    char repl;         /* 'L' LRU, 'F' FIFO, 'N' NRU, 'R' SRRIP */
    char write_policy; /* 'R' read-only, 'B' write-back, 'T' write-through, 'E' write-evict,
                          'L' local write-back + global write-evict */
    char alloc_policy; /* 'm' on miss, 'f' on fill, 's' streaming (on fill) */
    char write_alloc;  /* 'N' none, 'W' write-allocate, 'F' fetch-on-write, 'L' lazy */
    char set_index;    /* 'L' linear, 'H' Fermi hash, 'P' IPOLY, 'X' bitwise xor */
    char mshr_type;    /* 'A' associative, 'S' sectored, 'T' texture */
    uint32_t mshr_entries, mshr_max_merge;
    uint32_t miss_queue;
    uint32_t result_fifo;     /* 0 = not given */
    uint32_t data_port_width; /* bytes; 0 = not given (the line size) */
} wc_cache_geom;

/* Parses "N:32:128:4,L:L:m:N:H,S:64:8,8" into *g.  Returns -1 with a reason. */
int wc_cache_geom_parse(const char *text, wc_cache_geom *g, wc_err *err);
/* Formats *g back into GPGPU-Sim syntax. */
void wc_cache_geom_format(const wc_cache_geom *g, char *buf, size_t n);
/* Checks the values of *g (power-of-two sets, known letters ...), for
 * geometries built in code; wc_cache_geom_parse already applies it. */
int wc_cache_geom_check(const wc_cache_geom *g, wc_err *err);

#define WC_MAX_PLUGIN_PARAMS 32 /* plug-in parameters set in one configuration */

typedef struct wc_config {
    /* --- SMs ---------------------------------------------------------- */
    uint32_t n_clusters, cores_per_cluster; /* SMs = n_clusters * cores_per_cluster */
    uint32_t max_threads_per_sm;            /* -gpgpu_shader_core_pipeline T:W */
    uint32_t warp_size;
    uint32_t max_blocks_per_sm;        /* -gpgpu_shader_cta */
    uint32_t regs_per_sm;              /* -gpgpu_shader_registers */
    uint32_t shmem_per_sm;             /* -gpgpu_shmem_size */
    uint32_t n_sched_per_sm;           /* -gpgpu_num_sched_per_core */
    char scheduler[64];                /* -gpgpu_scheduler: lrr | gto | ... */
    uint32_t alu_latency, sfu_latency; /* result latency of non-memory ops */
    uint32_t smem_latency;             /* -gpgpu_smem_latency */
    uint32_t oc_wb_latency;            /* operand collector + writeback cycles on those results */
    uint32_t max_warp_limit;           /* active warps per scheduler, 0 = no limit */
    char mem_stage[64];                /* memory stage by registry name[:params] ("inorder") */

    /* Shared-memory instructions in the LD/ST unit (src/core/shmem_unit.c) */
    uint32_t shmem_issue_limit;    /* 1: one per SM per cycle through its dispatch register */
    uint32_t shmem_bank_conflicts; /* 1: each holds it for its bank-conflict degree */
    uint32_t shmem_num_banks;      /* -gpgpu_shmem_num_banks */
    bool shmem_limited_broadcast;  /* -gpgpu_shmem_limited_broadcast */
    uint32_t shmem_warp_parts;     /* -gpgpu_shmem_warp_parts */

    /* Kernel start and end as GPGPU-Sim times them (issue 29) */
    uint32_t exit_store_acks; /* 1: a warp exits once its stores are acknowledged */
    uint32_t block_rr_carry;  /* 1: block dispatch goes on from the SM after the last one */

    /* Memory instructions issued ahead of the memory stage (GPGPU-Sim's
     * ID_OC_MEM register, memory operand collectors and OC_EX_MEM register):
     * "auto" derives the count from the two GPGPU-Sim options below, a number
     * sets it (0: the stage takes an instruction only when it is free). */
    char mem_issue_ahead[16];
    uint32_t oc_units_mem; /* -gpgpu_operand_collector_num_units_mem */
    char pipe_widths[128]; /* -gpgpu_pipeline_widths ID_OC_SP,...,ID_OC_MEM,...,OC_EX_MEM,... */
    uint32_t sched_rotate; /* 1: schedulers take turns at issuing first (GPGPU-Sim 4.x) */
    uint32_t ifetch;       /* 1: GPGPU-Sim's front end (instruction buffers, fetch) */
    uint32_t icache;       /* 1: its L1 instruction cache too (-gpgpu_cache:il1; implies ifetch) */
    bool perfect_icache;   /* -gpgpu_perfect_inst_const_cache: instruction fetches always hit */
    char controllers[256]; /* GPU-wide controllers, "name[:k=v,...][+name...]" */
    uint32_t kernel_launch_latency; /* -gpgpu_kernel_launch_latency: cycles before a kernel's first
                                       block */
    uint32_t tb_launch_latency;     /* -gpgpu_TB_launch_latency: added per block of the kernel */
    char analysis[128];             /* analyses, "name[,name...]" (analysis.h) */

    /* --- L1 data cache ------------------------------------------------ */
    wc_cache_geom l1;
    wc_cache_geom il1;         /* -gpgpu_cache:il1, the instruction cache (-icache 1) */
    char l1_org[64];           /* L1 organisation by registry name ("conventional") */
    uint32_t l1_latency;       /* -gpgpu_l1_latency: hit latency in core cycles */
    bool l1_skip;              /* -gpgpu_gmem_skip_L1D: every global access bypasses L1 */
    bool l1_flush;             /* -gpgpu_flush_l1_cache: invalidate L1s between kernels */
    bool l1_rd_hist;           /* -l1_rd_hist: report the data stores' reuse-distance histogram */
    uint32_t ipoly_poly;       /* L1 IPOLY/PRIC polynomial; 0 = default for the set count */
    uint32_t coalesce_bytes;   /* request granularity: 128 (line) or 32 (sector) */
    uint32_t coalesce_arch;    /* -gpgpu_coalesce_arch, recorded (13/20: 128 B segments) */
    uint32_t l1_mshr_per_warp; /* MSHR entries one warp may hold, 0 = no limit (Fermi: 6) */
    uint32_t ldst_loads_per_warp; /* load instructions in flight per warp, 0 = no limit */

    /* --- interconnect ------------------------------------------------- */
    uint32_t flit_bytes;           /* -icnt_flit_size (warpcache counts data in 32 B flits) */
    uint32_t icnt_latency;         /* one-way latency, core cycles */
    uint32_t icnt_flits_per_cycle; /* per SM port and per L2 port */
    char icnt_model[64];           /* "auto", "ports" or "islip[:params]" (mem/xbar.h) */
    uint32_t network_mode;         /* GPGPU-Sim's -network_mode; 0 = not given */
    char inter_config_file[256];   /* its booksim file (config/booksim.c) */
    /* GPGPU-Sim 4.x's local crossbar (-network_mode 2, -icnt_model local) */
    uint32_t icnt_in_buffer_limit;  /* packets an input (L2 sub-partition) holds */
    uint32_t icnt_out_buffer_limit; /* packets an output (SM) holds */
    uint32_t icnt_subnets;          /* routers: 2, one per direction */
    uint32_t icnt_arbiter_algo;     /* 0 naive round robin, 1 iSLIP */
    uint32_t icnt_grant_cycles;     /* iSLIP: active cycles a grant pointer stays */
    uint32_t ctrl_bytes;            /* header size of a request/response packet */

    /* --- L2 / memory partitions ---------------------------------------- */
    wc_cache_geom l2;              /* per sub-partition */
    uint32_t l2_ipoly_poly;        /* L2 IPOLY/PRIC polynomial; 0 = default for the set count */
    uint32_t n_mem;                /* -gpgpu_n_mem: DRAM channels */
    uint32_t sub_per_channel;      /* -gpgpu_n_sub_partition_per_mchannel */
    uint32_t l2_latency;           /* -gpgpu_l2_rop_latency */
    uint32_t partition_interleave; /* nonzero: bytes per sub-partition in turn (warpcache);
                                      0: GPGPU-Sim's address map below (the default) */
    char addr_mapping[128];        /* -gpgpu_mem_addr_mapping "[dramid@N;]DBRCS0 x 64" */
    uint32_t addr_mask_mode;       /* -gpgpu_mem_address_mask: built-in map without one */
    uint32_t partition_indexing;   /* -gpgpu_memory_partition_indexing 0..4 */

    /* --- DRAM ---------------------------------------------------------- */
    uint32_t dram_latency;           /* -dram_latency, core cycles (as GPGPU-Sim) */
    char dram_timing[256];           /* -gpgpu_dram_timing_opt "nbk=16:...:RCD=12:...:CL=12:..." */
    uint32_t dram_bus_bytes;         /* -gpgpu_dram_buswidth */
    uint32_t dram_burst;             /* -gpgpu_dram_burst_length */
    uint32_t dram_freq_ratio;        /* -dram_data_command_freq_ratio */
    uint32_t dram_chips_per_channel; /* -gpgpu_n_mem_per_ctrlr */
    uint32_t dram_atoms; /* 1: a request moves whole atoms (burst x bus x chips bytes) */
    double clk_core, clk_icnt, clk_l2, clk_dram; /* MHz, -gpgpu_clock_domains */

    /* --- plug-in parameters (params.h): the ones set, by key ------------ */
    uint32_t n_plugin;
    struct {
        char key[48];
        uint64_t value;
    } plugin[WC_MAX_PLUGIN_PARAMS];

    /* --- run control --------------------------------------------------- */
    uint64_t seed;
    uint64_t max_cycles;   /* 0 = unlimited */
    char source_file[512]; /* where the configuration came from, for messages */
    /* which options that act only under a switch were set (a bit per entry
     * of options.c's table of them), so that one set while its switch is off
     * is reported rather than silently inert: wc_config_inert_options */
    uint32_t dependents_set;
} wc_config;

/* Fills the Fermi (GTX 480 class) baseline of the seed papers. */
void wc_config_defaults(wc_config *cfg);

/* Sets one option by name ("gpgpu_cache:dl1" or "-gpgpu_cache:dl1").  `where`
 * prefixes errors ("file:line" or "-o").  Unknown options: returns 1 (the caller
 * lists them once as ignored).  Bad values: -1. */
int wc_config_set(wc_config *cfg, const char *name, const char *value, const char *where,
                  wc_err *err);

/* Lists, into buf ("-gpgpu_cache:il1 (needs -icache 1), ..."), the options
 * that were set (by a file or wc_config_set) but have no effect because the
 * switch they act under is off; returns how many. */
unsigned wc_config_inert_options(const wc_config *cfg, char *buf, size_t n);

/* Callback for options that are not modelled. */
typedef void (*wc_config_ignored_fn)(void *ctx, const char *name, const char *where);

/* Reads a gpgpusim.config file into cfg (on top of what it holds).  On error
 * cfg is unchanged.  An option GPGPU-Sim or Accel-Sim has but warpcache does
 * not model goes to `ignored` (may be NULL) with "PATH:LINE"; a name nobody
 * knows is an error, "PATH:LINE: unknown option -NAME (did you mean -X?)",
 * as GPGPU-Sim stops on it. */
int wc_config_load_file(wc_config *cfg, const char *path, wc_config_ignored_fn ignored, void *ctx,
                        wc_err *err);
/* The same for text already in memory; `name` stands for the path in messages. */
int wc_config_load_text(wc_config *cfg, const char *text, size_t len, const char *name,
                        wc_config_ignored_fn ignored, void *ctx, wc_err *err);
/* Flags of the _flags variants: WC_CONFIG_LENIENT reports a name nobody knows
 * to `ignored` as well, instead of failing (the CLI's --lenient-config). */
#define WC_CONFIG_LENIENT 1u
int wc_config_load_file_flags(wc_config *cfg, const char *path, unsigned flags,
                              wc_config_ignored_fn ignored, void *ctx, wc_err *err);
int wc_config_load_text_flags(wc_config *cfg, const char *text, size_t len, const char *name,
                              unsigned flags, wc_config_ignored_fn ignored, void *ctx, wc_err *err);
/* Whether `name` (a leading '-' is skipped) is an option of a GPGPU-Sim (3.x,
 * 4.x) or Accel-Sim release: one warpcache reads it without modelling it. */
bool wc_config_is_gpgpusim_option(const char *name);
/* The known option name (warpcache's, a plug-in parameter or GPGPU-Sim's)
 * nearest to `name` by a few typing edits, into buf; false if none is near. */
bool wc_config_suggest(const char *name, char *buf, size_t n);
/* Reads GPGPU-Sim's booksim file at `path` (relative to the current
 * directory; a file that is not there or not a regular file is an error)
 * into cfg->icnt_model, as -inter_config_file does for a configuration file
 * (with -network_mode 1 and -icnt_model auto); what it does not model goes
 * to `ignored`. */
int wc_config_read_booksim(wc_config *cfg, const char *path, wc_config_ignored_fn ignored,
                           void *ctx, wc_err *err);

/* Checks consistency (power-of-two sets, non-zero MSHRs ...).  Errors name the option. */
int wc_config_validate(const wc_config *cfg, wc_err *err);

/* Memory instructions that may wait between issue and the memory stage
 * (-mem_issue_ahead; "auto": ID_OC_MEM + memory collector units +
 * OC_EX_MEM widths).  The configuration must be valid. */
uint32_t wc_config_mem_issue_ahead(const wc_config *cfg);

/* DRAM cycles from a row activation to the data (tRCD + tCL of
 * -gpgpu_dram_timing_opt).  The configuration must be valid. */
uint32_t wc_config_dram_access_cycles(const wc_config *cfg);

static inline uint32_t wc_config_n_sm(const wc_config *cfg)
{
    return cfg->n_clusters * cfg->cores_per_cluster;
}
static inline uint32_t wc_config_n_l2(const wc_config *cfg)
{
    return cfg->n_mem * cfg->sub_per_channel;
}

/* Documentation of every modelled option, for `warpcache config --help`. */
typedef struct wc_option_doc {
    const char *name, *help;
} wc_option_doc;
const wc_option_doc *wc_config_options(size_t *count);

/* Formats one option's current value as it would appear in a config file.
 * Returns 0, or 1 when the option is unknown. */
int wc_config_get(const wc_config *cfg, const char *name, char *buf, size_t n);

/* Writes the effective configuration in gpgpusim.config syntax. */
void wc_config_dump(const wc_config *cfg, void *file /* FILE* */);

/* Where configuration errors point: the file, or "configuration" for the
 * built-in defaults and -o options. */
static inline const char *wc_cfg_where(const wc_config *cfg)
{
    return cfg->source_file[0] ? cfg->source_file : "configuration";
}

#endif
