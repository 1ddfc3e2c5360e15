/*
 * metrics.c - the table of reported metrics (see metrics.h and docs/stats.md).
 */
#include "report/metrics.h"

#define U(name, expr)                                                                              \
    static double name(const wc_kstats *k)                                                         \
    {                                                                                              \
        return (double)(expr);                                                                     \
    }

U(m_cycles, k->cycles)
U(m_warp_insts, k->warp_insts)
U(m_thread_insts, k->thread_insts)
U(m_ipc, wc_kstats_ipc(k))
U(m_warp_ipc, wc_kstats_warp_ipc(k))
U(m_op_mem, k->op_count[WC_OP_LDG] + k->op_count[WC_OP_STG] + k->op_count[WC_OP_LDL] +
                k->op_count[WC_OP_STL] + k->op_count[WC_OP_ATOM])
U(m_op_ldg, k->op_count[WC_OP_LDG])
U(m_op_stg, k->op_count[WC_OP_STG])
U(m_op_local, k->op_count[WC_OP_LDL] + k->op_count[WC_OP_STL])
U(m_op_shared, k->op_count[WC_OP_LDS] + k->op_count[WC_OP_STS])
U(m_op_atom, k->op_count[WC_OP_ATOM])
U(m_op_alu, k->op_count[WC_OP_ALU] + k->op_count[WC_OP_SFU])
U(m_op_bar, k->op_count[WC_OP_BAR])
U(m_gmem_reqs, k->gmem_reqs)
U(m_stall, k->mem_stall_cycles)
U(m_stall_line, k->mem_stall_by[WC_FAIL_LINE_ALLOC])
U(m_stall_mq, k->mem_stall_by[WC_FAIL_MISS_QUEUE_FULL])
U(m_stall_entry, k->mem_stall_by[WC_FAIL_MSHR_ENTRY])
U(m_stall_merge, k->mem_stall_by[WC_FAIL_MSHR_MERGE])
U(m_stall_rw, k->mem_stall_by[WC_FAIL_MSHR_RW_PENDING])
U(m_l1_acc, k->l1.accesses)
U(m_l1_reads, k->l1.reads)
U(m_l1_writes, k->l1.writes)
U(m_l1_hits, k->l1.outcome[WC_HIT])
U(m_l1_hitres, k->l1.outcome[WC_HIT_RESERVED])
U(m_l1_misses, wc_kstats_l1_misses(k))
U(m_l1_secmiss, k->l1.outcome[WC_SECTOR_MISS])
U(m_l1_bypass, k->l1.outcome[WC_BYPASSED])
U(m_l1_missrate, wc_kstats_l1_miss_rate(k))
U(m_l1_mpki, wc_kstats_l1_mpki(k))
U(m_l1_rmiss, k->l1.read_misses)
U(m_l1_rmissrate, wc_kstats_l1_read_miss_rate(k))
U(m_l1_fails, k->l1.outcome[WC_RESERVATION_FAIL])
U(m_l1_f_line, k->l1.fail[WC_FAIL_LINE_ALLOC])
U(m_l1_f_mq, k->l1.fail[WC_FAIL_MISS_QUEUE_FULL])
U(m_l1_f_entry, k->l1.fail[WC_FAIL_MSHR_ENTRY])
U(m_l1_f_merge, k->l1.fail[WC_FAIL_MSHR_MERGE])
U(m_l1_f_rw, k->l1.fail[WC_FAIL_MSHR_RW_PENDING])
U(m_l1_evict, k->l1.evictions)
U(m_l1_wb, k->l1.writebacks)
U(m_l1_u0, k->l1.util_hist[0])
U(m_l1_u1, k->l1.util_hist[1])
U(m_l1_u2, k->l1.util_hist[2])
U(m_l1_u3, k->l1.util_hist[3])
U(m_l1_u4, k->l1.util_hist[4])
U(m_l2_acc, k->l2.accesses)
U(m_l2_hits, k->l2.hits)
U(m_l2_misses, k->l2.misses)
U(m_l2_missrate, k->l2.accesses ? (double)k->l2.misses / (double)k->l2.accesses : 0.0)
U(m_l2_rb, k->l2.read_bytes)
U(m_l2_wb, k->l2.write_bytes)
U(m_l2_writebacks, k->l2.writebacks)
U(m_up_p, k->icnt.l1_to_l2_packets)
U(m_up_b, k->icnt.l1_to_l2_bytes)
U(m_down_p, k->icnt.l2_to_l1_packets)
U(m_down_b, k->icnt.l2_to_l1_bytes)
U(m_up_sp, k->icnt.l1_to_l2_seed_packets)
U(m_down_sp, k->icnt.l2_to_l1_seed_packets)
U(m_dram_r, k->dram.reads)
U(m_dram_w, k->dram.writes)

