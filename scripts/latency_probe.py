#!/usr/bin/env python3
"""latency_probe.py - unloaded latencies of warpcache and GPGPU-Sim (Accel-Sim).

Writes an Accel-Sim trace of four one-warp kernels whose loads form a
dependent chain (each load's address register is the previous load's
destination), so each kernel's cycles are its loads' latencies in series:

  chase_dram        64 loads of 64 distinct lines (cold: DRAM)
  chase_l2          the same 64 lines (the L1 is flushed between kernels:
                    L2 hits)
  chase_l1          64 loads of one line (one miss, then L1 hits)
  chase_dram_short  8 loads of 8 new lines (the fixed cost of a kernel:
                    subtract it from chase_dram)

Every load has the same PC, so GPGPU-Sim's instruction cache misses once.
The lines are 896 B apart (7 lines) to spread them over L2 partitions and
sets.  Then run both simulators on it:

  scripts/latency_probe.py DIR
  build/warpcache run -q --trace DIR --config GTX480/gpgpusim.config
  (Accel-Sim: $ACCELSIM_BIN -trace DIR/kernelslist.g -config gpgpusim.config
   -config trace.config, in a run folder prepared as accelsim_compare.py does)

A developer's fidelity tool (docs/fidelity.md), never a dependency.
"""
import os
import sys

HEADER = """-kernel name = {name}
-kernel id = {kid}
-grid dim = (1,1,1)
-block dim = (32,1,1)
-shmem = 0
-nregs = 0
-binary version = 70
-cuda stream id = 0
-shmem base_addr = 0x0000000000000000
-local mem base_addr = 0x0000000000000000
-nvbit version = warpcache
-accelsim tracer version = 4
-enable lineinfo = 0

#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses] [immediate]

#BEGIN_TB

thread block = 0,0,0

warp = 0
"""


def kernel(out, kid, name, addrs):
    body = ["0008 ffffffff 1 R2 IADD 0 0 "]
    # 32 lanes read one 128 B line (base, stride 4); R2 -> R2: a chain
    body += ["0010 ffffffff 1 R2 LDG.E 1 R2 4 1 0x%x 4 " % a for a in addrs]
    body.append("0020 ffffffff 0 EXIT.WCEND 0 0 ")
    with open(os.path.join(out, "kernel-%d.traceg" % kid), "w") as f:
        f.write(HEADER.format(name=name, kid=kid))
        f.write("insts = %d\n%s\n\n#END_TB\n" % (len(body), "\n".join(body)))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: latency_probe.py OUTDIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    lines = [0x10000000 + i * 896 for i in range(64)]
    kernel(out, 1, "chase_dram", lines)
    kernel(out, 2, "chase_l2", lines)
    kernel(out, 3, "chase_l1", [0x20000000] * 64)
    kernel(out, 4, "chase_dram_short", [0x30000000 + i * 896 for i in range(8)])
    with open(os.path.join(out, "kernelslist.g"), "w") as f:
        f.write("".join("kernel-%d.traceg\n" % k for k in (1, 2, 3, 4)))


if __name__ == "__main__":
    main()
