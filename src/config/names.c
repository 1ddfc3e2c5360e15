/*
 * names.c - the option names warpcache recognises without modelling them, and
 * the "did you mean" of an option name nobody knows.
 *
 * A GPGPU-Sim configuration holds many options warpcache does not model
 * (power, PTX, DRAM scheduling details ...): those are listed once as
 * ignored.  A name that no GPGPU-Sim release and not warpcache knows is a
 * typo (GPGPU-Sim itself stops on it), and a typo in a configuration must not
 * run silently with the default.  The list below is every name registered
 * with option_parser_register by GPGPU-Sim from 3.0 to 4.x
 * (accel-sim/gpgpu-sim_distribution: src/gpgpu-sim/gpu-sim.cc, shader.cc,
 * addrdec.cc, icnt_wrapper.cc, power options, src/cuda-sim/, src/
 * abstract_hardware_model.cc, including -specialized_unit_1..8 registered in a
 * loop and names later releases renamed, e.g. -rop_latency, -l1_latency) and
 * by Accel-Sim's trace-driven front end (accel-sim/accel-sim-framework:
 * gpu-simulator/trace-driven/trace_driven.cc, -trace and -trace_*), without
 * the leading '-', sorted by strcmp for the binary search.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_internal.h"
#include "warpcache/params.h"

static const char *const gpgpusim_names[] = {
    "Elimnate_rw_turnaround",
    "SST_mode",
    "Seperate_Write_Queue_Enable",
    "Write_Queue_Size",
    "accelwattch_hybrid_perfsim_CC_ACC",
    "accelwattch_hybrid_perfsim_CYCLES",
    "accelwattch_hybrid_perfsim_DRAM_RD",
    "accelwattch_hybrid_perfsim_DRAM_WR",
    "accelwattch_hybrid_perfsim_L1_RH",
    "accelwattch_hybrid_perfsim_L1_RM",
    "accelwattch_hybrid_perfsim_L1_WH",
    "accelwattch_hybrid_perfsim_L1_WM",
    "accelwattch_hybrid_perfsim_L2_RH",
    "accelwattch_hybrid_perfsim_L2_RM",
    "accelwattch_hybrid_perfsim_L2_WH",
    "accelwattch_hybrid_perfsim_L2_WM",
    "accelwattch_hybrid_perfsim_NOC",
    "accelwattch_hybrid_perfsim_NUM_SM_IDLE",
    "accelwattch_hybrid_perfsim_PIPE_DUTY",
    "accelwattch_hybrid_perfsim_SHARED_ACC",
    "accelwattch_hybrid_perfsim_VOLTAGE",
    "accelwattch_xml_file",
    "adaptive_cache_config",
    "adaptive_volta_cache_config",
    "adpative_volta_cache_config",
    "aggregate_power_stats",
    "arbiter_algo",
    "cdp_latency",
    "checkpoint_CTA",
    "checkpoint_CTA_t",
    "checkpoint_insn_Y",
    "checkpoint_kernel",
    "checkpoint_option",
    "dram_bnk_indexing_policy",
    "dram_bnkgrp_indexing_policy",
    "dram_data_command_freq_ratio",
    "dram_dual_bus_interface",
    "dram_elimnate_rw_turnaround",
    "dram_latency",
    "dram_seperate_write_queue_enable",
    "dram_write_queue_size",
    "dual_bus_interface",
    "dvfs_enabled",
    "enable_ptx_file_line_stats",
    "enable_specialized_operand_collector",
    "gmem_skip_L1D",
    "gpgpu_TB_launch_latency",
    "gpgpu_adaptive_cache_config",
    "gpgpu_cache:dl1",
    "gpgpu_cache:dl1PreShared",
    "gpgpu_cache:dl1PrefL1",
    "gpgpu_cache:dl1PrefShared",
    "gpgpu_cache:dl2",
    "gpgpu_cache:dl2_texture_only",
    "gpgpu_cache:il1",
    "gpgpu_cdp_enabled",
    "gpgpu_cflog_interval",
    "gpgpu_clock_domains",
    "gpgpu_clock_gated_lanes",
    "gpgpu_clock_gated_reg_file",
    "gpgpu_coalesce_arch",
    "gpgpu_compute_capability_major",
    "gpgpu_compute_capability_minor",
    "gpgpu_concurrent_kernel_sm",
    "gpgpu_const_cache:l1",
    "gpgpu_deadlock_detect",
    "gpgpu_dram_burst_length",
    "gpgpu_dram_buswidth",
    "gpgpu_dram_partition_queues",
    "gpgpu_dram_return_queue_size",
    "gpgpu_dram_sched_queue_size",
    "gpgpu_dram_scheduler",
    "gpgpu_dram_timing_opt",
    "gpgpu_dual_issue_diff_exec_units",
    "gpgpu_enable_specialized_operand_collector",
    "gpgpu_experimental_lib_support",
    "gpgpu_flush_cache",
    "gpgpu_flush_l1_cache",
    "gpgpu_flush_l2_cache",
    "gpgpu_frfcfs_dram_sched_queue_size",
    "gpgpu_gmem_skip_L1D",
    "gpgpu_heap_size_limit",
    "gpgpu_ignore_resources_limitation",
    "gpgpu_inst_fetch_throughput",
    "gpgpu_kernel_launch_latency",
    "gpgpu_l1_banks",
    "gpgpu_l1_banks_byte_interleaving",
    "gpgpu_l1_banks_hashing_function",
    "gpgpu_l1_cache_write_ratio",
    "gpgpu_l1_latency",
    "gpgpu_l2_rop_latency",
    "gpgpu_local_mem_map",
    "gpgpu_max_completed_cta",
    "gpgpu_max_concurrent_kernel",
    "gpgpu_max_cta",
    "gpgpu_max_cycle",
    "gpgpu_max_insn",
    "gpgpu_max_insn_issue_per_warp",
    "gpgpu_mem_addr_mapping",
    "gpgpu_mem_addr_test",
    "gpgpu_mem_address_mask",
    "gpgpu_mem_unit_ports",
    "gpgpu_memlatency_stat",
    "gpgpu_memory_partition_indexing",
    "gpgpu_n_cluster_ejection_buffer_size",
    "gpgpu_n_clusters",
    "gpgpu_n_cores_per_cluster",
    "gpgpu_n_ldst_response_buffer_size",
    "gpgpu_n_mem",
    "gpgpu_n_mem_per_ctrlr",
    "gpgpu_n_sub_partition_per_mchannel",
    "gpgpu_num_cta_barriers",
    "gpgpu_num_dp_units",
    "gpgpu_num_int_units",
    "gpgpu_num_mem_units",
    "gpgpu_num_reg_banks",
    "gpgpu_num_sched_per_core",
    "gpgpu_num_sfu_units",
    "gpgpu_num_sp_units",
    "gpgpu_num_tensor_core_units",
    "gpgpu_num_vp_core_units",
    "gpgpu_occupancy_sm_number",
    "gpgpu_operand_collector_num_in_ports_dp",
    "gpgpu_operand_collector_num_in_ports_gen",
    "gpgpu_operand_collector_num_in_ports_int",
    "gpgpu_operand_collector_num_in_ports_mem",
    "gpgpu_operand_collector_num_in_ports_sfu",
    "gpgpu_operand_collector_num_in_ports_sp",
    "gpgpu_operand_collector_num_in_ports_tensor_core",
    "gpgpu_operand_collector_num_in_ports_vp_core",
    "gpgpu_operand_collector_num_out_ports_dp",
    "gpgpu_operand_collector_num_out_ports_gen",
    "gpgpu_operand_collector_num_out_ports_int",
    "gpgpu_operand_collector_num_out_ports_mem",
    "gpgpu_operand_collector_num_out_ports_sfu",
    "gpgpu_operand_collector_num_out_ports_sp",
    "gpgpu_operand_collector_num_out_ports_tensor_core",
    "gpgpu_operand_collector_num_out_ports_vp_core",
    "gpgpu_operand_collector_num_units_dp",
    "gpgpu_operand_collector_num_units_gen",
    "gpgpu_operand_collector_num_units_int",
    "gpgpu_operand_collector_num_units_mem",
    "gpgpu_operand_collector_num_units_sfu",
    "gpgpu_operand_collector_num_units_sp",
    "gpgpu_operand_collector_num_units_tensor_core",
    "gpgpu_operand_collector_num_units_vp_core",
    "gpgpu_perf_sim_memcpy",
    "gpgpu_perfect_inst_const_cache",
    "gpgpu_perfect_mem",
    "gpgpu_pipeline_widths",
    "gpgpu_ptx_convert_to_ptxplus",
    "gpgpu_ptx_force_max_capability",
    "gpgpu_ptx_inst_debug_file",
    "gpgpu_ptx_inst_debug_thread_uid",
    "gpgpu_ptx_inst_debug_to_file",
    "gpgpu_ptx_instruction_classification",
    "gpgpu_ptx_save_converted_ptxplus",
    "gpgpu_ptx_sim_mode",
    "gpgpu_ptx_use_cuobjdump",
    "gpgpu_reg_bank_use_warp_id",
    "gpgpu_reg_file_port_throughput",
    "gpgpu_registers_per_block",
    "gpgpu_runtime_pending_launch_count_limit",
    "gpgpu_runtime_stat",
    "gpgpu_runtime_sync_depth_limit",
    "gpgpu_scheduler",
    "gpgpu_shader_core_pipeline",
    "gpgpu_shader_cta",
    "gpgpu_shader_registers",
    "gpgpu_shmem_limited_broadcast",
    "gpgpu_shmem_num_banks",
    "gpgpu_shmem_option",
    "gpgpu_shmem_per_block",
    "gpgpu_shmem_size",
    "gpgpu_shmem_sizeDefault",
    "gpgpu_shmem_size_PrefL1",
    "gpgpu_shmem_size_PrefShared",
    "gpgpu_shmem_warp_parts",
    "gpgpu_simd_model",
    "gpgpu_simple_dram_model",
    "gpgpu_simt_core_sim_order",
    "gpgpu_smem_latency",
    "gpgpu_stack_size_limit",
    "gpgpu_sub_core_model",
    "gpgpu_tensor_core_avail",
    "gpgpu_tex_cache:l1",
    "gpgpu_unified_l1d_size",
    "gpgpu_warp_issue_shader",
    "gpgpu_warpdistro_shader",
    "gpuwattch_xml_file",
    "hw_perf_bench_name",
    "hw_perf_file_name",
    "icnt_arbiter_algo",
    "icnt_flit_size",
    "icnt_grant_cycles",
    "icnt_in_buffer_limit",
    "icnt_out_buffer_limit",
    "icnt_subnets",
    "icnt_verbose",
    "inct_grant_cycles",
    "inct_in_buffer_limit",
    "inct_out_buffer_limit",
    "inct_subnets",
    "inct_verbose",
    "inst_fetch_throughput",
    "inter_config_file",
    "keep",
    "l1_banks",
    "l1_latency",
    "l2_ideal",
    "liveness_message_freq",
    "mem_unit_ports",
    "memory_partition_indexing",
    "n_regfile_gating_group",
    "network_mode",
    "perf_sim_memcpy",
    "perfect_inst_const_cache",
    "power_per_cycle_dump",
    "power_simulation_enabled",
    "power_simulation_mode",
    "power_trace_enabled",
    "power_trace_zlevel",
    "ptx_line_stats_filename",
    "ptx_opcode_initiation_dp",
    "ptx_opcode_initiation_fp",
    "ptx_opcode_initiation_int",
    "ptx_opcode_initiation_sfu",
    "ptx_opcode_initiation_tensor",
    "ptx_opcode_latency_dp",
    "ptx_opcode_latency_fp",
    "ptx_opcode_latency_int",
    "ptx_opcode_latency_sfu",
    "ptx_opcode_latency_tesnor",
    "resume_CTA",
    "resume_kernel",
    "resume_option",
    "rop_latency",
    "save_embedded_ptx",
    "simple_dram_model",
    "smem_latency",
    "specialized_unit_1",
    "specialized_unit_2",
    "specialized_unit_3",
    "specialized_unit_4",
    "specialized_unit_5",
    "specialized_unit_6",
    "specialized_unit_7",
    "specialized_unit_8",
    "steady_power_levels_enabled",
    "steady_state_definition",
    "sub_core_model",
    "trace",
    "trace_components",
    "trace_driven_mode",
    "trace_enabled",
    "trace_opcode_latency_initiation_dp",
    "trace_opcode_latency_initiation_int",
    "trace_opcode_latency_initiation_sfu",
    "trace_opcode_latency_initiation_sp",
    "trace_opcode_latency_initiation_spec_op_1",
    "trace_opcode_latency_initiation_spec_op_2",
    "trace_opcode_latency_initiation_spec_op_3",
    "trace_opcode_latency_initiation_spec_op_4",
    "trace_opcode_latency_initiation_spec_op_5",
    "trace_opcode_latency_initiation_spec_op_6",
    "trace_opcode_latency_initiation_spec_op_7",
    "trace_opcode_latency_initiation_spec_op_8",
    "trace_opcode_latency_initiation_tensor",
    "trace_sampling_core",
    "trace_sampling_memory_partition",
    "trace_skip_first_kernel",
    "visualizer_enabled",
    "visualizer_outputfile",
    "visualizer_zlevel",
};
#define N_GPGPUSIM (sizeof gpgpusim_names / sizeof gpgpusim_names[0])

static int by_name(const void *key, const void *elem)
{
    return strcmp(key, *(const char *const *)elem);
}

bool wc_config_is_gpgpusim_option(const char *name)
{
    if (!name) return false;
    if (name[0] == '-') name++;
    return bsearch(name, gpgpusim_names, N_GPGPUSIM, sizeof gpgpusim_names[0], by_name) != NULL;
}

#define MAX_NAME 128

/* Edits (insert, delete, substitute, swap two neighbours) from a to b: a
 * swap is one typo ("cat" for "cta"), so it costs one, not two. */
