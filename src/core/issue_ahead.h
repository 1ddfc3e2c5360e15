/*
 * issue_ahead.h - the depth of the memory instructions issued ahead of the
 * memory stage: -mem_issue_ahead ("auto" or 0..64) and GPGPU-Sim's
 * -gpgpu_pipeline_widths (issue_ahead.c).
 */
#ifndef WC_CORE_ISSUE_AHEAD_H
#define WC_CORE_ISSUE_AHEAD_H

#include "warpcache/common.h"

/* GPGPU-Sim's -gpgpu_pipeline_widths (3.x's seven fields or 4.x's ten or
 * more): *id_oc and *oc_ex (may be NULL) get the memory registers' widths. */
int wc_pipe_widths_parse(const char *s, uint32_t *id_oc, uint32_t *oc_ex, wc_err *err);

/* -mem_issue_ahead text: a count, or "auto" = ID_OC_MEM + oc_units (memory
 * operand collectors) + OC_EX_MEM of `widths` (NULL: only check the text).
 * *out (may be NULL) gets the depth.  Reason only on error. */
int wc_issue_ahead_parse(const char *ahead, const char *widths, uint32_t oc_units, uint32_t *out,
                         wc_err *err);

#endif
