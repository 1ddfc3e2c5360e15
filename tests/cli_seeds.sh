#!/bin/sh
# Each seed paper's own baseline (configs/seeds/NNN.config) against the GTX480
# file of the GPGPU-Sim release the paper names, as released
# (../shared/data/gpgpusim-configs/GPGPU-Sim-3.2.x_GTX480): the effective
# configurations may differ only in the options the paper's table or a
# documented choice changes (docs/reproduction-baselines.md), and what differs
# from fermi-16k (set index, scheduler, L2, DRAM, SMs, clocks) is pinned to the
# values read off the released files and the papers' tables by hand.
# Prints "cli_seeds: N passed, N failed".
. "$(dirname "$0")/clilib.sh"

REL=../shared/data/gpgpusim-configs
# "name value" per option of a `warpcache config` dump; a quoted value that
# spans lines (the released files' DRAM timing) is joined and unquoted
flat() {
  $W config -q "$@" 2>/dev/null | awk '
    /^#/ || NF == 0 { next }
    /^-/ { if (cur != "") print cur; cur = $0; next }
    { sub(/^[ \t]+/, ""); cur = cur $0 }
    END { if (cur != "") print cur }' | sed 's/"//g; s/^-//; s/[ \t][ \t]*/ /g'
}
# the option names whose values differ between two flat dumps, sorted, one line
differ() {
  flat --config "$1" >"$T/a"; flat --config "$2" >"$T/b"
  sort "$T/a" >"$T/as"; sort "$T/b" >"$T/bs"
  comm -3 "$T/as" "$T/bs" | sed 's/^\t//' | cut -d' ' -f1 | sort -u | tr '\n' ' ' | sed 's/ $//'
}
same_set() { # NAME GOT WANT
  if [ "$2" = "$3" ]; then ok "$1"; else bad "$1" "differ: '$2', expected '$3'"; fi
}
if [ ! -f "$REL/GPGPU-Sim-3.2.0_GTX480/gpgpusim.config" ]; then
  echo "cli_seeds: ../shared is missing: the released GPGPU-Sim files are test data"
  echo "cli_seeds: 0 passed, 1 failed"; exit 1
fi
v320=$REL/GPGPU-Sim-3.2.0_GTX480/gpgpusim.config
v322=$REL/GPGPU-Sim-3.2.2_GTX480/gpgpusim.config
# every seed on the 3.x pipeline with the ports instead of the file's booksim
pipe="icnt_model inter_config_file mem_stage network_mode sched_rotate"

for s in 000 001 002 003 004; do
  expect "loads_$s" 0 "" -- $W config -q --config configs/seeds/$s.config
done
# 000: 3.2.2 with the hashed index (Table 2: "hash set index")
same_set diff_000 "$(differ configs/seeds/000.config $v322)" "gpgpu_cache:dl1 $pipe"
# 001: 3.2.2 with Table 2's 6 x 128 KB 16-way L2 (3.2.0/3.2.1's lines) and 1-cycle hits
same_set diff_001 "$(differ configs/seeds/001.config $v322)" \
  "gpgpu_cache:dl2 gpgpu_l1_latency gpgpu_mem_addr_mapping gpgpu_n_sub_partition_per_mchannel icnt_model inter_config_file mem_stage network_mode sched_rotate"
# 002: 3.2.1 = 3.2.2 with 3.2.0's L2/DRAM lines
same_set diff_002 "$(differ configs/seeds/002.config $v322)" \
  "gpgpu_cache:dl2 gpgpu_mem_addr_mapping gpgpu_n_sub_partition_per_mchannel icnt_model inter_config_file mem_stage network_mode sched_rotate"
# ... and those lines are exactly 3.2.0's
for o in gpgpu_cache:dl2 gpgpu_mem_addr_mapping gpgpu_n_sub_partition_per_mchannel; do
  a=$(flat --config $v320 | grep "^$o "); b=$(flat --config configs/seeds/002.config | grep "^$o ")
  if [ -n "$a" ] && [ "$a" = "$b" ]; then ok "l2_dram_320_$o"; else bad "l2_dram_320_$o" "'$b' vs 3.2.0's '$a'"; fi
