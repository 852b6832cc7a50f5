package main

import (
	"database/sql"
	"fmt"
	"io"
	"os"
	"strings"
)

// sqlite3Main stands in for the sqlite3 shell in the README's examples, so
// that they run as printed on machines without it: "sqlite3 FILE SQL" runs
// the statements of SQL on FILE (read-only) and prints each row of the
// last one in the shell's default list mode, the columns separated by "|",
// NULL as nothing. It returns the exit status.
func sqlite3Main(args []string, stdout, stderr io.Writer) int {
	if len(args) != 2 {
		fmt.Fprintln(stderr, "sqlite3 stand-in: want FILE SQL")
		return 2
	}
	db, err := sql.Open("sqlite", "file:"+args[0]+"?mode=ro")
	if err != nil {
		fmt.Fprintln(stderr, "Error:", err)
		return 1
	}
	defer db.Close()
	rows, err := db.Query(args[1])
	if err != nil {
		fmt.Fprintln(stderr, "Error:", err)
		return 1
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			fmt.Fprintln(stderr, "Error:", err)
			return 1
		}
		fields := make([]string, len(vals))
		for i, v := range vals {
			switch v := v.(type) {
			case nil:
			case []byte:
				fields[i] = string(v)
			default:
				fields[i] = fmt.Sprint(v)
			}
		}
		fmt.Fprintln(stdout, strings.Join(fields, "|"))
	}
	if err := rows.Err(); err != nil {
		fmt.Fprintln(stderr, "Error:", err)
		return 1
	}
	return 0
}

func init() {
	if os.Getenv("NQUEENS_TEST_AS_SQLITE3") == "1" {
		os.Exit(sqlite3Main(os.Args[1:], os.Stdout, os.Stderr))
	}
}
