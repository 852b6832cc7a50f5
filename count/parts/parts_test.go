package parts_test

import (
	"errors"
	"testing"

	"github.com/nqueens/nqueens/count/parts"
)

// TestReadRefusesImpossibleShards reads parts whose n or shard numbers no
// split can have: each is refused as out of range before Combine would
// list its missing shards.
func TestReadRefusesImpossibleShards(t *testing.T) {
	for _, shards := range []string{"0", "1000001", "9223372036854775807"} {
		data := `{"n":12,"shards":` + shards + `,"shard":0,"units_total":730,"units":1,"units_digest":"sha256:x","total":1,"seconds":0,"search_seconds":0}`
		if _, err := parts.Read([]byte(data)); !errors.Is(err, parts.ErrOutOfRange) {
			t.Errorf("shards %s: Read error %v, want ErrOutOfRange", shards, err)
		}
	}
}