static unsigned edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la >= MAX_NAME || lb >= MAX_NAME) return MAX_NAME;
    unsigned d[3][MAX_NAME + 1]; /* rows i-2, i-1 and i of the table, in turn */
    for (size_t j = 0; j <= lb; j++) d[0][j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++) {
        unsigned *cur = d[i % 3], *up = d[(i - 1) % 3], *up2 = d[(i + 1) % 3];
        cur[0] = (unsigned)i;
        for (size_t j = 1; j <= lb; j++) {
            unsigned best = up[j - 1] + (a[i - 1] != b[j - 1]);
            if (up[j] + 1 < best) best = up[j] + 1;
            if (cur[j - 1] + 1 < best) best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                up2[j - 2] + 1 < best)
                best = up2[j - 2] + 1;
            cur[j] = best;
        }
    }
    return d[la % 3][lb];
}

typedef struct nearest {
    const char *name;
    const char *best;
    unsigned dist;
} nearest;

static void consider(nearest *n, const char *candidate)
{
    unsigned d = edit_distance(n->name, candidate);
    if (d < n->dist) {
        n->dist = d;
        n->best = candidate;
    }
}

static void consider_param(void *ctx, const char *owner, const wc_param_desc *d)
{
    (void)owner;
    consider(ctx, d->key);
}

bool wc_config_suggest(const char *name, char *buf, size_t n)
{
    if (!name || !n) return false;
    if (name[0] == '-') name++;
    /* A third of the name, at least one and at most three edits: "l1" is no
     * typo of "l2", but "gpgpu_shader_cat" is one of "gpgpu_shader_cta". */
    size_t len = strlen(name);
    unsigned limit = len / 3 < 1 ? 1 : len / 3 > 3 ? 3 : (unsigned)(len / 3);
    nearest best = {name, NULL, limit + 1};
    for (size_t i = 0; wc_cfg_option_name(i); i++) consider(&best, wc_cfg_option_name(i));
    wc_plugin_params_each(consider_param, &best);
    for (size_t i = 0; i < N_GPGPUSIM; i++) consider(&best, gpgpusim_names[i]);
    if (!best.best || best.dist == 0) return false;
    snprintf(buf, n, "%s", best.best);
    return true;
}
