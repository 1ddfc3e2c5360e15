/*
 * test_dram.c - what a DRAM request holds its channel for (-dram_atoms):
 * GPGPU-Sim moves whole atoms of burst length x bus width x chips bytes
 * (dram.cc, dram_atom_size) and a sectored L2 sends each 32 B sector as its
 * own request.  Expected byte counts worked out by hand from that rule.
 */
#include <string.h>

#include "check.h"
#include "mem/mem.h"
#include "warpcache/config.h"

/* The rule on its own: atoms of 64 B (the GTX480 files: 8 x 4 x 2). */
static void test_request_bytes(void)
{
    wc_dram bytes = {0}, atoms = {0};
    atoms.atom = 64;
    /* one sector: 32 B moved, but a whole atom held */
    CHECK_EQ(wc_dram_request_bytes(&bytes, 'S', 0x1), 32u);
    CHECK_EQ(wc_dram_request_bytes(&atoms, 'S', 0x1), 64u);
    /* two sectors of a sectored L2: two requests, an atom each */
    CHECK_EQ(wc_dram_request_bytes(&bytes, 'S', 0x5), 64u);
    CHECK_EQ(wc_dram_request_bytes(&atoms, 'S', 0x5), 128u);
    /* a line-based L2 fetches its 128 B line in one request: 2 atoms, as many
     * bytes as without atoms */
    CHECK_EQ(wc_dram_request_bytes(&bytes, 'N', 0xf), 128u);
    CHECK_EQ(wc_dram_request_bytes(&atoms, 'N', 0xf), 128u);
    /* ... and writes back one dirty 32 B chunk as one atom */
    CHECK_EQ(wc_dram_request_bytes(&atoms, 'N', 0x2), 64u);
    /* three dirty chunks: 96 B, rounded up to 2 atoms */
    CHECK_EQ(wc_dram_request_bytes(&atoms, 'N', 0x7), 128u);
    /* an atom no larger than a sector changes nothing */
    wc_dram small = {0};
    small.atom = 16;
    CHECK_EQ(wc_dram_request_bytes(&small, 'S', 0x3), 64u);
    CHECK_EQ(wc_dram_request_bytes(&small, 'N', 0x1), 32u);
}

/* The configuration sets it: the built-in Fermi baseline has -dram_atoms 1,
 * burst length 8, 4 B bus, 2 chips: 64 B atoms; -dram_atoms 0: none. */
static void test_atom_from_config(void)
{
    for (int on = 0; on <= 1; on++) {
        wc_config cfg;
        wc_config_defaults(&cfg);
        wc_err err = {{0}};
        CHECK_EQ(cfg.dram_atoms, 1u);
        CHECK_EQ(wc_config_set(&cfg, "dram_atoms", on ? "1" : "0", "t", &err), 0);
        wc_mem m;
        memset(&m, 0, sizeof m);
        CHECK_EQ(wc_mem_init(&m, &cfg, &err), 0);
        for (uint32_t c = 0; c < cfg.n_mem; c++) CHECK_EQ(m.dram[c].atom, on ? 64u : 0u);
        wc_mem_free(&m);
    }
}

int main(void)
{
    RUN(test_request_bytes);
    RUN(test_atom_from_config);
    return check_summary("dram");
}
