#!/bin/sh
# Seed 004's MRPB from the command line: the designs (and the linear-index
# baselines of the root-cause tables) are listed and run,
# the stage's parameters are checked with the option named (exit 2), and on
# seed 004's Figure 3 kernel (srad_preload: a block's loads contend for one
# set, with a barrier after them) the full design bypasses reads that met an
# associativity stall while reordering alone bypasses none.
# Prints "cli_mrpb: N passed, N failed".
. "$(dirname "$0")/clilib.sh"

for d in mrpb mrpb-reorder mrpb-bypass mrpb-all mrpb-bypass-all mrpb-48k mrpb-reorder-48k mrpb-bypass-48k \
  base-lin mrpb-lin mrpb-reorder-lin mrpb-bypass-lin base-48k-lin mrpb-48k-lin; do
  expect "listed_$d" 0 "^$d " -- $W list designs
  expect "runs_$d" 0 "^all " -- $W run -q --design $d -w micro/stream:n=4096
done
expect len_0 2 "option -mem_stage: mrpb: len=0: must be a whole number from 1 to 1024 entries" -- $W run -q -w micro/stream:n=64 -o mem_stage=mrpb:len=0
expect sig_bad 2 "option -mem_stage: mrpb: sig=thread: must be warp|block|wib" -- $W run -q -w micro/stream:n=64 -o mem_stage=mrpb:sig=thread
expect key_bad 2 "option -mem_stage: mrpb: unknown parameter 'queues'" -- $W run -q -w micro/stream:n=64 -o mem_stage=mrpb:queues=4
expect bypasses 0 "L1 bypasses  *[1-9]" -- $W run --design mrpb -w seed/srad_preload:n=512
expect no_bypass 0 "L1 bypasses  *0$" -- $W run --design mrpb-reorder -w seed/srad_preload:n=512
for p in sig=block sig=wib drain=rr,greedy=1 drain=longest flush=0,len=4; do
  expect "barriers_$p" 0 "^all " -- $W run -q -w seed/srad_preload:n=512 -o mem_stage=mrpb:$p
done

echo "cli_mrpb: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
