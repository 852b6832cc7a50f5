package config

import (
	"fmt"
	"maps"
	"slices"
	"testing"
)

func Example_parseYAML() {
	values, err := parseYAML("yaml", []byte("db: catalog.db\nworkers: 4\n"), nil)
	fmt.Println(values, err)
	_, err = parseYAML("yaml", []byte("worker: 4\n"), nil)
	fmt.Println(err)
	_, err = parseYAML("yaml", []byte("workers: 2.5\n"), nil)
	fmt.Println(err)
	// Output:
	// map[db:catalog.db workers:4] <nil>
	// yaml: unknown key "worker" (did you mean "workers"?)
	// yaml: workers: 2.5: want a whole number from 0 to 1024
}

func TestParseYAML(t *testing.T) {
	tests := []struct {
		yaml string
		want map[string]any
		err  string
	}{
		{"", map[string]any{}, ""},
		{"# only a comment\n", map[string]any{}, ""},
		{"---\n", map[string]any{}, ""},
		{"db: a.db\nworkers: 0\nmax_rows_n: 32\nquiet: false\n", map[string]any{"db": "a.db", "workers": 0, "max_rows_n": 32, "quiet": false}, ""},
		{"workers: 0x10\n", nil, "c.yaml: workers: 0x10: want a whole number from 0 to 1024"},
		{"workers: 010\n", nil, "c.yaml: workers: 010: want a whole number from 0 to 1024: leading zeros are refused"},
		{"workers: 0o10\n", nil, "c.yaml: workers: 0o10: want a whole number from 0 to 1024"},
		{"workers: 1_000\n", nil, "c.yaml: workers: 1_000: want a whole number from 0 to 1024"},
		{"workers: +5\n", nil, "c.yaml: workers: +5: want a whole number from 0 to 1024"},
		{"workers: 08\n", nil, "c.yaml: workers: 08: want a whole number from 0 to 1024: leading zeros are refused"},
		{"workers: 10\n", map[string]any{"workers": 10}, ""},
		{"base: &w 3\nworkers: *w\n", nil, `c.yaml: unknown key "base": want db, workers, max_rows_n or quiet`},
		{"quiet: True\n", map[string]any{"quiet": true}, ""},
		{"workers: 1025\n", nil, "c.yaml: workers: 1025: want a whole number from 0 to 1024"},
		{"max_rows_n: 0\n", nil, "c.yaml: max_rows_n: 0: want a whole number from 1 to 32"},
		{"max_build_n: 0\n", nil, "c.yaml: max_build_n: 0: want a whole number from 1 to 32"},
		{"max_build_n: 9\n", map[string]any{"max_rows_n": 9}, ""},
		{"max_build_n: 9\nmax_rows_n: 8\n", nil, `c.yaml: key "max_rows_n" given twice (as max_build_n on line 1 and max_rows_n on line 2)`},
		{"workers: 1e3\n", nil, "c.yaml: workers: 1e3: want a whole number from 0 to 1024"},
		{"workers: ~\n", nil, "c.yaml: workers: ~: want a whole number from 0 to 1024"},
		{"workers: {a: 1}\n", nil, "c.yaml: workers: a mapping: want a whole number from 0 to 1024"},
		{"quiet: 1\n", nil, "c.yaml: quiet: 1: want true or false"},
		{"quiet: on\n", nil, `c.yaml: quiet: "on": want true or false`},
		{"db: \"\"\n", nil, `c.yaml: db: "": want a file name (a string of 1 to 4096 bytes, no NUL)`},
		{"db: \"a\\0b\"\n", nil, `c.yaml: db: "a\x00b": want a file name (a string of 1 to 4096 bytes, no NUL)`},
		{"db: true\n", nil, "c.yaml: db: true: want a file name (a string of 1 to 4096 bytes, no NUL)"},
		{"[1, 2]\n", nil, "c.yaml: want a mapping of keys (db, workers, max_rows_n, quiet), got a list"},
		{"just text\n", nil, `c.yaml: want a mapping of keys (db, workers, max_rows_n, quiet), got "just text"`},
		{"? [a]\n: 1\n", nil, "c.yaml: line 1: want a key (db, workers, max_rows_n, quiet), got a list"},
		{"a: 1\n---\nb: 2\n---\n", nil, "c.yaml: holds 3 YAML documents; want one"},
		{"db: x\ndb: y\n", nil, `c.yaml: key "db" given twice (lines 1 and 2)`},
		{"max-rows-n: 9\n", nil, `c.yaml: unknown key "max-rows-n" (did you mean "max_rows_n"?)`},
		{"QUIET: true\n", nil, `c.yaml: unknown key "QUIET" (did you mean "quiet"?)`},
		{"d: x\n", nil, `c.yaml: unknown key "d": want db, workers, max_rows_n or quiet`},
		{"workers: [1\n", nil, "c.yaml: not valid YAML: line 1: did not find expected ',' or ']'"},
	}
	for _, tt := range tests {
		got, err := parseYAML("c.yaml", []byte(tt.yaml), nil)
		switch {
		case tt.err != "" && (err == nil || err.Error() != tt.err):
			t.Errorf("ParseYAML(%q) error = %v, want %s", tt.yaml, err, tt.err)
		case tt.err == "" && (err != nil || !maps.Equal(got, tt.want)):
			t.Errorf("ParseYAML(%q) = %v, %v; want %v", tt.yaml, got, err, tt.want)
		}
	}
}

