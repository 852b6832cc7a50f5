package dbfile

import (
	"database/sql/driver"
	"fmt"

	"modernc.org/sqlite"

	"github.com/nqueens/nqueens/store/internal/indexblock"
)

// The migration that seals an index (version 6) computes the checksums of
// its rows in SQL: nqueens_block_checksum(n, block, first_entry, entries,
// classes_before, solutions_before, orbit4_before, orbit2_before,
// orbit1_before, first_prefix, data) is indexblock.Sum of a block's row, nqueens_symmetric_checksum(n, class, placement, orbit)
// indexblock.SymmetricSum of a symmetric class's.
func init() {
	sqlite.MustRegisterDeterministicScalarFunction("nqueens_block_checksum", 11, blockChecksum)
	sqlite.MustRegisterDeterministicScalarFunction("nqueens_symmetric_checksum", 4, symmetricChecksum)
}

// symmetricChecksum is nqueens_symmetric_checksum(n, class, placement,
// orbit): indexblock.SymmetricSum of a row of index_symmetric.
func symmetricChecksum(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	n, ok1 := args[0].(int64)
	class, ok2 := args[1].(int64)
	orbit, ok3 := args[3].(int64)
	if !ok1 || !ok2 || !ok3 {
		return nil, fmt.Errorf("nqueens_symmetric_checksum: n, class and orbit must be integers, got %T, %T, %T", args[0], args[1], args[3])
	}
	var placement string
	switch v := args[2].(type) {
	case string:
		placement = v
	case []byte:
		placement = string(v)
	default:
		return nil, fmt.Errorf("nqueens_symmetric_checksum: placement is %T, not text", args[2])
	}
	return indexblock.SymmetricSum(int(n), class, placement, orbit), nil
}

func blockChecksum(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	var nums [9]int64
	for i := range nums {
		v, ok := args[i].(int64)
		if !ok {
			return nil, fmt.Errorf("nqueens_block_checksum: argument %d is %T, not an integer", i+1, args[i])
		}
		nums[i] = v
	}
	var key string
	switch v := args[9].(type) {
	case string:
		key = v
	case []byte:
		key = string(v)
	default:
		return nil, fmt.Errorf("nqueens_block_checksum: first_prefix is %T, not text", args[9])
	}
	data, ok := args[10].([]byte)
	if !ok && args[10] != nil {
		if s, isText := args[10].(string); isText {
			data = []byte(s)
		} else {
			return nil, fmt.Errorf("nqueens_block_checksum: data is %T, not a blob", args[10])
		}
	}
	h := indexblock.Header{N: int(nums[0]), Block: nums[1], FirstEntry: nums[2], Entries: nums[3],
		ClassesBefore: nums[4], SolutionsBefore: nums[5], Orbit4Before: nums[6], Orbit2Before: nums[7], Orbit1Before: nums[8], FirstPrefix: key}
	return indexblock.Sum(h, data), nil
}
