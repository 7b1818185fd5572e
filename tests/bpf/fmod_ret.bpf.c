// SPDX-License-Identifier: GPL-2.0
/*
 * fmod_ret on ftsdo_errinj_target(int x) of the harness's test module
 * ftsdo_test (tests/ftsdo-test; returns x + 1,
 * ALLOW_ERROR_INJECTION(..., ERRNO)).  libbpf finds the target in the
 * module's BTF (/sys/kernel/btf/ftsdo_test) when it is not in vmlinux BTF.
 *
 * fmr_errinj makes the function return fmr_retval (the original body is
 * skipped because the value is non-zero); fexit_errinj sees the value the
 * caller gets.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "ftsdo_bpf.h"

char _license[] SEC("license") = "GPL";

int fmr_retval = FTSDO_FMR_RETVAL;
__u64 fmr_hits = 0;
int fmr_last_x = 0;
int fmr_last_in = 0;	/* ret argument seen by fmod_ret (0: no earlier prog) */
__u64 fexit_hits = 0;
int fexit_last_x = 0;
int fexit_last_ret = 0;

SEC("fmod_ret/ftsdo_errinj_target")
int BPF_PROG(fmr_errinj, int x, int ret)
{
	__sync_fetch_and_add(&fmr_hits, 1);
	fmr_last_x = x;
	fmr_last_in = ret;
	return fmr_retval;
}

SEC("fexit/ftsdo_errinj_target")
int BPF_PROG(fexit_errinj, int x, int ret)
{
	__sync_fetch_and_add(&fexit_hits, 1);
	fexit_last_x = x;
	fexit_last_ret = ret;
	return 0;
}