static const wc_metric metrics[] = {
    {"cycles", "cycles", false, m_cycles},
    {"warp_insts", "warp instructions", false, m_warp_insts},
    {"thread_insts", "thread instructions", false, m_thread_insts},
    {"ipc", "IPC (thread insts/cycle)", true, m_ipc},
    {"warp_ipc", "warp IPC", true, m_warp_ipc},
    {"ops.global_mem", "global/local memory insts", false, m_op_mem},
    {"ops.ldg", "  global loads", false, m_op_ldg},
    {"ops.stg", "  global stores", false, m_op_stg},
    {"ops.local", "  local loads+stores", false, m_op_local},
    {"ops.atomic", "  atomics", false, m_op_atom},
    {"ops.shared", "shared-memory insts", false, m_op_shared},
    {"ops.alu", "ALU/SFU insts", false, m_op_alu},
    {"ops.barrier", "barriers", false, m_op_bar},
    {"mem.requests", "coalesced requests", false, m_gmem_reqs},
    {"mem.stall_cycles", "memory-stage stall cycles", false, m_stall},
    {"mem.stall_by_reason.line_alloc", "  stalled by LINE_ALLOC_FAIL", false, m_stall_line},
    {"mem.stall_by_reason.miss_queue_full", "  stalled by MISS_QUEUE_FULL", false, m_stall_mq},
    {"mem.stall_by_reason.mshr_entry", "  stalled by MSHR_ENTRY_FAIL", false, m_stall_entry},
    {"mem.stall_by_reason.mshr_merge", "  stalled by MSHR_MERGE_ENTRY_FAIL", false, m_stall_merge},
    {"mem.stall_by_reason.mshr_rw_pending", "  stalled by MSHR_RW_PENDING", false, m_stall_rw},
    {"l1.accesses", "L1 accesses", false, m_l1_acc},
    {"l1.reads", "  reads", false, m_l1_reads},
    {"l1.writes", "  writes", false, m_l1_writes},
    {"l1.hits", "L1 hits", false, m_l1_hits},
    {"l1.hit_reserved", "L1 hit-reserved", false, m_l1_hitres},
    {"l1.misses", "L1 misses (incl. sector)", false, m_l1_misses},
    {"l1.sector_misses", "  sector misses", false, m_l1_secmiss},
    {"l1.bypasses", "L1 bypasses", false, m_l1_bypass},
    {"l1.miss_rate", "L1 miss rate", true, m_l1_missrate},
    {"l1.mpki", "L1 MPKI (per 1000 warp insts)", true, m_l1_mpki},
    {"l1.read_misses", "L1 read misses", false, m_l1_rmiss},
    {"l1.read_miss_rate", "L1 read miss rate", true, m_l1_rmissrate},
    {"l1.reservation_fails.total", "L1 reservation fails", false, m_l1_fails},
    {"l1.reservation_fails.line_alloc", "  LINE_ALLOC_FAIL", false, m_l1_f_line},
    {"l1.reservation_fails.miss_queue_full", "  MISS_QUEUE_FULL", false, m_l1_f_mq},
    {"l1.reservation_fails.mshr_entry", "  MSHR_ENTRY_FAIL", false, m_l1_f_entry},
    {"l1.reservation_fails.mshr_merge", "  MSHR_MERGE_ENTRY_FAIL", false, m_l1_f_merge},
    {"l1.reservation_fails.mshr_rw_pending", "  MSHR_RW_PENDING", false, m_l1_f_rw},
    {"l1.evictions", "L1 evictions", false, m_l1_evict},
    {"l1.writebacks", "L1 write-backs", false, m_l1_wb},
    {"l1.line_use.0", "evicted lines 0% used", false, m_l1_u0},
    {"l1.line_use.25", "evicted lines 25% used", false, m_l1_u1},
    {"l1.line_use.50", "evicted lines 50% used", false, m_l1_u2},
    {"l1.line_use.75", "evicted lines 75% used", false, m_l1_u3},
    {"l1.line_use.100", "evicted lines 100% used", false, m_l1_u4},
    {"l2.accesses", "L2 accesses", false, m_l2_acc},
    {"l2.hits", "L2 hits", false, m_l2_hits},
    {"l2.misses", "L2 misses", false, m_l2_misses},
    {"l2.miss_rate", "L2 miss rate", true, m_l2_missrate},
    {"l2.read_bytes", "L2 read bytes", false, m_l2_rb},
    {"l2.write_bytes", "L2 write bytes", false, m_l2_wb},
    {"l2.writebacks", "L2 write-backs to DRAM", false, m_l2_writebacks},
    {"icnt.l1_to_l2_packets", "icnt L1->L2 packets", false, m_up_p},
    {"icnt.l1_to_l2_bytes", "icnt L1->L2 bytes", false, m_up_b},
    {"icnt.l2_to_l1_packets", "icnt L2->L1 packets", false, m_down_p},
    {"icnt.l2_to_l1_bytes", "icnt L2->L1 bytes", false, m_down_b},
    {"icnt.l1_to_l2_seed_packets", "icnt L1->L2 seed packets (1 + 32 B units)", false, m_up_sp},
    {"icnt.l2_to_l1_seed_packets", "icnt L2->L1 seed packets (32 B units)", false, m_down_sp},
    {"dram.reads", "DRAM reads", false, m_dram_r},
    {"dram.writes", "DRAM writes", false, m_dram_w},
};