done
# 003: 3.2.0 on the GTX470 (14 SMs)
same_set diff_003 "$(differ configs/seeds/003.config $v320)" "gpgpu_n_clusters $pipe"
# 004: 3.2.0 as the Tesla C2050 (14 SMs, its clocks)
same_set diff_004 "$(differ configs/seeds/004.config $v320)" "gpgpu_clock_domains gpgpu_n_clusters $pipe"

# what differs from fermi-16k, by value (read off the released files and tables)
pin() { # NAME SEED PATTERN
  if flat --config configs/seeds/$2.config | grep -q -- "$3"; then ok "$1"; else bad "$1" "no '$3' in seed $2"; fi
}
for s in 001 002 003 004; do pin "linear_index_$s" $s '^gpgpu_cache:dl1 N:32:128:4,L:L:m:N:L,A:32:8,8$'; done
pin hashed_index_000 000 '^gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,A:32:8,8$'
for s in 003 004; do pin "lrr_$s" $s '^gpgpu_scheduler lrr$'; done
for s in 000 001 002; do pin "gto_$s" $s '^gpgpu_scheduler gto$'; done
for s in 001 002 003 004; do
  pin "l2_6x128k_16way_$s" $s '^gpgpu_cache:dl2 N:64:128:16,L:B:m:W:L,A:32:4,4$'
  pin "one_slice_$s" $s '^gpgpu_n_sub_partition_per_mchannel 1$'
  pin "dram_map_320_$s" $s 'BBBBCCCC\.CCSSSSSS$'
done
pin l2_12x64k_8way_000 000 '^gpgpu_cache:dl2 N:64:128:8,L:B:m:W:L,A:32:4,4:0,32$'
pin two_slices_000 000 '^gpgpu_n_sub_partition_per_mchannel 2$'
pin dram_map_322_000 000 'BBBCCCCB\.CCSSSSSS$'
for s in 003 004; do pin "sms_14_$s" $s '^gpgpu_n_clusters 14$'; done
pin c2050_clocks 004 '^gpgpu_clock_domains 575.0:1150.0:575.0:750.0$'
pin icnt_1400_003 003 '^gpgpu_clock_domains 700.0:1400.0:700.0:924.0$'
pin l1_1cycle_001 001 '^gpgpu_l1_latency 1$'
for s in 000 001 002 003 004; do
  pin "inorder_$s" $s '^mem_stage inorder$'
  pin "no_rotation_$s" $s '^sched_rotate 0$'
  pin "nbkgrp4_$s" $s 'nbkgrp=4:CCDL=3:RTPL=2$'
done
# fermi-16k itself keeps 4.2's hashed index, GTO and the latency queue
if flat | grep -q '^gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,' && flat | grep -q '^mem_stage l1q'; then
  ok fermi16k_unchanged
else bad fermi16k_unchanged "fermi-16k's index or stage changed"; fi

# The released files set the instruction cache and shared-memory banks, which
# act only under -icache 1 / -shmem_bank_conflicts 1 (the defaults): with
# those switched off they are read, but said to be inactive - not dropped
# from the notes without a word
OFF="-o icache=0 -o shmem_bank_conflicts=0"
expect inert_named 0 "4 options read but inactive: -gpgpu_cache:il1 (needs -icache 1), -gpgpu_shmem_num_banks (needs -shmem_bank_conflicts 1)" -- $W config --config "$v322" $OFF
$W config --config "$v322" >/dev/null 2>"$T/err"
if grep -q "inactive" "$T/err"; then bad inert_switched_on "$(cat "$T/err")"; else ok inert_switched_on; fi
expect inert_icache_only 0 "1 options read but inactive: -gpgpu_cache:il1 (needs -icache 1)" -- $W config --config "$v322" -o icache=0
expect inert_by_o 0 "-o: 1 options read but inactive: -gpgpu_shmem_warp_parts" -- $W config $OFF -o gpgpu_shmem_warp_parts=2
$W config -q --config "$v322" $OFF >/dev/null 2>"$T/err"
if [ -s "$T/err" ]; then bad inert_quiet "-q printed: $(cat "$T/err")"; else ok inert_quiet; fi

echo "cli_seeds: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
