package main

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestExportFiltersAreSlices exports n = 12 whole and with each filter, in
// CSV and NDJSON, classes and every solution: each filtered export is
// exactly the lines of the whole export whose class and symmetry the
// filter selects, with the same class numbers; show draws the same
// classes.
func TestExportFiltersAreSlices(t *testing.T) {
	t.Parallel()
	db := builtCatalog(t, "12")
	for _, format := range []string{"csv", "ndjson"} {
		for _, all := range []bool{false, true} {
			args := []string{"--db", db, "export", "12", "--format", format}
			if all {
				args = append(args, "--all")
			}
			whole, _, err := runCLI(t, args...)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(whole, "\n"), "\n")
			header := ""
			if format == "csv" {
				header, lines = lines[0]+"\n", lines[1:]
			}
			for _, tt := range []struct {
				flags      []string
				from, to   int64
				symmetries string
			}{
				{[]string{"--class", "5"}, 5, 5, ""},
				{[]string{"--classes", "1000-1099"}, 1000, 1099, ""},
				{[]string{"--symmetry", "rot90"}, 1, 1787, "rot90"},
				{[]string{"--symmetry", "ROT180,rot90"}, 1, 1787, "rot180 rot90"},
				{[]string{"--symmetry", "none", "--classes", "10-30"}, 10, 30, "none"},
				{[]string{"--symmetry", "full"}, 1, 1787, "full"},
			} {
				var want strings.Builder
				want.WriteString(header)
				for _, l := range lines {
					class, sym := fields(t, format, l)
					if class >= tt.from && class <= tt.to && (tt.symmetries == "" || strings.Contains(" "+tt.symmetries+" ", " "+sym+" ")) {
						want.WriteString(l + "\n")
					}
				}
				got, _, err := runCLI(t, append(args, tt.flags...)...)
				if err != nil {
					t.Fatalf("%s %v: %v", format, tt.flags, err)
				}
				if got != want.String() {
					t.Errorf("export 12 --format %s --all=%v %v: %d bytes, want the %d bytes of the matching lines", format, all, tt.flags, len(got), want.Len())
				}
			}
		}
	}
	out, _, err := runCLI(t, "--db", db, "show", "12", "--symmetry", "rot90", "--ascii")
	if err != nil || strings.Count(out, "class ") != 4 || strings.Contains(out, "more classes") {
		t.Errorf("show 12 --symmetry rot90: %v\n%s", err, out)
	}
	out, _, err = runCLI(t, "--db", db, "show", "12", "--classes", "3-30", "--limit", "2", "--ascii")
	if err != nil || !strings.Contains(out, "n=12 class 3 of 1787") || !strings.Contains(out, "n=12 class 4 of 1787") || !strings.Contains(out, "... and 26 more classes") {
		t.Errorf("show 12 --classes 3-30 --limit 2: %v\n%s", err, out)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"export", "12", "--classes", "1700-1800"}, "n=12 has 1,787 classes, no class 1800"},
		{[]string{"export", "12", "--classes", "30-3"}, `--classes "30-3": the range runs downwards: want K-L with K at most L`},
		{[]string{"export", "12", "--classes", "x"}, `--classes "x": want K-L with whole numbers from 1, such as 10-19`},
		{[]string{"export", "12", "--class", "3", "--classes", "3-4"}, "--class and --classes choose classes both: give one"},
		{[]string{"show", "12", "--symmetry", "rot45"}, `--symmetry "rot45": want none, rot180, rot90 or full (or a comma list of them)`},
		{[]string{"export", "12", "--format", "svg", "--classes", "1-2"}, "format svg draws one board: drop --all, choose it with --class"},
	} {
		_, _, err := runCLI(t, append([]string{"--db", db}, tt.args...)...)
		if err == nil || err.Error() != tt.want || exitCode(err) != exitUsage {
			t.Errorf("%v: %v (exit %d), want %q and exit 2", tt.args, err, exitCode(err), tt.want)
		}
	}
}

// fields returns the class and symmetry of a line of a CSV or NDJSON
// export.
func fields(t *testing.T, format, line string) (int64, string) {
	t.Helper()
	if format == "csv" { // n,class,orbit,symmetry,placement
		f := strings.Split(line, ",")
		k, _ := strconv.ParseInt(f[1], 10, 64)
		return k, f[3]
	}
	_, rest, _ := strings.Cut(line, `"class":`)
	num, _, _ := strings.Cut(rest, ",")
	k, _ := strconv.ParseInt(num, 10, 64)
	_, rest, _ = strings.Cut(line, `"symmetry":"`)
	sym, _, _ := strings.Cut(rest, `"`)
	return k, sym
}

// TestExportLexOrder checks export --all --order lex against the
// class-by-class export sorted by placement, whole and filtered, and that
// the grid format draws the same boards.
func TestExportLexOrder(t *testing.T) {
	t.Parallel()
	db := builtCatalog(t, "11")
	for _, filter := range [][]string{nil, {"--symmetry", "rot180"}, {"--classes", "100-150"}} {
		args := append([]string{"--db", db, "export", "11", "--all", "--format", "csv"}, filter...)
		byClass, _, err := runCLI(t, args...)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(byClass, "\n"), "\n")
		rows := lines[1:]
		slices.SortFunc(rows, func(a, b string) int {
			return slices.Compare(columnsOf(a), columnsOf(b))
		})
		want := lines[0] + "\n" + strings.Join(rows, "\n") + "\n"
		lex, _, err := runCLI(t, append(args, "--order", "lex")...)
		if err != nil {
			t.Fatal(err)
		}
		if lex != want {
			t.Errorf("export 11 --all --order lex %v: %d bytes, want the %d of the sorted export", filter, len(lex), len(want))
		}
	}
	grid, _, err := runCLI(t, "--db", db, "export", "11", "--all", "--order", "lex", "--format", "grid")
	if err != nil {
		t.Fatal(err)
	}
	boards := strings.Split(strings.TrimSuffix(grid, "\n\n"), "\n\n")
	if len(boards) != 2680 || strings.Count(boards[0], "Q") != 11 || !strings.HasPrefix(grid, "Q..........\n..Q........\n") {
		t.Errorf("grid export: %d boards, the first %q", len(boards), boards[0])
	}
}

// columnsOf returns the placement of a line of a CSV export as numbers.
func columnsOf(line string) []int {
	f := strings.Split(line, ",")
	var out []int
	for c := range strings.FieldsSeq(f[4]) {
		k, _ := strconv.Atoi(c)
		out = append(out, k)
	}
	return out
}
