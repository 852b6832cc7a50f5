#include "textflag.h"

// CHUNK ANDs into Z1 the row of table c for bits 6c..6c+5 of AX: the row
// is at SI + c*4096 + ((AX >> 6c) & 63) * 64.
#define CHUNK(c) \
	MOVQ AX, BX \
	SHRQ $(6*c), BX \
	ANDQ $63, BX \
	SHLQ $6, BX \
	VPANDQ (c*4096)(SI)(BX*1), Z1, Z1

// FIRST loads into Z1 the row of table 0 for bits 0..5 of AX.
#define FIRST \
	MOVQ AX, BX \
	ANDQ $63, BX \
	SHLQ $6, BX \
	VMOVDQU64 (SI)(BX*1), Z1

// func matchWide(tab *wideTable, items []uint64, nt int) uint64
TEXT ·matchWide(SB), NOSPLIT, $0-48
	MOVQ tab+0(FP), SI
	MOVQ items_base+8(FP), DI
	MOVQ items_len+16(FP), CX
	MOVQ nt+32(FP), DX
	VPXORQ Z0, Z0, Z0
	TESTQ CX, CX
	JZ done
	CMPQ DX, $6
	JEQ loop6
	CMPQ DX, $7
	JEQ loop7

loop8:
	MOVQ (DI), AX
	FIRST
	CHUNK(1)
	CHUNK(2)
	CHUNK(3)
	CHUNK(4)
	CHUNK(5)
	CHUNK(6)
	CHUNK(7)
	VPOPCNTQ Z1, Z1
	VPADDQ Z1, Z0, Z0
	ADDQ $8, DI
	DECQ CX
	JNZ loop8
	JMP done

loop7:
	MOVQ (DI), AX
	FIRST
	CHUNK(1)
	CHUNK(2)
	CHUNK(3)
	CHUNK(4)
	CHUNK(5)
	CHUNK(6)
	VPOPCNTQ Z1, Z1
	VPADDQ Z1, Z0, Z0
	ADDQ $8, DI
	DECQ CX
	JNZ loop7
	JMP done

loop6:
	MOVQ (DI), AX
	FIRST
	CHUNK(1)
	CHUNK(2)
	CHUNK(3)
	CHUNK(4)
	CHUNK(5)
	VPOPCNTQ Z1, Z1
	VPADDQ Z1, Z0, Z0
	ADDQ $8, DI
	DECQ CX
	JNZ loop6

done:
	VEXTRACTI64X4 $1, Z0, Y1
	VPADDQ Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDQ X1, X0, X0
	VPSHUFD $0x4e, X0, X1
	VPADDQ X1, X0, X0
	VMOVQ X0, AX
	VZEROUPPER
	MOVQ AX, ret+40(FP)
	RET
