# warpcache - build, test, benchmark.
#
#   make          build/warpcache and build/libwarpcache.a (on every CPU: -jN
#                 on the command line wins)
#   make demo     install the build-time libraries when missing (scripts/deps.sh
#                 build), build, run the main comparison on built-in workloads
#   make check    the same libraries, then the test tools (scripts/deps.sh check),
#                 format check + every test; last line "N passed, N failed"
#   make deps-build  only the build-time libraries (zlib, liblzma, libzstd dev
#                 packages); make deps: those and every test tool
#   make PLUGINS="dir/a.c dir/b.c"  the same with plug-ins from outside the tree
#                 built in (each registers itself: include/warpcache/plugin.h)
#   make install  PREFIX=/usr/local (DESTDIR too): bin/warpcache, include/warpcache/,
#                 lib/libwarpcache.a, lib/pkgconfig/warpcache.pc, share/warpcache/
#   make bench    throughput benchmarks (not part of check)
#   make fuzz     libFuzzer targets, bounded time (needs clang)
#   make asan     unit tests under AddressSanitizer + UBSan (used by .ci/run)
#   make tsan     the parallel-batch tests under ThreadSanitizer (used by .ci/run)
#   make mpi      build/warpcache-mpi (sweeps across machines; needs Open MPI's mpicc,
#                 detected: `make` builds it too when mpicc is there)
#   make screenshot  docs/img/report.png: a real `warpcache report` in the headless browser
#   make reproduce   docs/reproduction.md (+ docs/reproduction/): each seed paper's headline
#                    comparison, regenerated (long: tens of minutes on 2 cores)
#   make reproduce-quick  the same at reduced sizes into build/reproduce-quick/ (CI); fails
#                    when a number differs from scripts/reproduce/quick_expected.tsv
#   make reproduce-quick-update  the same, rewriting that file (after an intended change)
#   make docs        re-runs the command above every generated table in docs/techniques/
#                    and docs/experiments.md (DOCS=PAGE... for some); make check fails when
#                    one is stale (scripts/docgen.py, docs/design.md "Generated tables")
#   make golden-update  rewrite tests/golden/designs.tsv (the golden net make check compares:
#                    every design on small workloads) after an intended change of results;
#                    then make docs (the generated tables are stamped with its fingerprint)
#
# Sources are found by wildcard: a new plug-in is a new .c file, no Makefile edit.

# Parallel by default: every CPU unless the command line gives -jN (GNU make
# 4.3 lets the command line win).  Only the top-level make: sub-makes share
# its job server.
ifeq ($(MAKELEVEL),0)
  MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif

CC      ?= gcc
BUILD   ?= build
OPT     ?= -O2
WERROR  ?=
CFLAGS  ?= $(OPT) -g
# Link-time optimisation for the programs (warpcache, benchmarks): the SM, L1
# and memory system are separate files calling each other on every access, and
# inlining across them is worth 4-5 % of simulation time (docs/design.md,
# "Performance").  Fat objects keep ordinary code too, so the test programs
# link without the slow LTO step (-fno-lto); LTO= turns it off.  GCC only:
# clang's LTO objects hold no ordinary code for the tests to link.
# The programs link the fat objects ($(LTO_LIB)); build/libwarpcache.a, what
# other programs link, is the same objects with the LTO sections removed
# (objcopy): it links in a second instead of a whole-library LTO step, and
# nothing is compiled twice.
IS_GCC  := $(shell $(CC) -v 2>&1 | grep -q '^gcc version' && echo yes)
LTO     ?= $(if $(IS_GCC),-flto=auto -ffat-lto-objects)
AR      := $(if $(IS_GCC),gcc-ar,ar)
CPPFLAGS_ALL = -Iinclude -Isrc -D_GNU_SOURCE
CFLAGS_ALL   = -std=c11 -Wall -Wextra -Wno-unused-parameter $(WERROR) $(CFLAGS) $(LTO) $(EXTRA_CFLAGS)
LDLIBS_ALL   = -lm -lpthread

