#!/bin/sh
# Installs the Debian packages warpcache's build and checks use, if missing.
# Everything here is optional for building the simulator itself (libc, libm and
# pthreads suffice); compressed traces need the compression libraries,
# `make check` uses clang-format, and build/warpcache-mpi (sweeps on MPI
# ranks, tests/cli_mpi.sh) needs Open MPI's mpicc and mpirun.  The report
# test (tests/cli_report.sh) checks every SVG with xmllint (libxml2-utils)
# and renders the HTML report in a real headless browser
# (chromium-headless-shell, with the DejaVu fonts its figures name); those are
# installed without Debian's recommended extras.
need=""
command -v clang-format >/dev/null 2>&1 || need="$need clang-format"
command -v mpicc >/dev/null 2>&1 || need="$need libopenmpi-dev"
command -v mpirun >/dev/null 2>&1 || need="$need openmpi-bin"
for h in zlib.h:zlib1g-dev lzma.h:liblzma-dev zstd.h:libzstd-dev; do
  hdr=${h%%:*}; pkg=${h#*:}
  [ -f /usr/include/$hdr ] || need="$need $pkg"
done
lean=""
command -v xmllint >/dev/null 2>&1 || lean="$lean libxml2-utils"
command -v chromium-headless-shell >/dev/null 2>&1 || command -v chromium >/dev/null 2>&1 ||
  lean="$lean chromium-headless-shell"
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || lean="$lean fonts-dejavu-core"
# make reproduce / reproduce-quick (scripts/reproduce.py) and tests/cli_reproduce.sh
command -v python3 >/dev/null 2>&1 || lean="$lean python3"
[ -z "$need$lean" ] && exit 0
echo "deps: installing$need$lean"
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
if command -v apt-get >/dev/null 2>&1; then
  $SUDO apt-get update -qq >/dev/null 2>&1
  if [ -n "$need" ]; then
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need >/dev/null 2>&1 ||
      echo "deps: could not install$need (continuing: these are optional)"
  fi
  if [ -n "$lean" ]; then
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
      $lean >/dev/null 2>&1 ||
      echo "deps: could not install$lean (make check's report test will fail without them)"
  fi
else
  echo "deps: no apt-get; please install$need$lean"
fi
exit 0
