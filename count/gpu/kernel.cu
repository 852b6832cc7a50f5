// The count kernel of nqueens' GPU engine (package count/gpu), compiled to
// kernel.ptx by clang without the CUDA toolkit (see gpu.go's go:generate
// line); the Go twin of its search is twin.go, which the tests hold it to.
//
// Each thread takes work items from an atomic counter until none is left
// (persistent threads: the grid is sized to fill the device once) and
// counts each item's solutions with a bitmask search. The search keeps,
// for each free row above the current one, only the set of candidates
// left in it, in shared memory laid out [row][thread] so that the threads
// of a warp touch consecutive words; the lowest set bit of a stored set is
// the queen placed in that row, and going back up a row undoes it by
// shifting the diagonals back, which keeps them in 64 bits so that no bit
// is lost past n = 16.
//
// With NQUEENS_HOST defined the same source compiles as C++ for the host,
// one thread at a time, so that a test without a GPU runs this very code
// (testdata/host.cc).

#ifdef NQUEENS_HOST
#define GLOBAL
#define SHARED static
static unsigned nqueens_tid;
static unsigned thread_index(void) { return nqueens_tid; }
static unsigned next_item(unsigned *next) { return (*next)++; }
#else
#define GLOBAL __attribute__((global))
#define SHARED __attribute__((shared))
__attribute__((device)) static unsigned thread_index(void) { return __nvvm_read_ptx_sreg_tid_x(); }
__attribute__((device)) static unsigned next_item(unsigned *next) {
	return __atomic_fetch_add(next, 1u, __ATOMIC_RELAXED);
}
#endif

// The block size the host launches with: the stack has a column per
// thread of a block.
#define BLOCK 128
// The most free rows a constellation's search holds on its stack.
#define ROWS 32
// Words of a constellation's rows and of an item (count/gpu/items.go):
// the rows: free row count, then block[i] at 1+i and shift[i] at 33+i;
// an item: con, row, free, cols, ld low and high, rd low and high.
#define CON_WORDS 64
#define ITEM_WORDS 8
// Where column 0 of the down-right diagonals sits in rd.
#define RD_OFFSET 32

typedef unsigned long long u64;

// count_items counts the solutions of the items first+k, for k from 0 up
// as next hands them out, below end, into counts[first+k]. The host sets
// *next to 0 before the launch and launches BLOCK threads a block.
extern "C" GLOBAL void count_items(const unsigned *cons, const unsigned *items, u64 *counts,
                                   unsigned first, unsigned end, unsigned *next) {
	SHARED unsigned stack[ROWS][BLOCK];
	const unsigned t = thread_index() % BLOCK;
	for (;;) {
		const unsigned i = first + next_item(next);
		if (i >= end) {
			return;
		}
		const unsigned *it = items + (u64)i * ITEM_WORDS;
		const unsigned *con = cons + (u64)it[0] * CON_WORDS;
		const unsigned last = con[0] - 2; // the second-to-last free row
		unsigned row = it[1];
		const unsigned top = row;
		unsigned free = it[2], cols = it[3];
		u64 ld = (u64)it[4] | (u64)it[5] << 32;
		u64 rd = (u64)it[6] | (u64)it[7] << 32;
		u64 n = 0;
		for (;;) {
			if (free == 0) {
				if (row == top) {
					break;
				}
				row--;
				const unsigned a = stack[row % ROWS][t];
				const unsigned bit = a & -a;
				const unsigned sh = con[33 + row % ROWS] & 63;
				cols ^= bit;
				ld = (ld >> sh) ^ bit;
				rd = (rd << sh) ^ ((u64)bit << RD_OFFSET);
				free = a & (a - 1);
				continue;
			}
			const unsigned bit = free & -free;
			const unsigned sh = con[33 + row % ROWS] & 63;
			const u64 l = (ld | bit) << sh;
			const u64 d = (rd | (u64)bit << RD_OFFSET) >> sh;
			const unsigned nx = ~(cols | bit | (unsigned)l | (unsigned)(d >> RD_OFFSET) | con[1 + row % ROWS]);
			if (row == last || nx == 0) {
				n += nx != 0; // in the last row, a free square is a solution
				free &= free - 1;
				continue;
			}
			stack[row % ROWS][t] = free;
			cols |= bit;
			ld = l;
			rd = d;
			row++;
			free = nx;
		}
		counts[i] = n;
	}
}
