# ftrace-sdo: a patch series for the Linux 6.12 ftrace core, and the harness
# that builds, boots and tests it.  See README.md.
#
#   make          build the patched kernel, boot it, show what the series does
#   make check    run every test; ends with "N passed, N failed, N skipped"

ARCH_NAME ?= x86_64
S := scripts
B := build
OBJ := $(B)/obj/$(ARCH_NAME)

.PHONY: all demo deps tree build rootfs check harness-unit check-lockdep check-debug check-cfi check-bpf baseline-bpf baseline bench export verify \
	series-check build-matrix harness-selftest clean distclean help

all: demo

help:
	@sed -n 's/^#   //p' Makefile; echo; \
	echo "other targets: deps tree build rootfs harness-unit baseline bench check-lockdep check-debug check-cfi check-bpf baseline-bpf export verify series-check build-matrix harness-selftest clean"

deps:
	@$(S)/deps.sh

tree: deps
	@$(S)/tree.sh

build: tree
	@$(S)/build.sh $(ARCH_NAME)

rootfs: build
	@$(S)/rootfs.sh $(ARCH_NAME)

demo: rootfs
	@$(S)/demo.sh $(ARCH_NAME)

# The harness's own unit tests first (results.py's parser and verdicts,
# on captured console logs), then suite "check" of configs/suites.
check: harness-unit rootfs
	@CHECK_ARCHES="$${CHECK_ARCHES:-$(ARCH_NAME) arm64}" $(S)/check-all.sh

harness-unit:
	@python3 -m unittest discover -q -s tests/harness

# The series' direct-call tests on a lockdep kernel.
check-lockdep: tree
	@$(S)/check-lockdep.sh $(ARCH_NAME)

# The series and the base on debug kernels (KASAN, kmemleak, lockdep):
# only what the base does not show fails.  Not in make check.
check-debug: tree
	@$(S)/check-debug.sh $(ARCH_NAME)

# Build the unpatched base and record its test results in tests/baseline/.
baseline: tree
	@$(S)/baseline.sh $(ARCH_NAME)

bench: rootfs
	@$(S)/bench.sh $(ARCH_NAME)

# Scratch tree commits -> patches/NN-name/ (cover letter, patches, series).
export: deps
	@$(S)/export.sh

# patches/ applied to a fresh base reproduces the scratch tree exactly.
verify: deps
	@$(S)/verify.sh

# The series built with clang-16 and kCFI, booted with cfi=kcfi and with
# cfi=fineibt, running the direct-call tests.
check-cfi: tree
	@$(S)/check-cfi.sh $(ARCH_NAME)

# The kernel's BPF selftests (test_progs' trampoline tests, x86_64) on the
# series, against the base's results that baseline-bpf records.
check-bpf: tree
	@$(S)/check-bpf.sh series

baseline-bpf: tree
	@$(S)/check-bpf.sh base

# Every prefix of the series builds; checkpatch --strict on every patch.
series-check: tree
	@$(S)/series-check.sh $(ARCH_NAME)

# The series (build/linux HEAD) builds for arm64, riscv64, s390x,
# powerpc64le, i386 and x86_64 without SMP and modules (no boot).
build-matrix: tree
	@$(S)/build-matrix.sh

# The harness catches a WARN at boot and after boot, and a broken ftracetest test.
harness-selftest: tree
	@$(S)/harness-selftest.sh $(ARCH_NAME)

clean:
	rm -rf $(B)/obj $(B)/results

distclean:
	rm -rf $(B)
