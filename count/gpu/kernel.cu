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
// is lost past n = 16. The search counts in the second-to-last free row;
// or, when the host hands it tail tables (count/gpu's tail.go,
// Engine.Tails), it stops at the leaf row, above the last four free rows,
// and looks those up: the ways of the four columns left, with a
// look-ahead on the first of the rows, whose diagonals miss the queens'
// above.
//
// With NQUEENS_HOST defined the same source compiles as C++ for the host,
// one thread at a time, so that a test without a GPU runs this very code
// (testdata/host.cc).

#ifdef NQUEENS_HOST
#define GLOBAL
#define DEVICE
#define SHARED static
static unsigned nqueens_tid;
static unsigned thread_index(void) { return nqueens_tid; }
static unsigned next_item(unsigned *next) { return (*next)++; }
#else
#define GLOBAL __attribute__((global))
#define DEVICE __attribute__((device))
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
// Words of a constellation's rows and of an item (count/gpu: Tables,
// EncodeItems). The rows: free row count, stop row, the columns the border
// queens leave free, the offsets of the tail table in index and ways, 1 if
// it has one, the border queens' diagonals as the table holds them (low
// and high word); then the block of free row i+1 at BLOCKS+i and the shift
// from row i to row i+1 at SHIFTS+i. An item: con, row, free, cols, ld low
// and high, rd low and high.
#define CON_WORDS 72
#define BLOCKS 8
#define SHIFTS 40
#define ITEM_WORDS 8
// Where column 0 of the down-right diagonals sits in rd.
#define RD_OFFSET 32
// How far a tail table shifts the down-left diagonals up (count/gpu's
// tailLD).
#define TAIL_LD 5

typedef unsigned long long u64;

#ifdef NQUEENS_HOST
#define RESTRICT
#else
#define RESTRICT __restrict__
#endif

// rank4 returns the rank of a set of four of the columns 1..31 among all
// such sets, colexicographic: C(z, 4) + C(y, 3) + C(x, 2) + w for the
// columns w+1 < x+1 < y+1 < z+1 (count/gpu's rank4).
DEVICE static unsigned rank4(unsigned set) {
	set >>= 1;
	const unsigned w = __builtin_ctz(set);
	set &= set - 1;
	const unsigned x = __builtin_ctz(set);
	set &= set - 1;
	const unsigned y = __builtin_ctz(set);
	set &= set - 1;
	const unsigned z = __builtin_ctz(set);
	return w + x * (x - 1) / 2 + y * (y - 1) * (y - 2) / 6 + z * (z - 1) * (z - 2) * (z - 3) / 24;
}

// count_items counts the solutions of the items first+k, for k from 0 up
// as next hands them out, below end, into counts[first+k]. The host sets
// *next to 0 before the launch and launches BLOCK threads a block.
//
// The tables stay in global memory, read-only (restrict: the loads go
// through the read-only data cache). The tail tables of a board are a few
// MB (3.2 MB for n = 20), past constant memory (64 KB, and fast only
// when a warp reads one address) and shared memory (about 228 KB an SM,
// which the stack shares); they are shared by all constellations, so
// they stay in L2, and a table's index (24 KB for n = 20) in L1. A
// constellation's rows are read at every node, from L1: the threads of a
// block search items of different constellations.
extern "C" GLOBAL void count_items(const unsigned *RESTRICT cons, const u64 *RESTRICT index,
                                   const u64 *RESTRICT ways, const unsigned *RESTRICT items,
                                   u64 *RESTRICT counts, unsigned first, unsigned end, unsigned *next) {
	SHARED unsigned stack[ROWS][BLOCK];
	const unsigned t = thread_index() % BLOCK;
	for (;;) {
		const unsigned i = first + next_item(next);
		if (i >= end) {
			return;
		}
		const unsigned *it = items + (u64)i * ITEM_WORDS;
		const unsigned *con = cons + (u64)it[0] * CON_WORDS;
		// The row whose squares are counted: the leaf row, whose squares
		// look the four rows below up in the tail table, or, on a board
		// too small for one, the second-to-last free row, whose squares
		// count if they leave the last row a free square.
		const unsigned stop = con[1], inner = con[2], tail = con[5];
		const u64 border = (u64)con[6] | (u64)con[7] << 32;
		const u64 *tindex = index + con[3];
		const u64 *tways = ways + con[4];
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
				const unsigned sh = con[SHIFTS + row % ROWS] & 63;
				cols ^= bit;
				ld = (ld >> sh) ^ bit;
				rd = (rd << sh) ^ ((u64)bit << RD_OFFSET);
				free = a & (a - 1);
				continue;
			}
			const unsigned bit = free & -free;
			const unsigned sh = con[SHIFTS + row % ROWS] & 63;
			const u64 l = (ld | bit) << sh;
			const u64 d = (rd | (u64)bit << RD_OFFSET) >> sh;
			if (row == stop) {
				free &= free - 1;
				if (tail) {
					// The ways of the four columns left whose diagonals
					// miss those of the queens above and of the border
					// queens (border), of those whose first queen stands
					// on a free square of the first row (look-ahead): from
					// the lowest such column's ways to the highest's.
					const unsigned set = inner & ~(cols | bit);
					const unsigned f0 = set & ~((unsigned)l | (unsigned)(d >> RD_OFFSET) | con[BLOCKS + row % ROWS]);
					if (f0 == 0) {
						continue;
					}
					const u64 e = tindex[rank4(set)];
					const unsigned c = (unsigned)(e >> 32);
					const unsigned lo = __builtin_popcount(set & ((f0 & -f0) - 1));
					const unsigned hi = __builtin_popcount(set & ((1u << (31 - __builtin_clz(f0))) - 1));
					const unsigned start = ((c << 8) >> (8 * lo)) & 0xff, end = (c >> (8 * hi)) & 0xff;
					const u64 q = (u64)((unsigned)l << TAIL_LD) | (d & ~(u64)0xffffffffu) | border;
					const u64 *w = tways + (unsigned)e;
					for (unsigned k = start; k < end; k++) {
						n += (w[k] & q) == 0;
					}
				} else {
					// In the second-to-last row, a square that leaves the
					// last row a free square is a solution.
					n += ~(cols | bit | (unsigned)l | (unsigned)(d >> RD_OFFSET) | con[BLOCKS + row % ROWS]) != 0;
				}
				continue;
			}
			const unsigned nx = ~(cols | bit | (unsigned)l | (unsigned)(d >> RD_OFFSET) | con[BLOCKS + row % ROWS]);
			if (nx == 0) {
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
