/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trampolines of ftsdo_test.c, defined in its asm: ftsdo_tramp_a and
 * ftsdo_tramp_b count the calls of the functions they are attached to
 * (through ftsdo_hit_a() and ftsdo_hit_b()), ftsdo_tramp_ret only returns.
 */
#ifndef FTSDO_TEST_H
#define FTSDO_TEST_H

void ftsdo_tramp_a(void);
void ftsdo_tramp_b(void);
void ftsdo_tramp_ret(void);

#endif /* FTSDO_TEST_H */
