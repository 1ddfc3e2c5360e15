#!/bin/sh
# Outputs are never lost or corrupt: every write is checked (a failed write
# is exit status 1 with a message naming the file), files are replaced whole
# (temporary file + rename) so concurrent writers and interrupted commands
# never leave a truncated file, temporary files are removed on SIGTERM/SIGINT,
# and a command refuses to write one file twice or over its own input.
# Prints "cli_outputs: N passed, N failed".
. "$(dirname "$0")/clilib.sh"

# no temporary files left in folder $2 (test name $1)
no_temps() {
  left=$(ls -A "$2" | grep '\.tmp\.' | head -3)
  [ -z "$left" ] && ok "$1" || bad "$1" "temporary files left: $left"
}

S=micro/stream:n=4096
# ---- a failed write is exit 1 and names the file (was: exit 0, output lost) ----
if [ -w /dev/full ]; then
  expect full_run_json 1 "cannot write /dev/full: No space left" -- $W run -q -w $S --json /dev/full
  expect full_run_csv 1 "cannot write /dev/full" -- $W run -q -w $S --csv /dev/full
  expect full_run_stdout 1 "cannot write standard output" -- sh -c "$W run -q -w $S >/dev/full"
  expect full_run_json_stdout 1 "cannot write standard output" -- sh -c "$W run -q -w $S --json - >/dev/full"
  n=$(grep -c "cannot write" "$T/out"); [ "$n" = 1 ] && ok full_reported_once || bad full_reported_once "$n messages"
  expect full_mrc_svg 1 "cannot write /dev/full" -- $W mrc -q -w $S --svg /dev/full
  expect full_mrc_csv 1 "cannot write /dev/full" -- $W mrc -q -w $S --csv /dev/full
  expect full_model_hist 1 "cannot write /dev/full" -- $W model -q -w $S --hist-csv /dev/full
  expect full_model_json 1 "cannot write /dev/full" -- $W model -q -w $S --json /dev/full
  expect full_validate 1 "cannot write /dev/full" -- $W validate -q -w micro/colcopy:h=32 --json /dev/full
  expect full_config 1 "cannot write standard output" -- sh -c "$W config >/dev/full"
  expect full_list 1 "cannot write standard output" -- sh -c "$W list >/dev/full"
  expect full_convert_wct 1 "/dev/full: write error" -- $W trace convert $S /dev/full --format wct
else
  echo "full_* skipped: no writable /dev/full (not counted)"
fi
# A destination that cannot be opened is bad input (2), found before the run.
expect open_missing_dir 2 "cannot write $T/nosuch/a.json: No such file" -- $W run -q -w $S --json "$T/nosuch/a.json"
expect open_missing_mrc 2 "cannot write $T/nosuch/m.svg" -- $W mrc -q -w $S --svg "$T/nosuch/m.svg"
expect open_missing_model 2 "cannot write $T/nosuch/h.csv" -- $W model -q -w $S --hist-csv "$T/nosuch/h.csv"
expect open_missing_validate 2 "cannot write $T/nosuch/v.csv" -- $W validate -q -w micro/colcopy:h=32 --csv "$T/nosuch/v.csv"
mkdir "$T/adir"
expect open_folder 2 "cannot write $T/adir: it is a folder" -- $W run -q -w $S --csv "$T/adir"

