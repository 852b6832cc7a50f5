// The count kernel of nqueens' GPU engine (package count/gpu), compiled to
// kernel.ptx by clang without the CUDA toolkit (see gpu.go's go:generate
// line); the Go twin of its search is twin.go, which the tests hold it to.
//
// Work comes in tasks: a task is a run of items of one constellation. Each
// warp takes tasks, largest first as the host ordered them, from a counter
// in device memory until none is left (persistent warps: the host sizes
// the grid to fill the device once); it copies the task's constellation,
// its blocks and shifts by row, into shared memory, and its lanes take the
// task's items from a counter in shared memory, each counting one item's
// solutions with a bitmask search, until the task has none left.
//
// The search keeps its masks in 32 bits: going down only, bits that leave
// the board never come back, so that the stack keeps, for each row above
// the current one, the candidates left in it (the lowest set bit is the
// queen placed there) and the diagonals the row started with, which undo
// it exactly on any board up to 32. The stack is in shared memory, laid
// out [row][word][thread] so that the lanes of a warp touch consecutive words.
// A square placed in the row above the last two is counted at once, both
// squares of the last-but-one row tried in a few instructions, with no
// trip of the loop of its own.
//
// A lane checks a stop flag that the host sets (Ctrl-C) before each item
// and every STOP_TRIPS trips; an item it leaves has no count written, so
// that the host, which fills the counts with NOT_COUNTED first, sees it.
//
// With NQUEENS_HOST defined the same source compiles as C++ for the host,
// one thread of one warp at a time, so that a test without a GPU runs
// this very code (testdata/host.cc).

#ifdef NQUEENS_HOST
#define GLOBAL
#define DEVICE
#define SHARED static
#define RESTRICT
#define WARP 1 // one lane
static unsigned nqueens_tid;
static unsigned thread_index(void) { return nqueens_tid; }
static unsigned take(unsigned *counter) { return (*counter)++; }
static void sync_warp(void) {}
static unsigned stopped(const unsigned *stop) { return *(const volatile unsigned *)stop; }
#else
#define GLOBAL __attribute__((global))
#define DEVICE __attribute__((device))
#define SHARED __attribute__((shared))
#define RESTRICT __restrict__
#define WARP 32
__attribute__((device)) static unsigned thread_index(void) { return __nvvm_read_ptx_sreg_tid_x(); }
__attribute__((device)) static unsigned take(unsigned *counter) {
	return __atomic_fetch_add(counter, 1u, __ATOMIC_RELAXED);
}
__attribute__((device)) static void sync_warp(void) { __nvvm_bar_warp_sync(0xffffffffu); }
__attribute__((device)) static unsigned stopped(const unsigned *stop) {
	return *(const volatile unsigned *)stop;
}
#endif

// The block size the host launches with: the stack has a column per
// thread of a block.
#define BLOCK 128
// The rows of the stack: an item's search goes at most STACK rows below
// its first (count/gpu's Split keeps it so).
#define STACK 16
// Words of a constellation's rows, of a task and of an item (count/gpu's
// encode): a constellation's block of free row i+1 at BLOCKS+i and the
// shift from free row i to row i+1 at SHIFTS+i, for i up to 30, and the
// row counted at once, the last-but-one free row, at STOP; a task's
// constellation, the row its items start in, its first item and the one
// after its last; an item's free squares, columns, and diagonals going
// down-left and down-right.
#define CON_WORDS 64
#define BLOCKS 0
#define STOP 31
#define SHIFTS 32
#define TASK_WORDS 4
#define ITEM_WORDS 4
// How often, in trips, a lane looks at the stop flag.
#define STOP_TRIPS 4096
// The count of an item not counted (the host's fill).
#define NOT_COUNTED 0xffffffffffffffffull

typedef unsigned long long u64;

