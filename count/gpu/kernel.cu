// The count kernel of nqueens' GPU engine (package count/gpu), compiled to
// kernel.ptx by clang without the CUDA toolkit (see gpu.go's go:generate
// line); the Go twin of its search is twin.go, which the tests hold it to.
//
// Work comes in tasks: a task is a run of items of at most TASK_CONS
// constellations, the host's order largest first. Each warp holds BUFS
// tasks at a time in shared memory, their constellations' blocks and
// shifts by row among them, and its lanes take items from a counter in
// shared memory, the oldest task's first; a lane whose item ends
// takes the next at once. Every SYNC_TRIPS trips the lanes of a warp meet
// (they trip in step, one trip each a turn): the warp refills each buffer
// whose items are all handed out and that no lane works on any more with
// the next task of a counter in device memory, so that no lane waits for
// the others' items to end; it ends once no task is left and no lane has
// an item. The grid fills the device once (persistent warps).
//
// The search keeps its masks in 32 bits: going down only, bits that leave
// the board never come back, so that the stack keeps, for each row above
// the current one, the candidates left in it (the lowest set bit is the
// queen placed there) and the diagonals the row started with, which undo
// it exactly on any board up to 32. The stack is in shared memory, laid
// out [row][word][thread] so that the lanes of a warp touch consecutive
// words. The search counts in the last-but-one free row: a square there
// that leaves the last row a free square is a solution. (Counting the last
// two rows at once, from the row above, costs a warp more: the model of
// work_test.go.)
//
// At each meeting the warp looks at a stop flag that the host sets
// (Ctrl-C): once it is set, the lanes leave their items uncounted, which
// the host sees as it fills the counts with NOT_COUNTED first, and the
// warp ends.
//
// With NQUEENS_HOST defined the same source compiles as C++ for the host,
// one lane of one warp at a time, so that a test without a GPU runs this
// very code (testdata/host.cc).

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
static unsigned ballot(unsigned p) { return p != 0; }
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
__attribute__((device)) static unsigned ballot(unsigned p) { return __nvvm_vote_ballot_sync(0xffffffffu, p != 0); }
#endif

// The block size the host launches with: the stack has a column per
// thread of a block.
#define BLOCK 128
// The rows of the stack: an item's search goes at most STACK rows below
// its first (count/gpu's split keeps it so).
#define STACK 16
// Words of a constellation's rows, of a task and of an item (count/gpu's
// encode): a constellation's block of free row i+1 at BLOCKS+i and the
// shift from free row i to row i+1 at SHIFTS+i, for i up to 30, and the
// row whose squares are counted, the last-but-one free row, at STOP; a task's first
// item and the one after its last, then for each of its constellations
// c < TASK_CONS its index and the row its items start in (index |
// row << ROW_SHIFT, NONE if the task has fewer) at TASK_CON+2c and its
// first item at TASK_CON+2c+1 (NONE if none); an item's free squares,
// columns, and diagonals going down-left and down-right.
#define CON_WORDS 64
#define BLOCKS 0
#define STOP 31
#define SHIFTS 32
#define TASK_CONS 2
#define TASK_CON 2
#define TASK_WORDS 6
#define ROW_SHIFT 24
#define NONE 0xffffffffu
#define ITEM_WORDS 4
// The task buffers of a warp, and how often, in trips, its lanes meet.
#define BUFS 3
#define SYNC_TRIPS 64
// A lane's buffer when it has no item.
#define IDLE BUFS
// The count of an item not counted (the host's fill).
#define NOT_COUNTED 0xffffffffffffffffull

typedef unsigned long long u64;

