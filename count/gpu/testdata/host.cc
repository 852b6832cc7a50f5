// A host harness for kernel.cu, which count/gpu's tests build with clang
// (TestKernelOnHost): it runs the kernel's very source on the CPU, one
// thread, over the tables Split.Tables and EncodeItems wrote. It uses only
// the C library, so that clang links it without a C++ library.
//
// Usage: host CONS INDEX WAYS ITEMS > COUNTS (COUNTS: one little-endian uint64 per
// item, as the kernel's output).
#define NQUEENS_HOST
#include "../kernel.cu"

#include <stdio.h>
#include <stdlib.h>

// slurp returns the words of the file at path and their number in *n.
static unsigned *slurp(const char *path, unsigned long *n) {
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned *w = (unsigned *)malloc(size + 4);
	*n = fread(w, 4, size / 4, f);
	fclose(f);
	return w;
}

int main(int argc, char **argv) {
	if (argc != 5) {
		fprintf(stderr, "usage: host CONS INDEX WAYS ITEMS\n");
		return 2;
	}
	unsigned long nc, nx, nw, ni;
	unsigned *cons = slurp(argv[1], &nc), *items = slurp(argv[4], &ni);
	const u64 *index = (const u64 *)slurp(argv[2], &nx);
	const u64 *ways = (const u64 *)slurp(argv[3], &nw);
	unsigned k = ni / ITEM_WORDS;
	u64 *counts = (u64 *)calloc(k + 1, sizeof(u64));
	unsigned next = 0;
	nqueens_tid = 0;
	count_items(cons, index, ways, items, counts, 0, k, &next);
	fwrite(counts, sizeof(u64), k, stdout);
	return 0;
}