// last counts the squares of the last-but-one free row (free, at most two:
// the columns left) that leave the last row a free square, given the
// columns and diagonals the rows above take and con's rows.
DEVICE static unsigned last(unsigned free, unsigned cols, unsigned ld, unsigned rd, const unsigned *con) {
	const unsigned sh = con[SHIFTS + con[STOP]], block = con[BLOCKS + con[STOP]];
	const unsigned a = free & -free, b = free & (free - 1);
	const unsigned na = ~(cols | a | (ld | a) << sh | (rd | a) >> sh | block);
	const unsigned nb = ~(cols | b | (ld | b) << sh | (rd | b) >> sh | block);
	return (a != 0 && na != 0) + (b != 0 && nb != 0);
}

// count_items counts the items of the tasks 0..ntasks-1, taken by the
// warps in order from ctl[0], which the host sets to 0 before the launch,
// into counts, one per item; it leaves the items it has not finished
// when *stop becomes non-zero. The host launches BLOCK threads a block.
//
// The tables stay in global memory, read-only (restrict: the loads go
// through the read-only data cache); a warp reads its task's rows once
// into shared memory.
extern "C" GLOBAL void count_items(const unsigned *RESTRICT cons, const unsigned *RESTRICT tasks,
                                   const unsigned *RESTRICT items, u64 *RESTRICT counts, unsigned ntasks,
                                   unsigned *ctl, const unsigned *stop) {
	SHARED unsigned stack[STACK][3][BLOCK];
	SHARED unsigned rows[BLOCK / WARP][CON_WORDS];
	SHARED unsigned next[BLOCK / WARP][2];
	const unsigned t = thread_index() % BLOCK, lane = t % WARP, w = t / WARP;
	const unsigned *con = rows[w];
	for (;;) {
		if (lane == 0) {
			next[w][0] = stopped(stop) ? ntasks : take(&ctl[0]);
			next[w][1] = 0;
		}
		sync_warp();
		const unsigned k = next[w][0];
		if (k >= ntasks) {
			return;
		}
		const unsigned *task = tasks + (u64)k * TASK_WORDS;
		const unsigned top = task[1], first = task[2], end = task[3];
		for (unsigned j = lane; j < CON_WORDS; j += WARP) {
			rows[w][j] = cons[(u64)task[0] * CON_WORDS + j];
		}
		sync_warp();
		const unsigned stopRow = con[STOP];
		for (;;) {
			const unsigned i = first + take(&next[w][1]);
			if (i >= end || stopped(stop)) {
				break;
			}
			const unsigned *it = items + (u64)i * ITEM_WORDS;
			unsigned free = it[0], cols = it[1], ld = it[2], rd = it[3];
			unsigned row = top, trips = 0, left = 0;
			u64 n = 0;
			if (row == stopRow) {
				n = last(free, cols, ld, rd, con);
			} else {
				for (;;) {
					if (++trips % STOP_TRIPS == 0 && stopped(stop)) {
						left = 1;
						break;
					}
					if (free == 0) {
						if (row == top) {
							break;
						}
						row--;
						const unsigned a = stack[row - top][0][t];
						const unsigned bit = a & -a;
						ld = stack[row - top][1][t];
						rd = stack[row - top][2][t];
						cols ^= bit;
						free = a ^ bit;
						continue;
					}
					const unsigned bit = free & -free;
					const unsigned sh = con[SHIFTS + row];
					const unsigned c = cols | bit, l = (ld | bit) << sh, d = (rd | bit) >> sh;
					const unsigned nx = ~(c | l | d | con[BLOCKS + row]);
					if (row + 1 == stopRow) {
						n += last(nx, c, l, d, con);
						free ^= bit;
						continue;
					}
					if (nx == 0) {
						free ^= bit;
						continue;
					}
					stack[row - top][0][t] = free;
					stack[row - top][1][t] = ld;
					stack[row - top][2][t] = rd;
					cols = c;
					ld = l;
					rd = d;
					free = nx;
					row++;
				}
				if (left) {
					continue; // not counted
				}
			}
			counts[i] = n;
		}
		sync_warp();
	}
}