// count_items counts the items of the tasks 0..ntasks-1, taken by the
// warps in order from ctl[0], which the host sets to 0 before the launch,
// into counts, one per item; it leaves the items it has not finished
// when *stop becomes non-zero. The host launches BLOCK threads a block.
//
// The tables stay in global memory, read-only (restrict: the loads go
// through the read-only data cache); a warp reads a task's rows once into
// shared memory.
extern "C" GLOBAL void count_items(const unsigned *RESTRICT cons, const unsigned *RESTRICT tasks,
                                   const unsigned *RESTRICT items, u64 *RESTRICT counts, unsigned ntasks,
                                   unsigned *ctl, const unsigned *stop) {
	SHARED unsigned stack[STACK][3][BLOCK];
	SHARED unsigned rows[BLOCK / WARP][BUFS][TASK_CONS][CON_WORDS];
	SHARED unsigned task[BLOCK / WARP][BUFS][TASK_WORDS];
	// For each buffer of a warp: the items handed out and the task's
	// number (ntasks: none); the buffers refilled at the last meeting
	// (bits), and whether the stop flag is set.
	SHARED unsigned taken[BLOCK / WARP][BUFS], number[BLOCK / WARP][BUFS], fresh[BLOCK / WARP], halt[BLOCK / WARP];
	const unsigned t = thread_index() % BLOCK, lane = t % WARP, w = t / WARP;
	unsigned *const base = &stack[0][0][t];
	// The lane's item: its buffer (IDLE: none), its index, and its search:
	// free squares, columns and diagonals of the current row; two pointers
	// that walk down and up the rows, into the constellation's rows (cr,
	// at the current row) and into the stack (sp, at the row below the
	// current one); the last-but-one row; the solutions so far.
	unsigned mine = IDLE, i = 0;
	unsigned free = 0, cols = 0, ld = 0, rd = 0;
	const unsigned *cr = rows[w][0][0], *counted = cr; // in shared memory from the start
	unsigned *sp = base;
	u64 n = 0;
	for (unsigned trips = 0;; trips++) {
		if (trips % SYNC_TRIPS == 0) {
			sync_warp();
			unsigned use = 0; // the buffers a lane works on (bits)
			for (unsigned b = 0; b < BUFS; b++) {
				use |= (ballot(mine == b) != 0) << b;
			}
			const unsigned busy = ballot(mine != IDLE);
			if (lane == 0) {
				const unsigned h = stopped(stop);
				unsigned f = 0;
				for (unsigned b = 0; b < BUFS; b++) {
					const unsigned *tk = task[w][b];
					if (trips == 0 || (!(use >> b & 1) && number[w][b] < ntasks && taken[w][b] >= tk[1] - tk[0])) {
						const unsigned k = h ? ntasks : take(&ctl[0]);
						number[w][b] = k < ntasks ? k : ntasks;
						taken[w][b] = 0;
						if (k < ntasks) {
							for (unsigned j = 0; j < TASK_WORDS; j++) {
								task[w][b][j] = tasks[(u64)k * TASK_WORDS + j];
							}
							f |= 1u << b;
						}
					}
				}
				if (h) {
					for (unsigned b = 0; b < BUFS; b++) {
						number[w][b] = ntasks;
					}
				}
				fresh[w] = f;
				halt[w] = h;
			}
			sync_warp();
			for (unsigned b = 0; b < BUFS; b++) {
				if (fresh[w] >> b & 1) {
					for (unsigned j = lane; j < TASK_CONS * CON_WORDS; j += WARP) {
						const unsigned c = task[w][b][TASK_CON + 2 * (j / CON_WORDS)];
						if (c != NONE) {
							rows[w][b][j / CON_WORDS][j % CON_WORDS] =
							    cons[(u64)(c & ((1u << ROW_SHIFT) - 1)) * CON_WORDS + j % CON_WORDS];
						}
					}
				}
			}
			const unsigned h = halt[w];
			sync_warp();
			if (h) {
				mine = IDLE; // its item is left uncounted
			}
			unsigned left = 0; // tasks held
			for (unsigned b = 0; b < BUFS; b++) {
				left += number[w][b] < ntasks;
			}
			if ((h || busy == 0) && left == 0) {
				return;
			}
		}
		if (mine == IDLE) {
			// Take the next item, of the oldest task first: try the
			// buffers in order of their tasks' numbers.
			unsigned tried = 0;
			for (unsigned k = 0; k < BUFS && mine == IDLE; k++) {
				unsigned b = IDLE;
				for (unsigned x = 0; x < BUFS; x++) {
					if (!(tried >> x & 1) && number[w][x] < ntasks && (b == IDLE || number[w][x] < number[w][b])) {
						b = x;
					}
				}
				if (b == IDLE) {
					break;
				}
				tried |= 1u << b;
				const unsigned j = take(&taken[w][b]);
				if (j < task[w][b][1] - task[w][b][0]) {
					mine = b;
					i = task[w][b][0] + j;
				}
			}
			if (mine == IDLE) {
				continue;
			}
			// Its constellation: the last of the task's that starts at or
			// before it.
			const unsigned *const tk = task[w][mine];
			unsigned c = 0;
			for (unsigned j = 1; j < TASK_CONS; j++) {
				c += i >= tk[TASK_CON + 2 * j + 1];
			}
			const unsigned *const con = rows[w][mine][c];
			const unsigned *it = items + (u64)i * ITEM_WORDS;
			free = it[0];
			cols = it[1];
			ld = it[2];
			rd = it[3];
			cr = con + (tk[TASK_CON + 2 * c] >> ROW_SHIFT);
			counted = con + con[STOP];
			sp = base;
			n = 0;
			continue;
		}
		if (free == 0) {
			if (sp == base) {
				counts[i] = n;
				mine = IDLE;
				continue;
			}
			sp -= 3 * BLOCK;
			cr--;
			const unsigned a = sp[0];
			const unsigned bit = a & -a;
			ld = sp[BLOCK];
			rd = sp[2 * BLOCK];
			cols ^= bit;
			free = a ^ bit;
			continue;
		}
		const unsigned bit = free & -free;
		const unsigned sh = cr[SHIFTS];
		const unsigned c = cols | bit, l = (ld | bit) << sh, d = (rd | bit) >> sh;
		const unsigned nx = ~(c | l | d | cr[BLOCKS]);
		if (cr == counted) {
			n += nx != 0;
			free ^= bit;
			continue;
		}
		if (nx == 0) {
			free ^= bit;
			continue;
		}
		sp[0] = free;
		sp[BLOCK] = ld;
		sp[2 * BLOCK] = rd;
		sp += 3 * BLOCK;
		cr++;
		cols = c;
		ld = l;
		rd = d;
		free = nx;
	}
}
