// A host harness for kernel.cu, which count/gpu's tests build with clang
// (TestKernelOnHost): it runs the kernel's very source on the CPU, one
// lane of one warp, over the constellations, tasks and items that
// encodeCons, encodeTasks and encodeItems wrote. It uses only the C
// library, so that clang links it without a C++ library.
//
// Usage: host CONS TASKS ITEMS [stop] > COUNTS (COUNTS: one little-endian
// uint64 per item, as the kernel's output; with stop, the stop flag is
// raised before the launch).
#define NQUEENS_HOST
#include "../kernel.cu"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	if (argc != 4 && !(argc == 5 && strcmp(argv[4], "stop") == 0)) {
		fprintf(stderr, "usage: host CONS TASKS ITEMS [stop]\n");
		return 2;
	}
	unsigned long nc, nt, ni;
	unsigned *cons = slurp(argv[1], &nc), *tasks = slurp(argv[2], &nt), *items = slurp(argv[3], &ni);
	unsigned long k = ni / ITEM_WORDS;
	u64 *counts = (u64 *)malloc((k + 1) * sizeof(u64));
	for (unsigned long i = 0; i < k; i++) {
		counts[i] = NOT_COUNTED;
	}
	unsigned ctl[1] = {0}, stop = argc == 5;
	nqueens_tid = 0;
	count_items(cons, tasks, items, counts, nt / TASK_WORDS, ctl, &stop);
	fwrite(counts, sizeof(u64), k, stdout);
	return 0;
}