# Optional Debian libraries (compressed traces), detected at build time.
# `make demo` and `make check` install them first (scripts/deps.sh build), so
# the set found - and with it every object file - is the same before and after.
HASH := \#
have_lib = $(shell printf '$(HASH)include <$(1)>\nint main(void){return 0;}\n' | \
             $(CC) -x c - -o /dev/null $(2) >/dev/null 2>&1 && echo yes)
ifeq ($(call have_lib,zlib.h,-lz),yes)
  CPPFLAGS_ALL += -DWC_HAVE_ZLIB=1
  LDLIBS_ALL += -lz
endif
ifeq ($(call have_lib,lzma.h,-llzma),yes)
  CPPFLAGS_ALL += -DWC_HAVE_LZMA=1
  LDLIBS_ALL += -llzma
endif
ifeq ($(call have_lib,zstd.h,-lzstd),yes)
  CPPFLAGS_ALL += -DWC_HAVE_ZSTD=1
  LDLIBS_ALL += -lzstd
endif
# A plain `make` does not install anything: it says what it builds without.
MISSING_LIBS := $(filter-out $(LDLIBS_ALL),-lz -llzma -lzstd)
ifneq ($(MISSING_LIBS),)
  ifeq ($(MAKELEVEL)$(filter-out all,$(MAKECMDGOALS)),0)
    $(info make: building without $(MISSING_LIBS) (compressed traces); 'make deps-build' installs them - make demo and make check do it first)
  endif
endif

# Objects depend on a stamp of the compiler and flags, rewritten only when they
# change: `make check` may install a codec library (scripts/deps.sh) after `make
# demo` built without it, and the re-read Makefile then compiles with
# -DWC_HAVE_ZSTD=1; without the stamp the old objects would be kept.
# Header dependencies are written by the compiler (-MMD: a .d file beside each
# object and program; -MP: a header that disappears is no error) and read back
# at the end: touching a header recompiles only the files that include it.
# They are part of the stamp, so a build made before them is compiled again
# once, writing its .d files.
DEPFLAGS    := -MMD -MP
FLAGS_STAMP := $(BUILD)/flags.stamp
FLAGS_NOW   := $(CC) $(CPPFLAGS_ALL) $(DEPFLAGS) $(CFLAGS_ALL) $(LDLIBS_ALL)
$(shell mkdir -p $(BUILD) && { [ "$$(cat $(FLAGS_STAMP) 2>/dev/null)" = '$(FLAGS_NOW)' ] || \
          printf '%s\n' '$(FLAGS_NOW)' > $(FLAGS_STAMP); })

