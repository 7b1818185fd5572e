# ftrace-sdo: a patch series for the Linux 6.12 ftrace core, and the harness
# that builds, boots and tests it.  See README.md.
#
#   make          build the patched kernel, boot it, show what the series does
#   make check    run every test; ends with "N passed, N failed, N skipped"

ARCH_NAME ?= x86_64
S := scripts
B := build
OBJ := $(B)/obj/$(ARCH_NAME)

.PHONY: all demo deps tree build rootfs check check-one rejudge check-md harness-unit check-lockdep check-debug check-cfi check-bpf baseline-bpf baseline bench export verify \
	series-check build-matrix harness-selftest clean distclean help

all: demo

# make help: every target (the "## " comment above it) and every knob
help:
	@echo "targets:"; \
	awk '/^## / { d = substr($$0, 4); next } /^[a-z][a-z0-9-]*:/ && d != "" { sub(/:.*/, ""); printf "  %-17s %s\n", $$0, d } { d = "" }' Makefile; \
	echo "knobs (make VAR=value, or the environment):"; \
	sed -n 's/^#knob //p' Makefile | awk '{ k = $$1; $$1 = ""; printf "  %-17s%s\n", k, $$0 }'

#knob ARCH_NAME      the architecture of make, build, bench, check-one and the check-* targets: x86_64 (default) or arm64
#knob CHECK_ARCHES   the architectures make check runs, in one pool of guests (default "x86_64 arm64")
#knob GUESTS         guests at a time (default 4: measured, docs/judging.md)
#knob CHECK_TIMEOUT  every boot's limit before the calibration factor (default: its row's timeout=, else 3 x its weight, at least 900 s)
#knob EXTRA_APPEND   kernel command line appended to every boot (e.g. ftsdo.tests=ftrace/direct/)
#knob T/BOOT         make check-one's test and, optionally, its row of configs/suites
#knob DIR            make rejudge's results directory (e.g. build/results/x86_64)
#knob JOBS           parallel jobs of a kernel build (default: the cores)
#knob CCACHE_DIR     ccache's directory (default ~/.cache/ccache; an empty one for a cold run)
#knob QEMU_ICOUNT    run the guests with -icount (make bench: "shift=0,sleep=off")
#knob BENCH_BPF_ICOUNT make bench's BPF part under -icount (default "shift=0,sleep=off"; empty: plain TCG)

## install the Debian packages make and make check need (scripts/deps.sh)
deps:
	@$(S)/deps.sh

## build/linux: the base with patches/ applied (re-applied when patches/ changes)
tree: deps
	@$(S)/tree.sh

## build the patched kernel for ARCH_NAME (incremental, ccache)
build: tree
	@$(S)/build.sh $(ARCH_NAME)

## the initramfs of the test guests
rootfs: build
	@$(S)/rootfs.sh $(ARCH_NAME)

## (default) build, boot, show the series at work
demo: rootfs
	@$(S)/demo.sh $(ARCH_NAME)

# The host's facts, the packages, the harness's unit tests, the tree and
# the kernels, then suite "check" of configs/suites on both
# architectures in one pool, the timing table and the summary
# (scripts/check-all.sh, which times each step itself).
## every test; the last line is "N passed, N failed, N skipped"
check:
	@CHECK_ARCHES="$${CHECK_ARCHES:-$(ARCH_NAME) arm64}" $(S)/check-all.sh

## one test (T=ftrace/<path>.tc, project/<name>.sh, kunit/<suite>/<case>, ...) in its row of make check, judged the same way
check-one: rootfs
	@[ -n "$(T)" ] || { echo "usage: make check-one T=<test> [BOOT=<row>] [ARCH_NAME=arm64]" >&2; exit 2; }
	@$(S)/check-one.sh $(ARCH_NAME) "$(T)" $(BOOT)

## judge the results in DIR again, without booting
rejudge:
	@[ -n "$(DIR)" ] || { echo "usage: make rejudge DIR=build/results/<arch>" >&2; exit 2; }
	@$(S)/rejudge.sh "$(DIR)"

## the harness's own unit tests (configs/suites, the dealer, the parsers, the splat policy) and shellcheck
harness-unit:
	@$(S)/suites.py check
	@python3 -m unittest discover -q -s tests/harness
	@$(S)/shellcheck.sh

# The series' direct-call tests on a lockdep kernel.
## ftracetest's ftrace_ops tests again with the metadata on its hash (x86_64)
check-md: rootfs
	@$(S)/check-md.sh $(ARCH_NAME)

## the direct-call tests on a lockdep kernel
check-lockdep: tree
	@$(S)/check-lockdep.sh $(ARCH_NAME)

# The series and the base on debug kernels (KASAN, kmemleak, lockdep):
# only what the base does not show fails.  Not in make check.
## the series and the base on KASAN/kmemleak/lockdep kernels
check-debug: tree
	@$(S)/check-debug.sh $(ARCH_NAME)

# Build the unpatched base and record its test results in tests/baseline/.
## rebuild the unpatched base and record its results in tests/baseline/
baseline: tree
	@$(S)/baseline.sh $(ARCH_NAME)

## the benchmarks (docs/benchmarks.md)
bench: rootfs
	@$(S)/bench.sh $(ARCH_NAME)

# Scratch tree commits -> patches/NN-name/ (cover letter, patches, series).
## build/linux commits -> patches/
export: deps
	@$(S)/export.sh

# patches/ applied to a fresh base reproduces the scratch tree exactly.
## patches/ on a fresh base reproduces build/linux
verify: deps
	@$(S)/verify.sh

# The series built with clang-16 and kCFI, booted with cfi=kcfi and with
# cfi=fineibt, running the direct-call tests.
## the direct-call tests on a clang kCFI kernel, cfi=kcfi and cfi=fineibt
check-cfi: tree
	@$(S)/check-cfi.sh $(ARCH_NAME)

# The kernel's BPF selftests (test_progs' trampoline tests, x86_64) on the
# series, against the base's results that baseline-bpf records.
## the kernel's BPF selftests (test_progs) on the series
check-bpf: tree
	@$(S)/check-bpf.sh series

## record the base's test_progs results
baseline-bpf: tree
	@$(S)/check-bpf.sh base

# Every prefix of the series builds; checkpatch --strict on every patch.
## every prefix of the series builds; checkpatch --strict
series-check: tree
	@$(S)/series-check.sh $(ARCH_NAME)

# The series (build/linux HEAD) builds for arm64, riscv64, s390x,
# powerpc64le, i386 and x86_64 without SMP and modules (no boot).
## build for arm64, riscv64, s390x, ppc64le, i386 and more (no boot)
build-matrix: tree
	@$(S)/build-matrix.sh

# The harness catches a WARN at boot and after boot, and a broken ftracetest test.
## prove the harness fails when it must
harness-selftest: tree
	@$(S)/harness-selftest.sh $(ARCH_NAME)

## remove build/obj and build/results
clean:
	rm -rf $(B)/obj $(B)/results

## remove build/
distclean:
	rm -rf $(B)
