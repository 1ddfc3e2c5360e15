/*
 * shmem_unit.c - shared-memory instructions in the LD/ST unit, as
 * GPGPU-Sim 4.2 (667834cf) times them.
 *
 * Every memory instruction reaches the SM's one LD/ST unit through its
 * dispatch register (ldst_unit::cycle in src/gpgpu-sim/shader.cc; the
 * GTX480 file's ID_OC_MEM width is 1), which holds one instruction at a
 * time.  A shared-memory instruction stays there for its initiation
 * interval, `cycles`, counted down by ldst_unit::shared_cycle through
 * warp_inst_t::dispatch_delay, then enters the shared-memory pipeline
 * (-gpgpu_smem_latency).  warp_inst_t::generate_mem_accesses
 * (src/abstract_hardware_model.cc) sets `cycles` to the bank-conflict
 * degree: the warp is split into -gpgpu_shmem_warp_parts parts; in each,
 * every active lane's address falls in bank (addr / 4) % banks and word
 * addr / 4; a bank serves one word per cycle, so the part costs the largest
 * number of distinct words any bank is asked for; with
 * -gpgpu_shmem_limited_broadcast only one word (the first, in bank then
 * word order, that several lanes read) is broadcast and every other lane
 * costs its bank one access; the parts' costs add up.  So a 32-way
 * conflict holds the unit 32 cycles, and its result comes 31 cycles later
 * than a conflict-free one's.  Measured on Accel-Sim 73f9fac with the
 * GTX480 file (scripts/core_probe.py): 64 LDS or STS with a 32-way conflict
 * take 2048 cycles, 8 warps x 64 conflict-free LDS take 512 (one per cycle,
 * where two schedulers would issue two).
 *
 * The model: the unit is free from `free_at` on; a shared-memory
 * instruction issues only then (the warp waits at issue, where GPGPU-Sim's
 * waits in its pipeline registers) and holds it for its interval:
 * -shmem_issue_limit 1 gives every instruction 1 cycle, -shmem_bank_conflicts
 * 1 the conflict degree (which implies the limit: the degree is the time
 * in the unit).  Global and local memory instructions use the memory stage
 * and do not share this unit here (in GPGPU-Sim they share the dispatch
 * register): not modelled.
 */
#include "core/shmem_unit.h"

#define SHMEM_WORD 4 /* GPGPU-Sim's WORD_SIZE: bytes per bank per cycle */

void wc_shmem_init(wc_shmem_unit *u, const wc_config *cfg)
{
    u->conflicts = cfg->shmem_bank_conflicts != 0;
    u->on = u->conflicts || cfg->shmem_issue_limit != 0;
    u->limited_broadcast = cfg->shmem_limited_broadcast != 0;
    u->banks = cfg->shmem_num_banks ? cfg->shmem_num_banks : 1;
    u->warp_parts = cfg->shmem_warp_parts ? cfg->shmem_warp_parts : 1;
    u->free_at = 0;
}

/* A lane's access: its bank and word. */
typedef struct bank_word {
    uint32_t bank;
    uint64_t word;
} bank_word;

static bool before(const bank_word *a, const bank_word *b)
{
    return a->bank < b->bank || (a->bank == b->bank && a->word < b->word);
}

/* Insertion sort: at most 32 entries, by bank then word (the order of
 * GPGPU-Sim's std::map, which decides which word is broadcast). */
static void sort_accesses(bank_word *a, unsigned n)
{
    for (unsigned i = 1; i < n; i++) {
        bank_word x = a[i];
        unsigned j = i;
        for (; j > 0 && before(&x, &a[j - 1]); j--) a[j] = a[j - 1];
        a[j] = x;
    }
}

/* Without limited broadcast: the most distinct words one bank serves. */
static unsigned max_distinct_words(const bank_word *a, unsigned n)
{
    unsigned best = 0;
    for (unsigned i = 0; i < n;) {
        unsigned words = 0, j = i;
        for (; j < n && a[j].bank == a[i].bank; j++)
            if (j == i || a[j].word != a[j - 1].word) words++;
        if (words > best) best = words;
        i = j;
    }
    return best;
}

/* With limited broadcast: one word, the first read by several lanes, costs
 * its bank one access; every other lane costs its bank one access. */
static unsigned max_accesses_one_broadcast(const bank_word *a, unsigned n)
{
    unsigned cast = n; /* index of the broadcast word's first lane; n: none */
    for (unsigned i = 0; i + 1 < n && cast == n; i++)
        if (a[i + 1].bank == a[i].bank && a[i + 1].word == a[i].word) cast = i;
    unsigned best = 0;
    for (unsigned i = 0; i < n;) {
        unsigned j = i, lanes = 0, saved = 0;
        for (; j < n && a[j].bank == a[i].bank; j++) {
            lanes++;
            if (cast < n && j > cast && a[j].bank == a[cast].bank && a[j].word == a[cast].word)
                saved++; /* a further lane of the broadcast word */
        }
        if (lanes - saved > best) best = lanes - saved;
        i = j;
    }
    return best;
}

unsigned wc_shmem_conflict_degree(const wc_shmem_unit *u, const wc_winst *in)
{
    unsigned part = WC_WARP_SIZE / u->warp_parts;
    unsigned total = 0;
    for (unsigned first = 0; first + part <= WC_WARP_SIZE; first += part) {
        bank_word acc[WC_WARP_SIZE];
        unsigned n = 0;
        for (unsigned lane = first; lane < first + part; lane++) {
            if (!(in->mask >> lane & 1u)) continue;
            uint64_t word = wc_winst_lane_addr(in, lane) / SHMEM_WORD;
            acc[n].bank = (uint32_t)(word % u->banks);
            acc[n].word = word;
            n++;
        }
        sort_accesses(acc, n);
        total +=
            u->limited_broadcast ? max_accesses_one_broadcast(acc, n) : max_distinct_words(acc, n);
    }
    return total ? total : 1; /* no active lane: one cycle in the unit all the same */
}

unsigned wc_shmem_issue(wc_shmem_unit *u, const wc_winst *in, uint64_t now)
{
    unsigned interval = u->conflicts ? wc_shmem_conflict_degree(u, in) : 1;
    u->free_at = now + interval;
    return interval - 1;
}