func TestCheckEnv(t *testing.T) {
	tests := []struct {
		env map[string]string
		err string
	}{
		{map[string]string{}, ""},
		{map[string]string{"NQUEENS_WORKERS": "", "NQUEENS_DB": ""}, ""}, // empty is unset
		{map[string]string{"NQUEENS_WORKERS": "1024", "NQUEENS_MAX_ROWS_N": "1", "NQUEENS_QUIET": "F", "NQUEENS_DB": "x"}, ""},
		{map[string]string{"NQUEENS_WORKERS": "+4"}, `NQUEENS_WORKERS="+4": want a whole number from 0 to 1024`},
		{map[string]string{"NQUEENS_WORKERS": " 4"}, `NQUEENS_WORKERS=" 4": want a whole number from 0 to 1024`},
		{map[string]string{"NQUEENS_WORKERS": "0x10"}, `NQUEENS_WORKERS="0x10": want a whole number from 0 to 1024`},
		{map[string]string{"NQUEENS_MAX_ROWS_N": "33"}, `NQUEENS_MAX_ROWS_N="33": want a whole number from 1 to 32`},
		{map[string]string{"NQUEENS_MAX_BUILD_N": "33"}, `NQUEENS_MAX_BUILD_N="33": want a whole number from 1 to 32`},
		{map[string]string{"NQUEENS_QUIET": "yes"}, `NQUEENS_QUIET="yes": want true or false (or 1, 0, t, f)`},
	}
	for _, tt := range tests {
		err := checkEnv(func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }, nil)
		if (err == nil) != (tt.err == "") || err != nil && err.Error() != tt.err {
			t.Errorf("CheckEnv(%v) = %v, want %q", tt.env, err, tt.err)
		}
	}
}

func TestSuggest(t *testing.T) {
	for name, want := range map[string]string{"worker": "workers", "Workers": "workers", "qiuet": "quiet", "max_rows": "max_rows_n", "colour": "", "b": "", "dbb": "db"} {
		if got := suggest(name); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestFormerNames reads max_rows_n by its former names, in the config file
// and the environment, each with one note that says what it is renamed;
// its own names set it without a note.
func TestFormerNames(t *testing.T) {
	var notes []string
	note := func(s string) { notes = append(notes, s) }
	for _, tt := range []struct {
		yaml  string
		want  map[string]any
		notes []string
	}{
		{"max_build_n: 9\n", map[string]any{"max_rows_n": 9}, []string{"c.yaml: line 1: max_build_n is renamed max_rows_n"}},
		{"db: a.db\nmax_build_n: 12\n", map[string]any{"db": "a.db", "max_rows_n": 12}, []string{"c.yaml: line 2: max_build_n is renamed max_rows_n"}},
		{"max_rows_n: 9\n", map[string]any{"max_rows_n": 9}, nil},
	} {
		notes = nil
		got, err := parseYAML("c.yaml", []byte(tt.yaml), note)
		if err != nil || !maps.Equal(got, tt.want) || !slices.Equal(notes, tt.notes) {
			t.Errorf("ParseYAML(%q) = %v, %v, notes %q; want %v, notes %q", tt.yaml, got, err, notes, tt.want, tt.notes)
		}
	}
	for _, tt := range []struct {
		env   map[string]string
		notes []string
	}{
		{map[string]string{"NQUEENS_MAX_BUILD_N": "9"}, []string{"NQUEENS_MAX_BUILD_N is renamed NQUEENS_MAX_ROWS_N"}},
		{map[string]string{"NQUEENS_MAX_BUILD_N": "9", "NQUEENS_MAX_ROWS_N": "8"}, []string{"NQUEENS_MAX_BUILD_N is renamed NQUEENS_MAX_ROWS_N (both are set: NQUEENS_MAX_ROWS_N wins)"}},
		{map[string]string{"NQUEENS_MAX_BUILD_N": ""}, nil}, // empty is unset
		{map[string]string{"NQUEENS_MAX_ROWS_N": "9"}, nil},
	} {
		notes = nil
		err := checkEnv(func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }, note)
		if err != nil || !slices.Equal(notes, tt.notes) {
			t.Errorf("CheckEnv(%v) = %v, notes %q; want notes %q", tt.env, err, notes, tt.notes)
		}
	}
}
