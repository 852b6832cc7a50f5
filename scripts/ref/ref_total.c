//go:build ignore

/*
 * ref_total: the reference counter that scripts/bench.sh times nqueens
 * against. It counts every solution of the N-Queens puzzle with the plain
 * bitmask backtracking search, on one thread, halving the work by the
 * mirror image of the first row: a first-row queen in the left half counts
 * twice, and for odd n the middle column once. It is what a careful C
 * programmer writes in an afternoon, so that a ratio against it says how
 * much faster the project's counters are than the obvious fast program.
 *
 *   cc -O3 -march=native -o ref_total scripts/ref/ref_total.c
 *   ./ref_total 16      # prints: 16 14772512
 *
 * The build line above keeps the go command from taking this file for cgo;
 * ref_test.go beside it compiles it and checks its counts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* solve counts the ways to finish a board whose next row has the columns
 * cols and the diagonals ld (moving left) and rd (moving right) attacked;
 * all is the mask of the board's n columns. */
static uint64_t solve(uint32_t all, uint32_t cols, uint32_t ld, uint32_t rd) {
	if (cols == all)
		return 1;
	uint64_t count = 0;
	uint32_t free = all & ~(cols | ld | rd);
	while (free) {
		uint32_t bit = free & -free;
		free ^= bit;
		count += solve(all, cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
	}
	return count;
}

/* total counts the solutions of a board of n, 1 <= n <= 31. */
static uint64_t total(int n) {
	uint32_t all = (uint32_t)((1ull << n) - 1);
	uint64_t count = 0;
	for (int c = 0; c < n / 2; c++) {
		uint32_t bit = 1u << c;
		count += 2 * solve(all, bit, bit << 1, bit >> 1);
	}
	if (n % 2 == 1) {
		uint32_t bit = 1u << (n / 2);
		count += solve(all, bit, bit << 1, bit >> 1);
	}
	return count;
}

int main(int argc, char **argv) {
	if (argc != 2) {
		fprintf(stderr, "usage: ref_total N (1 <= N <= 31)\n");
		return 2;
	}
	char *end;
	long n = strtol(argv[1], &end, 10);
	if (*argv[1] == '\0' || *end != '\0' || n < 1 || n > 31) {
		fprintf(stderr, "ref_total: N must be a whole number from 1 to 31, got %s\n", argv[1]);
		return 2;
	}
	printf("%ld %llu\n", n, (unsigned long long)total((int)n));
	return 0;
}
