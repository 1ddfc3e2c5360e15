#!/bin/sh
# Installs the Debian packages warpcache's build and checks use, if missing.
# Everything here is optional for building the simulator itself (libc, libm and
# pthreads suffice); compressed traces need the compression libraries,
# `make check` uses clang-format, and build/warpcache-mpi (sweeps on MPI
# ranks, tests/cli_mpi.sh) needs Open MPI's mpicc and mpirun.
need=""
command -v clang-format >/dev/null 2>&1 || need="$need clang-format"
command -v mpicc >/dev/null 2>&1 || need="$need libopenmpi-dev"
command -v mpirun >/dev/null 2>&1 || need="$need openmpi-bin"
for h in zlib.h:zlib1g-dev lzma.h:liblzma-dev zstd.h:libzstd-dev; do
  hdr=${h%%:*}; pkg=${h#*:}
  [ -f /usr/include/$hdr ] || need="$need $pkg"
done
[ -z "$need" ] && exit 0
echo "deps: installing$need"
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
if command -v apt-get >/dev/null 2>&1; then
  $SUDO apt-get update -qq >/dev/null 2>&1
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need >/dev/null 2>&1 ||
    echo "deps: could not install$need (continuing: these are optional)"
else
  echo "deps: no apt-get; please install$need"
fi
exit 0
