/*
 * mem_issue.h - memory instructions issued ahead of the memory stage.
 *
 * GPGPU-Sim's schedulers issue a memory instruction whenever the ID_OC_MEM
 * pipeline register is free, not when the LD/ST unit is: the instruction
 * then waits in a memory operand collector unit and in the OC_EX_MEM
 * register while the unit works through an earlier one (shader.cc,
 * scheduler_unit::cycle: m_mem_out->has_free(); the same in 3.2.2 and
 * 4.2).  Under GTO this decides which warp's load comes next: with room
 * ahead, the greedy warp issues its next load at once.  `-mem_issue_ahead`
 * (auto: ID_OC_MEM + -gpgpu_operand_collector_num_units_mem + OC_EX_MEM, 4
 * on the Fermi files) sets how many instructions may wait.
 *
 * The queue sits in front of any memory stage: the SM's issue hands an
 * instruction to wc_mi_push instead of the stage, and wc_mi_feed moves the
 * oldest into the stage whenever the stage can take one.  With 0 ahead the
 * SM keeps its direct path and none of this runs.
 */
#ifndef WC_CORE_MEM_ISSUE_H
#define WC_CORE_MEM_ISSUE_H

#include "core/gpu.h"

typedef struct wc_mi_inst {
    wc_mem_req reqs[WC_MAX_REQS_PER_INST];
    unsigned n, slot;
    uint32_t load;
} wc_mi_inst;

/* Sets up `ahead` waiting places (plus the one the stage works on); 0 =
 * disabled.  -1 on memory exhaustion. */
int wc_mi_init(wc_sm *sm, unsigned ahead, wc_err *err);
void wc_mi_free(wc_sm *sm);
/* Where the coalescer writes the next instruction's requests: the free
 * place at the ring's tail (issue only happens while there is one). */
static inline wc_mem_req *wc_mi_tail(wc_sm *sm)
{
    unsigned at = sm->mi_head + sm->mi_count;
    if (at >= sm->mi_cap) at -= sm->mi_cap;
    return sm->mi[at].reqs;
}
/* Takes the instruction of warp `slot` whose n requests are at wc_mi_tail. */
void wc_mi_push(wc_sm *sm, unsigned slot, unsigned n, uint32_t load, uint64_t now);
/* Hands waiting instructions to the stage while it can take them. */
void wc_mi_feed(wc_sm *sm, uint64_t now);

/* Whether wc_mi_feed would change anything: instructions wait and the stage
 * can take one, or the ring's fullness differs from what issue sees.  A full
 * stage retrying its head (most cycles of a memory-bound SM) needs no call. */
static inline bool wc_mi_feed_due(const wc_sm *sm)
{
    return sm->mi_count && (!sm->ms->full || sm->mem_full != (sm->mi_count == sm->mi_cap));
}

#endif
