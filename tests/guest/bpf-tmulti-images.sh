#!/bin/sh
# Which image a tracing_multi function calls: a shared one while it has
# only multi programs (none sleepable), its own with a single program
# beside them, with a sleepable one, without metadata (the md-off boot)
# or with the debugfs switch bpf_tracing_multi_own_images on (tmulti's
# "own"); each program sees every call either way.  tmulti basic, mix
# and others, then the same with the switch on.  About 60 s under TCG.
command -v tmulti >/dev/null || { echo "SKIP: no tmulti (no tracing_multi in this tree)"; exit 4; }
D=/sys/kernel/debug
[ -d $D/tracing ] || mount -t debugfs none $D 2>/dev/null
if [ -e $D/bpf_tracing_multi_own_images ]; then
	exec tmulti basic mix others own basic mix others
fi
echo "no bpf_tracing_multi_own_images (CONFIG_BPF_TRACING_MULTI_PEER): shared only"
exec tmulti basic mix others
