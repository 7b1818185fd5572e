#!/bin/sh
# Attach, detach and re-attach fentry and fexit programs on
# bpf_fentry_test1..8, with exact counts in every cycle; at the end no
# bpf_fentry_test function is left in enabled_functions
# (tests/bpf/README.md).
command -v ftsdo-bpf >/dev/null || { echo "SKIP: no ftsdo-bpf"; exit 4; }
exec ftsdo-bpf cycles 5
