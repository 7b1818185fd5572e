#!/bin/sh
# An fmod_ret program (libbpf) changes what ftsdo_errinj_target() of the
# harness's test module ftsdo_test (tests/ftsdo-test) returns, and the
# caller sees it; after the detach the original return value is back
# (tests/bpf/README.md).
command -v ftsdo-bpf >/dev/null || { echo "SKIP: no ftsdo-bpf"; exit 4; }
exec ftsdo-bpf fmod-ret
