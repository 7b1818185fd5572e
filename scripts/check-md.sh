#!/bin/bash
# make check-md: suite "md" of configs/suites on the test kernel: every
# ftracetest test that registers ftrace_ops or calls through them (@hash)
# with the function metadata on its hash (ftrace_md=hash), in two shards,
# judged against the base like make check.  make check runs the metadata
# tests and the boot-time tracer selftests on the hash; this is the rest
# of ftracetest there, ~2,000 guest-seconds.
set -eu
. "$(dirname "$0")/lib.sh"
exec "$TOP/scripts/suite.sh" md "${1:-x86_64}"
