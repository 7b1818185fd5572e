// SPDX-License-Identifier: GPL-2.0
/*
 * failnth: do one file operation with the N-th fault injection point of
 * this task failing (/proc/self/fail-nth, Documentation/fault-injection),
 * and tell whether the fault was injected.  The operation runs in this
 * very task, with nothing else allocating between the arming and the
 * check: the output buffer is allocated first, the counter's file opened
 * first, the result printed last.
 *
 *   failnth N read FILE [CHUNK]   open FILE, read it to the end in CHUNK
 *                                 byte reads (default 4096); its bytes
 *                                 go to stdout
 *   failnth N write FILE TEXT     open FILE for writing, write TEXT once
 *   failnth N modload FILE [ARGS] load the module FILE (finit_module()),
 *                                 with its parameters ARGS; FILE is
 *                                 opened before the arming
 *
 * Prints on stderr one line: "failnth: injected=0|1 rc=0|-1 errno=E",
 * E being the errno of the failed call, or 0.  Exit status: 0 when the
 * operation succeeded, 1 when it failed, 2 on a usage or setup error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_OUT (16 << 20)

int main(int argc, char **argv)
{
	int nth_fd, fd, err = 0, injected;
	char num[32], *out;
	size_t len = 0, chunk = 4096;
	ssize_t n;
	long nth;

	if (argc < 4 || (strcmp(argv[2], "read") && strcmp(argv[2], "write") &&
			 strcmp(argv[2], "modload")) ||
	    (!strcmp(argv[2], "write") && argc != 5) || argc > 5) {
		fprintf(stderr, "usage: failnth N read FILE [CHUNK] | failnth N write FILE TEXT | failnth N modload FILE [ARGS]\n");
		return 2;
	}
	nth = strtol(argv[1], NULL, 10);
	if (!strcmp(argv[2], "read") && argc > 4)
		chunk = strtoul(argv[4], NULL, 10);
	out = malloc(MAX_OUT);
	nth_fd = open("/proc/self/fail-nth", O_RDWR);
	if (!out || nth_fd < 0 || nth < 1 || !chunk || chunk > MAX_OUT) {
		perror("failnth: setup");
		return 2;
	}
	memset(out, 0, MAX_OUT);	/* fault the pages in before arming */
	fd = -1;
	if (!strcmp(argv[2], "modload")) {
		fd = open(argv[3], O_RDONLY);
		if (fd < 0) {
			perror("failnth: the module");
			return 2;
		}
	}
	snprintf(num, sizeof(num), "%ld", nth);
	if (write(nth_fd, num, strlen(num)) < 0) {
		perror("failnth: /proc/self/fail-nth");
		return 2;
	}

	if (fd >= 0) {
		if (syscall(SYS_finit_module, fd, argc > 4 ? argv[4] : "", 0))
			err = errno;
		close(fd);
	} else if (!strcmp(argv[2], "read")) {
		fd = open(argv[3], O_RDONLY);
		if (fd < 0) {
			err = errno;
		} else {
			while (len + chunk <= MAX_OUT) {
				n = read(fd, out + len, chunk);
				if (n < 0)
					err = errno;
				if (n <= 0)
					break;
				len += n;
			}
			close(fd);
		}
	} else {
		fd = open(argv[3], O_WRONLY);
		if (fd < 0) {
			err = errno;
		} else {
			if (write(fd, argv[4], strlen(argv[4])) < 0)
				err = errno;
			if (close(fd) < 0 && !err)
				err = errno;
		}
	}

	/* 0: the fault was injected; N > 0: it was not (yet) */
	n = pread(nth_fd, num, sizeof(num) - 1, 0);
	num[n > 0 ? n : 0] = '\0';
	injected = n > 0 && strtol(num, NULL, 10) == 0;
	/* Disarm before printing */
	if (!injected && write(nth_fd, "0", 1) < 0)
		return 2;
	if (len && fwrite(out, 1, len, stdout) != len)
		return 2;
	fflush(stdout);
	fprintf(stderr, "failnth: injected=%d rc=%d errno=%d\n", injected,
		err ? -1 : 0, err);
	return err ? 1 : 0;
}
