#!/bin/sh
# tracing_multi links (issue 43, work in progress): tests/bpf-multi's
# tmulti attaches fentry.multi and fexit.multi programs to
# bpf_fentry_test1..9 by pattern and by BTF ids with cookies, runs them
# through BPF_PROG_TEST_RUN and checks what each program saw per
# function; then the bad inputs.  Skips where the kernel's libbpf has no
# tracing_multi (scripts/rootfs.sh builds tmulti only then).
command -v tmulti >/dev/null || { echo "SKIP: no tmulti (no tracing_multi in this tree)"; exit 4; }
exec tmulti
