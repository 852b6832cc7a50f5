package dbfile

import (
	"database/sql/driver"
	"fmt"

	"modernc.org/sqlite"

	"github.com/nqueens/nqueens/store/internal/indexblock"
)

// The migration that seals index blocks (version 6) computes each block's
// checksum in SQL: nqueens_block_checksum(n, block, first_entry, entries,
// classes_before, solutions_before, first_prefix, data) is indexblock.Sum
// of the row.
func init() {
	sqlite.MustRegisterDeterministicScalarFunction("nqueens_block_checksum", 8, blockChecksum)
}

func blockChecksum(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	var nums [6]int64
	for i := range nums {
		v, ok := args[i].(int64)
		if !ok {
			return nil, fmt.Errorf("nqueens_block_checksum: argument %d is %T, not an integer", i+1, args[i])
		}
		nums[i] = v
	}
	var key string
	switch v := args[6].(type) {
	case string:
		key = v
	case []byte:
		key = string(v)
	default:
		return nil, fmt.Errorf("nqueens_block_checksum: first_prefix is %T, not text", args[6])
	}
	data, ok := args[7].([]byte)
	if !ok && args[7] != nil {
		if s, isText := args[7].(string); isText {
			data = []byte(s)
		} else {
			return nil, fmt.Errorf("nqueens_block_checksum: data is %T, not a blob", args[7])
		}
	}
	h := indexblock.Header{N: int(nums[0]), Block: nums[1], FirstEntry: nums[2], Entries: nums[3],
		ClassesBefore: nums[4], SolutionsBefore: nums[5], FirstPrefix: key}
	return indexblock.Sum(h, data), nil
}
