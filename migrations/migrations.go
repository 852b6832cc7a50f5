// Package migrations holds the SQL schema of the nqueens catalog as
// numbered goose migrations (NNNNN_name.sql), embedded in the binary and
// applied in order by the store when it opens a catalog.
package migrations

import "embed"

// FS holds the migration files, named NNNNN_name.sql, at its root.
//
//go:embed *.sql
var FS embed.FS
