/* SPDX-License-Identifier: GPL-2.0 */
/* Types shared by the BPF programs and ftsdo-bpf (userspace). */
#ifndef FTSDO_BPF_H
#define FTSDO_BPF_H

#define FTSDO_NFUNCS 8		/* bpf_fentry_test1..8 */

struct ftsdo_rec {
	__u64 hits;		/* calls seen */
	__u64 good;		/* calls whose args/ret matched the expected values */
	__u64 arg[6];		/* arguments of the last call */
	__s64 ret;		/* return value of the last call (fexit) */
};

/* Value the fmod_ret program makes ftsdo_errinj_target() return. */
#define FTSDO_FMR_RETVAL 1234567

#endif