const wc_metric *wc_metrics(size_t *count)
{
    *count = sizeof metrics / sizeof metrics[0];
    return metrics;
}

/* -l1_rd_hist (src/core/rdhist.h): reported only by runs that measured it. */
U(m_rd_acc, k->rd_accesses)
U(m_rd_fp, k->rd_footprint)
U(m_rd0, k->rd_hist[0])
U(m_rd1, k->rd_hist[1])
U(m_rd2, k->rd_hist[2])
U(m_rd3, k->rd_hist[3])
U(m_rd4, k->rd_hist[4])
U(m_rd5, k->rd_hist[5])
U(m_rd6, k->rd_hist[6])
U(m_rd7, k->rd_hist[7])
U(m_rd8, k->rd_hist[8])
U(m_rd9, k->rd_hist[9])
U(m_rd10, k->rd_hist[10])
U(m_rd11, k->rd_hist[11])
U(m_rd12, k->rd_hist[12])
U(m_rd13, k->rd_hist[13])
U(m_rd14, k->rd_hist[14])
U(m_rd15, k->rd_hist[15])
U(m_rd16, k->rd_hist[16])
U(m_rd17, k->rd_hist[17])

static const wc_metric rd_metrics[] = {
    {"l1_rd.accesses", "L1 data-store references", false, m_rd_acc},
    {"l1_rd.footprint", "  first in kernel (footprint)", false, m_rd_fp},
    {"l1_rd.d0", "  distance 0", false, m_rd0},
    {"l1_rd.d1", "  distance 1", false, m_rd1},
    {"l1_rd.d2", "  distance 2-3", false, m_rd2},
    {"l1_rd.d4", "  distance 4-7", false, m_rd3},
    {"l1_rd.d8", "  distance 8-15", false, m_rd4},
    {"l1_rd.d16", "  distance 16-31", false, m_rd5},
    {"l1_rd.d32", "  distance 32-63", false, m_rd6},
    {"l1_rd.d64", "  distance 64-127", false, m_rd7},
    {"l1_rd.d128", "  distance 128-255", false, m_rd8},
    {"l1_rd.d256", "  distance 256-511", false, m_rd9},
    {"l1_rd.d512", "  distance 512-1023", false, m_rd10},
    {"l1_rd.d1024", "  distance 1024-2047", false, m_rd11},
    {"l1_rd.d2048", "  distance 2048-4095", false, m_rd12},
    {"l1_rd.d4096", "  distance 4096-8191", false, m_rd13},
    {"l1_rd.d8192", "  distance 8192-16383", false, m_rd14},
    {"l1_rd.d16384", "  distance 16384-32767", false, m_rd15},
    {"l1_rd.d32768", "  distance 32768-65535", false, m_rd16},
    {"l1_rd.d65536", "  distance >= 65536", false, m_rd17},
};

const wc_metric *wc_rd_metrics(size_t *count)
{
    *count = sizeof rd_metrics / sizeof rd_metrics[0];
    return rd_metrics;
}
