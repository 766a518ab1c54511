/* fuzz.c - the harnesses' shared helpers (fuzz.h). */
#define _DEFAULT_SOURCE /* mkstemps */
#include "fuzz.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *fuzz_file(const uint8_t *data, size_t size, const char *ext)
{
	static char path[64];
	static int fd = -1;
	if (fd < 0) {
		snprintf(path, sizeof path, "/tmp/hetsim-fuzz-XXXXXX%s", ext);
		fd = mkstemps(path, (int)strlen(ext));
		if (fd < 0) {
			perror("fuzz: mkstemps");
			abort();
		}
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size) {
		perror("fuzz: write");
		abort();
	}
	return path;
}

void fuzz_check_error(const char *who, const char *path, const char *err)
{
	size_t n = strlen(path);
	if (strncmp(err, path, n)) {
		/* or a file the input names (a trace a scenario reads), at its own
		 * line: "trace.swf:1:1: ...", the file there to be read */
		const char *c = strchr(err, ':');
		while (c && !isdigit((unsigned char)c[1]))
			c = strchr(c + 1, ':');
		char other[4096];
		if (c && (size_t)(c - err) < sizeof other) {
			memcpy(other, err, (size_t)(c - err));
			other[c - err] = '\0';
			if (access(other, R_OK) == 0) {
				path = other;
				n = strlen(path);
			}
		}
	}
	const char *p = err + n;
	int ok = !strncmp(err, path, n) && *p == ':' && isdigit((unsigned char)p[1]);
	if (ok) {
		for (p++; isdigit((unsigned char)*p); p++)
			;
		ok = *p == ':' && isdigit((unsigned char)p[1]);
	}
	if (ok) {
		for (p++; isdigit((unsigned char)*p); p++)
			;
		ok = p[0] == ':' && p[1] == ' ' && p[2] && !strchr(err, '\n');
		/* and one position, not two ("f:2:1: 4: ...", a re-raised error) */
		const char *m = p + 2, *d = m;
		while (isdigit((unsigned char)*d))
			d++;
		ok = ok && !(d > m && *d == ':');
	}
	if (!ok) {
		fprintf(stderr, "fuzz: %s broke the error contract (one line \"%s:LINE:COL: "
				"message\"):\n%s\n", who, path, err);
		abort();
	}
}