# A full disk while a trace is converted (file size limit: EFBIG; SIGXFSZ is
# ignored so the write fails instead of killing the process): exit 1, the
# destination is not created, nothing temporary is left.
mkdir "$T/fs"
for out in g.wct g.trc gdir; do
  (cd "$T/fs" && ulimit -f 8 && trap '' XFSZ && exec "$W" trace convert polybench/gemm:scale=0.25 $out) >"$T/out" 2>&1
  st=$?
  if [ $st -eq 1 ] && grep -q "write error" "$T/out" && [ -z "$(ls -A "$T/fs")" ]; then
    ok "fsize_convert_$out"
  else
    bad "fsize_convert_$out" "exit $st, left: $(ls -A "$T/fs" | head -3): $(head -c 200 "$T/out")"
  fi
  rm -rf "$T/fs"/* "$T/fs"/.[!.]*
done

# ---- one file for two outputs, or an output over the input: refused (2) ----
expect same_json_csv 2 "options --json and --csv both write" -- $W run -q -w $S --json "$T/x" --csv "$T/x"
expect same_json_csv_dot 2 "both write" -- sh -c "cd $T && $W run -q -w $S --json x --csv ./x"
expect same_stdout 2 "both write standard output" -- $W run -q -w $S --json - --csv -
expect same_mrc 2 "options --json and --svg both write" -- $W mrc -q -w $S --json "$T/x" --svg "$T/x"
expect same_model 2 "options --csv and --hist-csv" -- $W model -q -w $S --csv "$T/x" --hist-csv "$T/x"
[ ! -e "$T/x" ] && ok same_nothing_written || bad same_nothing_written "$T/x exists"

$W trace convert $S "$T/io.wct" >/dev/null 2>&1
cp "$T/io.wct" "$T/io.ref"
expect convert_onto_input 2 "would overwrite the input" -- $W trace convert "$T/io.wct" "$T/io.wct"
expect convert_onto_input_link 2 "would overwrite the input" -- sh -c "ln -s io.wct $T/link.wct && $W trace convert $T/link.wct $T/io.wct"
expect run_json_onto_trace 2 "option --json would overwrite the input" -- $W run -q --trace "$T/io.wct" --json "$T/io.wct"
expect model_csv_onto_trace 2 "option --csv would overwrite the input" -- $W model -q --trace "$T/io.wct" --csv "$T/io.wct"
cmp -s "$T/io.wct" "$T/io.ref" && ok convert_input_intact || bad convert_input_intact "io.wct changed"
# Every output against every other output and every input (was: exit 0 and the
# input or the other output replaced): --timeline-csv, the --config file, the
# file of --design/--designs, compare's traces, validate --hw's CSV, a kernel
# file or the list of an Accel-Sim trace.
expect timeline_onto_trace 2 "option --timeline-csv would overwrite the input" -- $W run -q --trace "$T/io.wct" --timeline-csv "$T/io.wct"
expect timeline_and_json 2 "options --json and --timeline-csv both write" -- $W run -q -w $S --json "$T/tl" --timeline-csv "$T/tl"
expect compare_onto_trace 2 "option --json would overwrite the input" -- $W compare -q --designs base -t "$T/io.wct" --json "$T/io.wct"
cmp -s "$T/io.wct" "$T/io.ref" && ok timeline_input_intact || bad timeline_input_intact "io.wct changed"
cp "$(dirname "$0")/../configs/fermi-16k.config" "$T/c.config"; cp "$T/c.config" "$T/c.ref"
expect json_onto_config 2 "option --json would overwrite the input $T/c.config" -- $W run -q -w $S --config "$T/c.config" --json "$T/c.config"
expect csv_onto_design 2 "option --csv would overwrite the input" -- $W model -q -w $S --design "$T/c.config" --csv "$T/c.config"
expect wide_onto_designs 2 "option --wide-csv would overwrite the input" -- $W compare -q --designs "base,$T/c.config" -w $S --wide-csv "$T/c.config"
cmp -s "$T/c.config" "$T/c.ref" && ok config_intact || bad config_intact "c.config changed"
printf 'ID,Kernel Name,gpc__cycles_elapsed.max\n0,stream_copy,100\n' >"$T/hw.csv"
expect json_onto_hw_csv 2 "option --json would overwrite the input $T/hw.csv" -- $W validate --hw "$T/hw.csv" -q -w $S --json "$T/hw.csv"
$W trace convert $S "$T/acc2" >/dev/null 2>&1
expect json_onto_kernel_file 2 "would overwrite the input" -- $W run -q -t "$T/acc2" --json "$T/acc2/kernel-1.traceg"
expect csv_onto_kernelslist 2 "would overwrite the input" -- $W run -q -t "$T/acc2/kernelslist.g" --timeline-csv "$T/acc2/kernelslist.g"
$W trace convert $S "$T/acc" >/dev/null 2>&1
expect convert_into_input_dir 2 "would overwrite the input" -- $W trace convert "$T/acc/kernelslist.g" "$T/acc"
$W trace convert $S "$T/s.trc" >/dev/null 2>&1
expect convert_onto_input_trc 2 "would overwrite the input" -- $W trace convert "$T/s_00.trc" "$T/s.trc"
expect convert_onto_input_trc2 2 "would overwrite the input" -- $W trace convert "$T/s_00.trc" "$T/s_00.trc"
printf 'x\n' > "$T/plain"
expect convert_dir_over_file 2 "is not a folder" -- $W trace convert $S "$T/plain" --format accelsim

# A file the user may not write (mode 444, not root) is refused by every
# output as the shell's > would refuse it: exit 2 (was: trace convert exit 1
# "cannot create", since the temporary file was given the 444 mode before it
# was written; the others exit 2 only by that same accident).
if [ "$(id -u)" = 0 ]; then asuser="setpriv --reuid=65534 --regid=65534 --clear-groups"; else asuser=""; fi
mkdir "$T/rw"; chmod 755 "$T"; chmod 777 "$T/rw"; echo keep >"$T/rw/ro"; chmod 444 "$T/rw/ro"
if { [ -z "$asuser" ] || command -v setpriv >/dev/null 2>&1; } && $asuser "$W" --version >/dev/null 2>&1; then
  for o in "run -q -w $S --json" "run -q -w $S --timeline-csv" "compare -q --designs base -w $S --wide-csv" "model -q -w $S --hist-csv" "mrc -q -w $S --svg" "trace convert $S --format wct" "report $T/m.json -o"; do
    [ -f "$T/m.json" ] || $W run -q -w $S --json "$T/m.json" >/dev/null
    name=readonly_$(echo "$o" | awk '{print $1 "_" $NF}' | tr -d -- '-')
    expect "$name" 2 "cannot write $T/rw/ro: Permission denied" -- $asuser $W $o "$T/rw/ro"
  done
  [ "$(cat "$T/rw/ro")" = keep ] && [ -z "$(ls -A "$T/rw" | grep -v '^ro$')" ] && ok readonly_intact || bad readonly_intact "changed or temporaries left: $(ls -A "$T/rw")"
else
  echo "readonly_* skipped: cannot run as another user (not counted)"
fi

# A fatal signal right after the temporary file is created and before it is
# registered for removal used to leave an empty .NAME.tmp.XXXXXX.  A
# preloaded mkstemp raises SIGTERM just after creating the file, the
# narrowest such window, every time.
if command -v cc >/dev/null 2>&1 && ! grep -q __asan_init "$W" 2>/dev/null; then
  cat >"$T/raise.c" <<'EOF2'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
int mkstemp(char *t)
{
    int (*real)(char *) = (int (*)(char *))dlsym(RTLD_NEXT, "mkstemp");
    int fd = real(t);
    if (getenv("RAISE_AFTER_MKSTEMP")) raise(SIGTERM);
    return fd;
}
EOF2
  if cc -shared -fPIC -o "$T/raise.so" "$T/raise.c" -ldl 2>/dev/null; then
    mkdir "$T/sig"
    for o in --timeline-csv --json; do
      RAISE_AFTER_MKSTEMP=1 LD_PRELOAD="$T/raise.so" $W run -q -w $S $o "$T/sig/o.csv" >/dev/null 2>&1; st=$?
      [ $st -eq 143 ] && [ -z "$(ls -A "$T/sig")" ] && ok "signal_after_mkstemp$o" || bad "signal_after_mkstemp$o" "exit $st, left: $(ls -A "$T/sig")"
      rm -f "$T/sig"/.o* "$T/sig"/*
    done
  else
    echo "signal_after_mkstemp skipped: cannot build a preload library (not counted)"
  fi
fi

# ---- files are replaced whole ----
# New files get the mode open(2) would give (0666 less the umask), not
# mkstemp's 0600; an existing file keeps its mode; a symbolic link stays one.
(umask 022; $W run -q -w $S --json "$T/m.json" >/dev/null)
[ "$(stat -c %a "$T/m.json")" = 644 ] && ok mode_new || bad mode_new "mode $(stat -c %a "$T/m.json")"
chmod 600 "$T/m.json"; $W run -q -w $S --json "$T/m.json" >/dev/null
[ "$(stat -c %a "$T/m.json")" = 600 ] && ok mode_kept || bad mode_kept "mode $(stat -c %a "$T/m.json")"
ln -s m.json "$T/l.json"; $W run -q -w micro/stream:n=64 --json "$T/l.json" >/dev/null
[ -L "$T/l.json" ] && grep -q 'n=64' "$T/m.json" && ok symlink_target || bad symlink_target "link replaced or target not written"

# Two processes writing one file, many times: the file is always one
# complete output of one of them (byte for byte), never a mix or a
# truncation (before: 12 of 60 pairs left invalid JSON).
A=micro/stream:n=8192; B=micro/colcopy:h=64
$W run -q -w $A --json "$T/ra.json" >/dev/null; $W run -q -w $B --json "$T/rb.json" >/dev/null
mkdir "$T/race"; broken=0
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
  $W run -q -w $A --json "$T/race/o.json" >/dev/null & p1=$!
  $W run -q -w $B --json "$T/race/o.json" >/dev/null & p2=$!
  wait $p1; wait $p2
  cmp -s "$T/race/o.json" "$T/ra.json" || cmp -s "$T/race/o.json" "$T/rb.json" || broken=$((broken + 1))
done
[ $broken -eq 0 ] && ok concurrent_writers || bad concurrent_writers "$broken of 20 pairs left a file that is neither output"
no_temps concurrent_no_temps "$T/race"

# An interrupted convert (SIGTERM mid-way) leaves no partial file and no
# temporary file; a destination that existed keeps its old content.  Before,
# an interrupted Accel-Sim convert left an empty kernelslist.g that then ran
# as 0 kernels with exit 0.  The workloads take seconds to convert (gemm at
# scale 2: 8 times the default's 1.3 s as .wct; at scale 0.5 2.3 s and
# 174 MB as text); the signal comes after 0.3 s.
mkdir "$T/int"
interrupt() { # NAME SIGNAL DEST: convert to DEST, send SIGNAL after 0.3 s
  case $3 in *.wct) g=polybench/gemm:scale=2 ;; *) g=polybench/gemm:scale=0.5 ;; esac
  $W trace convert $g "$T/int/$3" >/dev/null 2>&1 & p=$!
  sleep 0.3; kill -"$2" $p 2>/dev/null; wait $p; st=$?
  if [ $st -lt 128 ]; then bad "$1" "convert finished (exit $st) before the signal"; return 1; fi
  return 0
}
clean_int() { rm -rf "$T/int"/* "$T/int"/.[!.]*; }
if interrupt interrupt_wct TERM g.wct; then
  [ -z "$(ls -A "$T/int")" ] && ok interrupt_wct || bad interrupt_wct "left: $(ls -A "$T/int")"
fi
clean_int
if interrupt interrupt_accelsim TERM gdir; then
  [ -z "$(ls -A "$T/int")" ] && ok interrupt_accelsim || bad interrupt_accelsim "left: $(ls -A "$T/int")"
fi
clean_int
if interrupt interrupt_trc TERM g.trc; then
  [ -z "$(ls -A "$T/int")" ] && ok interrupt_trc || bad interrupt_trc "left: $(ls -A "$T/int")"
fi
clean_int
# over an existing trace folder: the old trace stays whole and runnable
$W trace convert $S "$T/int/gdir" >/dev/null 2>&1
cp -r "$T/int/gdir" "$T/gdir.ref"
if interrupt interrupt_keeps_old TERM gdir; then
  if diff -r "$T/int/gdir" "$T/gdir.ref" >/dev/null && [ -z "$(ls -A "$T/int" | grep -v '^gdir$')" ] &&
     $W run -q --trace "$T/int/gdir/kernelslist.g" | grep -q stream_copy; then
    ok interrupt_keeps_old
  else
    bad interrupt_keeps_old "old trace changed or temporary files left: $(ls -A "$T/int")"
  fi
fi
clean_int
# SIGKILL cannot be caught: the temporary file stays, the destination is
# never a partial file.
if interrupt interrupt_kill KILL g.wct; then
  [ ! -e "$T/int/g.wct" ] && ok interrupt_kill || bad interrupt_kill "g.wct exists after SIGKILL"
fi
clean_int
# SIGINT: a background job of a script ignores SIGINT, so python3 starts
# the convert with the default action restored.
if command -v python3 >/dev/null 2>&1; then
  python3 - "$W" polybench/gemm:scale=2 "$T/int/g.wct" <<'EOF'
import signal, subprocess, sys, time
p = subprocess.Popen([sys.argv[1], "trace", "convert", sys.argv[2], sys.argv[3]],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
time.sleep(0.3)
p.send_signal(signal.SIGINT)
sys.exit(0 if p.wait() == -signal.SIGINT else 3)
EOF
  st=$?
  if [ $st -ne 0 ]; then bad interrupt_sigint "convert was not killed by SIGINT (finished first?)"
  else [ -z "$(ls -A "$T/int")" ] && ok interrupt_sigint || bad interrupt_sigint "left: $(ls -A "$T/int")"; fi
else
  echo "interrupt_sigint skipped: python3 missing (not counted)"
fi

# An interrupted run: its --json/--csv (opened before the simulation, so a
# bad path fails at once) are removed, an existing output keeps its content.
echo old >"$T/int/o.json"
$W run -q -w polybench/gemm:scale=2 --json "$T/int/o.json" --csv "$T/int/o.csv" >/dev/null 2>&1 & p=$!
sleep 0.3; kill -TERM $p 2>/dev/null; wait $p; st=$?
if [ $st -lt 128 ]; then bad interrupt_run "run finished (exit $st) before the signal"
elif [ "$(cat "$T/int/o.json")" = old ] && [ "$(ls -A "$T/int")" = o.json ]; then ok interrupt_run
else bad interrupt_run "left: $(ls -A "$T/int")"; fi
clean_int

# ---- internal failures exit 1, not 2 ----
# Out of memory is the simulator's failure, not the input's: 1024 SMs (the
# most a configuration may have) with 16 MB L1s (8192 sets x 16 ways x 128 B)
# need more than 1 GB of address space; 15 such SMs run within it.
# (AddressSanitizer builds cannot run under a virtual-memory limit: skipped there.)
if grep -q __asan_init "$W" 2>/dev/null; then
  echo "oom_exit1 skipped: AddressSanitizer build (not counted)"
else
  expect oom_exit1 1 "out of memory" -- sh -c "ulimit -v 1000000; exec $W run -q -w micro/stream:n=1024 -o gpgpu_n_clusters=1024 -o gpgpu_cache:dl1=N:8192:128:16,L:L:m:N:L,A:32:8,8"
fi

echo "cli_outputs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