LIB_SRC  := $(shell find src -name '*.c' ! -path 'src/cli/*' ! -path 'src/mpi/*' | LC_ALL=C sort)
CLI_SRC  := $(wildcard src/cli/*.c)
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)

# Plug-in registry (include/warpcache/plugin.h): a plug-in registers itself
# with a WC_PLUGIN(family, symbol, order) line in its own file, and
# scripts/gen_registry.sh writes every family's list into
# $(BUILD)/gen/registry.c from the library's sources.  The list of sources is
# kept in $(BUILD)/gen/sources.list, rewritten only when it changes, so adding
# or removing a file regenerates the registry as editing one does.
# PLUGINS="dir/a.c dir/b.c": plug-ins from outside the tree, built into the
# library and the programs (docs/design.md, "Plug-ins from outside the tree").
PLUGINS    ?=
PLUGIN_OBJ := $(foreach p,$(PLUGINS),$(BUILD)/obj/plugins/$(basename $(notdir $(p))).o)
ifneq ($(words $(PLUGIN_OBJ)),$(words $(sort $(PLUGIN_OBJ))))
  $(error PLUGINS: two plug-in files have the same name: $(PLUGINS))
endif
$(foreach p,$(PLUGINS),$(if $(wildcard $(p)),,$(error PLUGINS: $(p): no such file)))
# A file without its registration line would be built in and never be found:
# refused rather than ignored.
PLUGIN_LINE := ^WC_PLUGIN(
$(foreach p,$(PLUGINS),$(if $(shell grep -l '$(PLUGIN_LINE)' $(p)),,$(error PLUGINS: $(p): no WC_PLUGIN line - see include/warpcache/plugin.h - so it would be built in and never registered)))
GEN_LIST := $(BUILD)/gen/sources.list
GEN_REG  := $(BUILD)/gen/registry.c
GEN_OBJ  := $(BUILD)/obj/gen/registry.o
REG_SRC  := $(LIB_SRC) $(PLUGINS)
$(shell mkdir -p $(BUILD)/gen && { [ "$$(cat $(GEN_LIST) 2>/dev/null)" = '$(REG_SRC)' ] || \
          printf '%s\n' '$(REG_SRC)' > $(GEN_LIST); })
LIB_OBJ  += $(GEN_OBJ) $(PLUGIN_OBJ)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
# warpcache-mpi: the same commands (all of src/cli but its entry.c) around
# src/mpi, compiled and linked with mpicc; only when mpicc is installed, and
# nothing of it reaches build/warpcache or the library.
MPICC    ?= mpicc
HAVE_MPI := $(shell command -v $(MPICC) >/dev/null 2>&1 && echo yes)
MPI_SRC  := $(wildcard src/mpi/*.c)
MPI_OBJ  := $(MPI_SRC:%.c=$(BUILD)/obj/%.o)
MPI_BIN  := $(if $(HAVE_MPI),$(BUILD)/warpcache-mpi)
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
BENCH_SRC := $(wildcard bench/bench_*.c)
BENCH_BIN := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)

LTO_LIB  := $(if $(LTO),$(BUILD)/obj/libwarpcache-lto.a,$(BUILD)/libwarpcache.a)
LIBS_PRIVATE := $(filter-out -lm -lpthread,$(LDLIBS_ALL)) -lm -lpthread

.PHONY: all demo check test bench fuzz asan tsan format fmt-check deps deps-build clean mpi \
        screenshot reproduce reproduce-quick reproduce-quick-update install install-test docs \
        golden-update plugins-test
all: $(BUILD)/warpcache $(BUILD)/libwarpcache.a $(MPI_BIN)

$(BUILD)/obj/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(DEPFLAGS) $(CFLAGS_ALL) -c $< -o $@

$(GEN_REG): scripts/gen_registry.sh include/warpcache/plugin.h $(GEN_LIST) $(REG_SRC)
	@echo "sh scripts/gen_registry.sh include/warpcache/plugin.h SOURCES > $@"
	@sh scripts/gen_registry.sh include/warpcache/plugin.h $(REG_SRC) > $@.tmp
	@mv $@.tmp $@

$(GEN_OBJ): $(GEN_REG) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(DEPFLAGS) $(CFLAGS_ALL) -c $< -o $@

define plugin_rule
$(BUILD)/obj/plugins/$(basename $(notdir $(1))).o: $(1) $(FLAGS_STAMP)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(CPPFLAGS_ALL) $$(DEPFLAGS) $$(CFLAGS_ALL) -c $$< -o $$@
endef
$(foreach p,$(PLUGINS),$(eval $(call plugin_rule,$(p))))

ifneq ($(LTO),)
$(LTO_LIB): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/libwarpcache.a: $(LTO_LIB)
	@rm -f $@
	objcopy --remove-section='.gnu.lto_*' --remove-section='.gnu.debuglto_*' \
	  --strip-symbol=__gnu_lto_v1 --strip-symbol=__gnu_lto_slim $< $@
	ar s $@
else
$(BUILD)/libwarpcache.a: $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^
endif

# LINK_EXTRA: flags for this link only (plugins-test: -fno-lto).
$(BUILD)/warpcache: $(CLI_OBJ) $(LTO_LIB)
	$(CC) $(CFLAGS_ALL) $(LINK_EXTRA) -o $@ $(CLI_OBJ) $(LTO_LIB) $(LDLIBS_ALL)

$(BUILD)/obj/src/mpi/%.o: src/mpi/%.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(MPICC) $(CPPFLAGS_ALL) $(DEPFLAGS) $(CFLAGS_ALL) -c $< -o $@

# The MPI twin links the plain library without an LTO step of its own (the
# objects are fat, -fno-lto uses their ordinary code): a second whole-library
# LTO link doubled the link time of a fresh `make` (15 s each here) for about
# 4 % fewer instructions in MPI sweeps; results are the same bytes either way.
$(BUILD)/warpcache-mpi: $(filter-out %/entry.o,$(CLI_OBJ)) $(MPI_OBJ) $(BUILD)/libwarpcache.a
	$(MPICC) $(CFLAGS_ALL) $(if $(LTO),-fno-lto) -o $@ $(filter-out %/entry.o,$(CLI_OBJ)) \
	  $(MPI_OBJ) $(BUILD)/libwarpcache.a $(LDLIBS_ALL)

mpi:
ifeq ($(HAVE_MPI),yes)
	@$(MAKE) --no-print-directory $(BUILD)/warpcache-mpi
else
	@echo "make mpi: no $(MPICC); install Open MPI first: apt-get install libopenmpi-dev openmpi-bin" >&2
	@exit 2
endif

$(BUILD)/tests/%: tests/%.c $(BUILD)/libwarpcache.a $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(DEPFLAGS) $(CFLAGS_ALL) -fno-lto -Itests -o $@ $< $(BUILD)/libwarpcache.a $(LDLIBS_ALL)

$(BUILD)/bench/%: bench/%.c $(LTO_LIB) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(DEPFLAGS) $(CFLAGS_ALL) -o $@ $< $(LTO_LIB) $(LDLIBS_ALL)

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(MPI_OBJ:.o=.d) $(TEST_BIN:=.d) $(BENCH_BIN:=.d)

deps:
	@sh scripts/deps.sh
deps-build:
	@sh scripts/deps.sh build

# deps-build may install libraries; a fresh make detects them (the detection
# above runs when the Makefile is read), before anything is compiled.
demo: deps-build
	@$(MAKE) --no-print-directory all
	@sh scripts/demo.sh $(BUILD)/warpcache

# The installed tree tests/cli_install.sh checks (and builds examples/hello.c
# against): what `make install PREFIX=...` gives a user.
install-test: all
	@rm -rf $(BUILD)/prefix
	@$(MAKE) --no-print-directory install PREFIX=$(abspath $(BUILD))/prefix DESTDIR= >/dev/null

# warpcache with the test plug-ins (tests/plugins/, checked by tests/cli_plugins.sh)
# in $(BUILD)/plugins: `make PLUGINS=...` starting from copies of this build's
# objects (timestamps kept), so only the registry and the plug-ins compile.
# Linked without LTO (the objects are fat: they hold ordinary code too): the
# tests check what the plug-ins do, not how fast.
TEST_PLUGINS := $(sort $(wildcard tests/plugins/*.c))
plugins-test: all
	@rm -rf $(BUILD)/plugins && mkdir -p $(BUILD)/plugins
	@cp -pR $(BUILD)/obj $(FLAGS_STAMP) $(BUILD)/plugins/
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/plugins PLUGINS="$(TEST_PLUGINS)" \
	  LINK_EXTRA=$(if $(LTO),-fno-lto) $(BUILD)/plugins/warpcache >/dev/null

test: all $(TEST_BIN) install-test plugins-test
	@sh scripts/run_tests.sh $(BUILD)

check: deps-build
	@sh scripts/deps.sh check
	@$(MAKE) --no-print-directory fmt-check test

# ---- make install ------------------------------------------------------------
PREFIX     ?= /usr/local
DESTDIR    ?=
BINDIR     := $(DESTDIR)$(PREFIX)/bin
INCDIR     := $(DESTDIR)$(PREFIX)/include
LIBDIR     := $(DESTDIR)$(PREFIX)/lib
SHAREDIR   := $(DESTDIR)$(PREFIX)/share/warpcache
VERSION    := $(shell sed -n 's/^#define WC_VERSION "\(.*\)"/\1/p' include/warpcache/common.h)
# The .pc file: the static library needs the libraries the build detected
# (pkg-config --static --libs warpcache).
install: all
	install -d $(BINDIR) $(INCDIR)/warpcache $(LIBDIR)/pkgconfig $(SHAREDIR)/designs
	install -m 755 $(BUILD)/warpcache $(MPI_BIN) $(BINDIR)/
	install -m 644 include/warpcache/*.h $(INCDIR)/warpcache/
	install -m 644 $(BUILD)/libwarpcache.a $(LIBDIR)/
	install -m 644 configs/designs/*.config $(SHAREDIR)/designs/
	install -m 644 configs/*.config $(SHAREDIR)/
	install -d $(SHAREDIR)/seeds && install -m 644 configs/seeds/*.config $(SHAREDIR)/seeds/
	printf '%s\n' 'prefix=$(PREFIX)' 'includedir=$${prefix}/include' 'libdir=$${prefix}/lib' '' \
	  'Name: warpcache' 'Description: GPU memory-system simulator (static library)' \
	  'Version: $(VERSION)' 'Cflags: -I$${includedir}' 'Libs: -L$${libdir} -lwarpcache' \
	  'Libs.private: $(LIBS_PRIVATE)' > $(LIBDIR)/pkgconfig/warpcache.pc

bench: all $(BENCH_BIN)
	@sh scripts/bench.sh $(BUILD)

# The report test's browser part may be skipped here when no browser is
# installed (make check runs it and fails without one: tests/cli_report.sh).
asan:
	WC_REPORT_BROWSER=optional $(MAKE) BUILD=build-asan OPT=-O1 LTO= \
	  EXTRA_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  test

# Two simulations in two threads (tests/test_experiment.c) must show no race.
tsan:
	$(MAKE) BUILD=build-tsan OPT=-O1 LTO= EXTRA_CFLAGS="-fsanitize=thread" build-tsan/tests/test_experiment
	TSAN_OPTIONS=halt_on_error=1 build-tsan/tests/test_experiment

FMT_FILES = $(shell find include src tests bench fuzz -name '*.[ch]' 2>/dev/null | LC_ALL=C sort)
format:
	clang-format -i $(FMT_FILES)
fmt-check:
	@if command -v clang-format >/dev/null 2>&1; then \
	  clang-format --dry-run --Werror $(FMT_FILES) && echo "format: ok"; \
	else echo "format: clang-format not installed, skipped (make deps installs it)"; fi

fuzz:
	@sh scripts/fuzz.sh

screenshot: all
	@sh scripts/screenshot.sh $(BUILD)/warpcache docs/img/report.png

# scripts/reproduce.py runs every simulation with -j (every CPU); see docs/reproduction.md.
reproduce: all
	@sh scripts/reproduce.sh --docs --bin $(BUILD)/warpcache
reproduce-quick: all
	@sh scripts/reproduce.sh --quick --bin $(BUILD)/warpcache
reproduce-quick-update: all
	@sh scripts/reproduce.sh --quick --update-expected --bin $(BUILD)/warpcache

DOCS ?= $(wildcard docs/techniques/*.md) docs/experiments.md docs/h100.md docs/parameters.md docs/stats.md
docs: all
	@DOCGEN_BIN=$(BUILD)/warpcache python3 scripts/docgen.py run $(DOCS)
# The golden net (tests/cli_golden.sh compares it in make check; docs/golden.md).
golden-update: all
	sh scripts/golden_net.sh $(BUILD)/warpcache tests/golden/designs.tsv
	sha256sum tests/golden/designs.tsv | cut -d' ' -f1 > tests/golden/FINGERPRINT

clean:
	rm -rf build build-asan build-tsan build-fuzz
