/*
 * op_latency.c - result latencies of the instructions the SM times itself.
 *
 * In GPGPU-Sim an instruction does not reach its functional unit the cycle
 * it issues, and its result is not visible the cycle the unit finishes.
 * Read in GPGPU-Sim 4.2 (src/gpgpu-sim/shader.cc; 3.x has the same
 * stages): one SM cycle runs writeback, execute, read_operands, issue in
 * this order, so an instruction moves one stage a cycle - from the ID_OC
 * register into a collector unit, through the register-bank read, into the
 * OC_EX register, into the unit's dispatch register and pipeline (latency L),
 * out into EX_WB, and writeback releases its destination in the scoreboard;
 * a dependent instruction issues in that same cycle.  Measured on
 * Accel-Sim 73f9fac with the GTX480 file (scripts/core_probe.py, the
 * difference between a chain and the same chain twice over): a dependent
 * ALU instruction issues L + 5 = 9 cycles after its producer (2316 cycles
 * per 256), so the stages add 5: -oc_wb_latency, 0 = the units' latencies
 * alone.  A shared-memory load takes one cycle more: the LD/ST unit's
 * writeback takes it from its pipeline into m_next_wb and releases the
 * register only the next cycle (ldst_unit::writeback); measured 26 + 6 = 32
 * (2048 per 64).  Register-bank conflicts, which lengthen the read, are not
 * modelled.
 *
 * Global and local loads are left out: their answer comes from the memory
 * system, whose round trip -icnt_latency was calibrated against GPGPU-Sim's
 * dependent-load chains with these stages inside it (docs/fidelity.md).
 */
#include "core/op_latency.h"

void wc_op_latency_table(const wc_config *cfg, uint32_t lat[WC_OP__COUNT])
{
    uint32_t extra = cfg->oc_wb_latency;
    for (unsigned op = 0; op < WC_OP__COUNT; op++) lat[op] = 0;
    lat[WC_OP_ALU] = cfg->alu_latency + extra;
    lat[WC_OP_SFU] = cfg->sfu_latency + extra;
    lat[WC_OP_EXIT] = cfg->alu_latency + extra; /* as any other non-memory instruction */
    /* + the LD/ST unit's own writeback register (m_next_wb) */
    uint32_t ldst_wb = extra ? 1 : 0;
    lat[WC_OP_LDS] = cfg->smem_latency + extra + ldst_wb;
    lat[WC_OP_STS] = cfg->smem_latency + extra + ldst_wb; /* a result only if a trace gives one */
}
