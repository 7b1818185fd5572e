#!/bin/sh
# fentry and fexit programs (libbpf) on bpf_fentry_test1..8, run through
# BPF_PROG_TEST_RUN: every program sees the exact arguments and, for fexit,
# the return values, with exact hit counts (tests/bpf/README.md).
command -v ftsdo-bpf >/dev/null || { echo "SKIP: no ftsdo-bpf"; exit 4; }
exec ftsdo-bpf fentry-fexit
