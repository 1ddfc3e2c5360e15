#!/bin/sh
# Seed 000's designs from the command line: listed, runnable, their options
# range-checked with the option named (exit 2), and the b+tree input on which
# DSC-4 once deadlocked (a chunk fetched twice inside one MSHR entry) finishes.
# Prints "cli_tsc: N passed, N failed".
. "$(dirname "$0")/clilib.sh"

for d in sector dsc2 dsc4 tsc tsc-plus; do
  expect "listed_$d" 0 "^$d " -- $W list designs
  expect "runs_$d" 0 "^all " -- $W run -q --design $d -w micro/stream:n=4096
done
expect tsc_extras 0 "tsc_chunk_evictions" -- $W run -q --design tsc -w polybench/atax:scale=0.0625
expect tscp_extras 0 "tscp_coarse_accesses" -- $W run -q --design tsc-plus -w polybench/atax:scale=0.0625
expect private_21 2 "option -tsc_private_bits: 21 is out of range" -- $W run -q --design tsc -w micro/stream:n=64 -o tsc_private_bits=21
expect chunk_24 2 "option -tsc_chunk_bytes: 24 is not a power of two" -- $W run -q --design tsc -w micro/stream:n=64 -o tsc_chunk_bytes=24
expect chunk_128 2 "option -tsc_chunk_bytes: 128 is out of range" -- $W run -q --design tsc -w micro/stream:n=64 -o tsc_chunk_bytes=128
expect tsc_on_fill 2 "allocates on miss only" -- $W run -q --design tsc -w micro/stream:n=64 -o gpgpu_cache:dl1=N:32:128:4,L:L:f:N:H,A:32:8,8
expect dsc_tags_0 2 "option -dsc_tags: 0 is out of range" -- $W run -q --design dsc2 -w micro/stream:n=64 -o dsc_tags=0
for c in 8 16 64; do
  expect "chunk_$c" 0 "^all " -- $W run -q --design tsc -w micro/stream:n=4096 -o tsc_chunk_bytes=$c
done
expect dsc4_btree 0 "^all " -- $W run -q --design dsc4 -w rodinia/b+tree:keys=262144,queries=10000

echo "cli_tsc: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
