#!/bin/sh
# An fmod_ret program (libbpf) changes what fdbt_errinj_target() of
# ftrace_direct_batch_test returns, and the caller sees it; after the
# detach the original return value is back (tests/bpf/README.md).
command -v ftsdo-bpf >/dev/null || { echo "SKIP: no ftsdo-bpf"; exit 4; }
exec ftsdo-bpf fmod-ret
