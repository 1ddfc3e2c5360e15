#!/bin/sh
# Installs the Debian packages warpcache's build and checks use, if missing,
# and says which and why on one line each.
#
#   sh scripts/deps.sh build   the libraries the build detects (compressed
#                              traces): run by `make demo` and `make check`
#                              before the first compile, so that the set of
#                              detected libraries - and with it every object
#                              file - does not change between the two
#   sh scripts/deps.sh check   what only the tests use (make check)
#   sh scripts/deps.sh         both (make deps)
#
# Everything here is optional for building the simulator itself (libc, libm and
# pthreads suffice).  The test tools are installed without Debian's
# recommended extras.
group=${1:-all}
case $group in build | check | all) ;; *)
  echo "deps.sh: unknown group '$group' (build, check or nothing for both)" >&2
  exit 2
  ;;
esac

# Build-time libraries: their headers are what the Makefile detects.
build=""
for h in zlib.h:zlib1g-dev lzma.h:liblzma-dev zstd.h:libzstd-dev; do
  hdr=${h%%:*}; pkg=${h#*:}
  [ -f /usr/include/$hdr ] || build="$build $pkg"
done

# Test tools, each with the reason it is needed; `full` ones with Debian's
# recommended packages (mpirun needs an rsh agent even on one machine).
check=""; full=""; why=""
want() { # package, reason, [full]
  check="$check $1"
  why="$why
deps: installing $1 for $2"
  [ -z "$3" ] || full="$full $1"
}
command -v clang-format >/dev/null 2>&1 || want clang-format "the format check" full
command -v mpicc >/dev/null 2>&1 || want libopenmpi-dev "tests/cli_mpi.sh (build/warpcache-mpi)" full
command -v mpirun >/dev/null 2>&1 || want openmpi-bin "tests/cli_mpi.sh" full
command -v pkg-config >/dev/null 2>&1 || want pkg-config "tests/cli_install.sh (examples/hello.c)"
command -v xmllint >/dev/null 2>&1 || want libxml2-utils "tests/cli_report.sh (checks every SVG)"
command -v chromium-headless-shell >/dev/null 2>&1 || command -v chromium >/dev/null 2>&1 ||
  want chromium-headless-shell "tests/cli_report.sh (renders the HTML report)"
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] ||
  want fonts-dejavu-core "tests/cli_report.sh (the fonts its figures name)"
command -v python3 >/dev/null 2>&1 || want python3 "tests/cli_reproduce.sh and tests/cli_python.sh"
# The Python package's DataFrame parts (tests/cli_python.sh skips them without).
python3 -c 'import pandas' >/dev/null 2>&1 || /usr/bin/python3 -c 'import pandas' >/dev/null 2>&1 ||
  want python3-pandas "tests/cli_python.sh (results as DataFrames)"

SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
updated=""
apt_install() { # why, --no-install-recommends or "", packages...
  why=$1; lean=$2; shift 2
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "deps: no apt-get; please install $* ($why)"
    return 1
  fi
  [ -n "$updated" ] || { $SUDO apt-get update -qq >/dev/null 2>&1; updated=yes; }
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $lean "$@" \
    >/dev/null 2>&1
}

if [ "$group" != check ] && [ -n "$build" ]; then
  echo "deps: installing$build (build-time libraries for .gz/.xz/.zst traces, before the first compile)"
  # shellcheck disable=SC2086
  apt_install "compressed traces" --no-install-recommends $build ||
    echo "deps: could not install$build; building without them (compressed traces unreadable)"
fi
if [ "$group" != build ] && [ -n "$check" ]; then
  printf '%s\n' "$why" | sed 1d
  lean=""
  for p in $check; do
    case " $full " in *" $p "*) ;; *) lean="$lean $p" ;; esac
  done
  # shellcheck disable=SC2086
  [ -z "$full" ] || apt_install "make check" "" $full ||
    echo "deps: could not install$full; the tests that use them will fail"
  # shellcheck disable=SC2086
  [ -z "$lean" ] || apt_install "make check" --no-install-recommends $lean ||
    echo "deps: could not install$lean; the tests that use them will fail or skip"
fi
exit 0
