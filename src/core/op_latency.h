/*
 * op_latency.h - when an issued instruction's result can be read by the
 * next one: its unit's latency plus, with -oc_wb_latency, the cycles it
 * spends in GPGPU-Sim's operand collector and writeback stages
 * (op_latency.c).
 */
#ifndef WC_CORE_OP_LATENCY_H
#define WC_CORE_OP_LATENCY_H

#include "warpcache/config.h"
#include "warpcache/trace.h"

/* lat[op] = cycles from an instruction's issue until a dependent one may
 * issue, for the classes whose result the SM times itself (ALU, SFU, shared
 * memory); 0 for the others (global memory: the memory system answers). */
void wc_op_latency_table(const wc_config *cfg, uint32_t lat[WC_OP__COUNT]);

#endif
