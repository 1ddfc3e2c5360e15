#!/usr/bin/env python3
"""core_probe.py - what the SM core itself costs in warpcache and GPGPU-Sim (Accel-Sim).

Writes an Accel-Sim trace of small kernels that touch no global memory (only
the SM core), so their cycles are the core's pipeline, not the
memory system's.  Run both simulators on it with the same configuration file
and compare kernel by kernel (docs/fidelity.md, "Beyond the tuned kernels"):

  empty         1 warp: EXIT only (the fixed cost of a launch)
  alu_chain     1 warp: 256 IADDs, each reading the previous one's result
  alu_indep     1 warp: 256 IADDs writing 8 registers round robin, no sources
  lds_indep     1 warp: 64 conflict-free LDS (lane l reads word l), 8 targets
  lds_conflict  1 warp: 64 LDS whose 32 lanes read 32 words of one bank
                (stride 128 B: a 32-way bank conflict), 8 targets
  lds_chain     1 warp: 64 conflict-free LDS, each address from the previous
  sts_conflict  1 warp: 64 STS with the 32-way conflict
  lds_8warps    8 warps of one block: 64 conflict-free LDS each
  bar_8warps    8 warps of one block: 64 x (IADD, BAR.SYNC)
  blocks_120    120 blocks of one warp, 8 IADDs each (block dispatch)

and, 15 blocks of one warp each (one per SM of the GTX480 file) unless said:

  warm          1 IADD (every SM's instruction cache holds the code after it)
  iadd_end      1 IADD, then EXIT (what the next two are measured against)
  stg_end       1 coalesced STG (one 128 B line), then EXIT: a warp that
                ends with a store waits for its acknowledgement or not
  blocks_960    960 blocks (8 rounds of 120), 8 IADDs each: how fast blocks
                are dispatched when they do not all fit at once
  bar_1warp     1 block of 1 warp: 64 x (IADD, BAR.SYNC)
  reduce_8warps 1 block of 8 warps: a shared-memory tree reduction, STS then
                8 x (BAR.SYNC, LDS, IADD reading it, STS)
  empty_seq     4 launches of EXIT alone, one block: which SM each lands on

Each kernel comes twice, its body once (NAME_x1) and twice over (NAME_x2):
x2 - x1 is what the body costs, without the launch, the instruction-cache
misses (GPGPU-Sim fetches code through a 2 KB L1I per SM; the bodies loop
over one 128 B line) and the drain.

  scripts/core_probe.py DIR
  build/warpcache run -q --trace DIR --config GTX480/gpgpusim.config --json out.json
  (Accel-Sim: $ACCELSIM_BIN -trace DIR/kernelslist.g -config gpgpusim.config
   -config trace.config, in a run folder prepared as accelsim_compare.py does)

A developer's fidelity tool, never a dependency.
"""
import os
import sys

HEADER = """-kernel name = {name}
-kernel id = {kid}
-grid dim = ({grid},1,1)
-block dim = ({threads},1,1)
-shmem = {shmem}
-nregs = 16
-binary version = 70
-cuda stream id = 0
-shmem base_addr = 0x0000000000000000
-local mem base_addr = 0x0000000000000000
-nvbit version = warpcache
-accelsim tracer version = 4
-enable lineinfo = 0

#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses] [immediate]

"""

EXIT = "EXIT 0 0 "


def numbered(body):
    """A loop of 8 instructions (PCs 16 apart: one 128 B instruction-cache
    line) around and around, and EXIT after it, so GPGPU-Sim's instruction
    cache misses twice per kernel, not once per 8 instructions."""
    pcs = [16 * (i % 8) for i in range(len(body) - 1)] + [0x100]
    return ["%04x ffffffff %s" % (pc, line) for pc, line in zip(pcs, body)]


def kernel(out, kid, name, body, warps=1, grid=1, shmem=0):
    lines = numbered(body + ["0 " + EXIT])
    with open(os.path.join(out, "kernel-%d.traceg" % kid), "w") as f:
        f.write(HEADER.format(name=name, kid=kid, grid=grid, threads=32 * warps, shmem=shmem))
        for b in range(grid):
            f.write("#BEGIN_TB\n\nthread block = %d,0,0\n\n" % b)
            for w in range(warps):
                f.write("warp = %d\ninsts = %d\n%s\n\n" % (w, len(lines), "\n".join(lines)))
            f.write("#END_TB\n\n")


def lds(dst, src, base, stride):
    srcs = "1 R%d" % src if src else "0"
    return "1 R%d LDS %s 4 1 0x%x %d " % (dst, srcs, base, stride)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: core_probe.py OUTDIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    ks = [
        ("empty", [], {}),
        ("alu_chain", ["1 R2 IADD 1 R2 0 "] * 256, {}),
        ("alu_indep", ["1 R%d IADD 0 0 " % (2 + i % 8) for i in range(256)], {}),
        ("lds_indep", [lds(2 + i % 8, 0, 0, 4) for i in range(64)], {"shmem": 4096}),
        ("lds_conflict", [lds(2 + i % 8, 0, 0, 128) for i in range(64)], {"shmem": 4096}),
        ("lds_chain", [lds(2, 2, 0, 4) for _ in range(64)], {"shmem": 4096}),
        ("sts_conflict", ["0 STS 1 R3 4 1 0x0 128 "] * 64, {"shmem": 4096}),
        ("lds_8warps", [lds(2 + i % 8, 0, 0, 4) for i in range(64)], {"shmem": 4096, "warps": 8}),
        ("bar_8warps", ["1 R2 IADD 1 R2 0 ", "0 BAR.SYNC 0 0 "] * 64, {"warps": 8}),
        ("blocks_120", ["1 R%d IADD 0 0 " % (2 + i) for i in range(8)], {"grid": 120}),
        # after the ones above, so their numbers stay what they were
        ("warm", ["1 R2 IADD 0 0 "], {"grid": 15}),
        ("iadd_end", ["1 R2 IADD 0 0 "], {"grid": 15}),
        ("stg_end", ["0 STG.E 2 R4 R2 4 1 0x10000 4 "], {"grid": 15}),
        ("blocks_960", ["1 R%d IADD 0 0 " % (2 + i) for i in range(8)], {"grid": 960}),
        ("bar_1warp", ["1 R2 IADD 1 R2 0 ", "0 BAR.SYNC 0 0 "] * 64, {}),
        ("reduce_8warps", ["0 STS 1 R3 4 1 0x0 4 "] + [
            "0 BAR.SYNC 0 0 ", lds(4, 0, 0, 4), "1 R3 IADD 2 R3 R4 0 ", "0 STS 1 R3 4 1 0x0 4 "]
            * 8, {"shmem": 4096, "warps": 8}),
    ]
    # each body once and twice over: the difference is what the body costs,
    # without the launch, the instruction-cache misses and the drain
    kid = 0
    for name, body, kw in ks:
        for times in (1, 2):
            kid += 1
            kernel(out, kid, "%s_x%d" % (name, times), body * times, **kw)
    for i in range(4):  # one block each, one after another: the SM each goes to
        kid += 1
        kernel(out, kid, "empty_seq%d" % i, [])
    with open(os.path.join(out, "kernelslist.g"), "w") as f:
        f.write("".join("kernel-%d.traceg\n" % k for k in range(1, kid + 1)))


if __name__ == "__main__":
    main()
