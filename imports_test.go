package nqueens_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// module is the path of this module; the rules below name its packages
// relative to it ("" is the root).
const module = "github.com/nqueens/nqueens"

// arrows are the rules of the import graph that docs/ARCHITECTURE.md
// states: for each import (a package path, or a prefix ending in "/..."),
// the only packages of this module that may import it directly. Test
// files are not counted.
var arrows = []struct {
	dep     string
	allowed []string
}{
	// The SQL database: the store alone, and the file below it.
	{"database/sql", []string{"store", "store/internal/dbfile"}},
	{"github.com/jmoiron/sqlx", []string{"store", "store/internal/dbfile"}},
	{"modernc.org/sqlite/...", []string{"store/internal/dbfile"}},
	{"github.com/pressly/goose/v3/...", []string{"store/internal/dbfile"}},
	// The command line: cobra in the command, viper in config.
	{"github.com/spf13/cobra/...", []string{"cmd/nqueens"}},
	{"github.com/spf13/viper/...", []string{"config"}},
	{"github.com/spf13/pflag", []string{"cmd/nqueens", "config"}},
	// The terminal's progress bars, and the GPU driver.
	{"github.com/vbauerster/mpb/v8/...", []string{"progress"}},
	{"github.com/ebitengine/purego/...", []string{"count/gpu/internal/cuda"}},
	// Parquet: written by export alone; read back, in tests, by a reader
	// that shares no code with the writer.
	{"github.com/parquet-go/parquet-go/...", []string{"export"}},
	{"github.com/klauspost/compress/...", []string{"export"}},
	{"github.com/xitongsys/parquet-go/...", []string{"internal/testutil/parquetrows"}},
	// Who reads the catalog and who writes the formats: never each other.
	{module + "/store", []string{"cmd/nqueens", "serve", "verify"}},
	{module + "/export", []string{"cmd/nqueens", "serve"}},
	{module + "/serve", []string{"cmd/nqueens"}},
	{module + "/verify", []string{"cmd/nqueens"}},
	// How work is split by cost: the searches that own their units (the
	// class search's, the count's constellations, partial's rows) call
	// it; the store and verify ask canonical.Shard.
	{module + "/internal/balance", []string{"canonical", "count", "count/parts", "partial"}},
	// A count's state is the command's to keep; uniform draws are made
	// for the command, for puzzles and for verify's sample of an index.
	{module + "/count/resume", []string{"cmd/nqueens"}},
	{module + "/sample", []string{"cmd/nqueens", "partial/puzzle", "verify"}},
	// The names of a catalog's files: the store, and count/resume, which
	// refuses them as state files.
	{module + "/internal/catalogfile", []string{"store", "store/internal/dbfile", "count/resume"}},
	// Nothing imports the command.
	{module + "/cmd/...", nil},
	// The OpenAPI validator checks serve's API description in tests only.
	{"github.com/getkin/kin-openapi/...", nil},
}

// TestImportArrows reads the import graph with go list and fails on any
// import the rules above forbid, and on any package of this module but
// internal/phrase that the root package imports: the root is the
// vocabulary that everything else imports.
func TestImportArrows(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	packages := 0
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(strings.TrimPrefix(fields[0], module), "/")
		packages++
		for _, dep := range fields[1:] {
			if pkg == "" && strings.HasPrefix(dep, module+"/") && dep != module+"/internal/phrase" {
				t.Errorf("the root package imports %s: it imports nothing of the module but internal/phrase", dep)
			}
			for _, a := range arrows {
				if matches(a.dep, dep) && !slices.Contains(a.allowed, pkg) {
					t.Errorf("%s imports %s, which only %s may import", fields[0], dep, who(a.allowed))
				}
			}
		}
	}
	if packages < 20 {
		t.Errorf("go list listed %d packages: %s", packages, out)
	}
}

// matches reports whether the import path dep is rule, or under it when
// rule ends in "/...".
func matches(rule, dep string) bool {
	if prefix, ok := strings.CutSuffix(rule, "/..."); ok {
		return dep == prefix || strings.HasPrefix(dep, prefix+"/")
	}
	return dep == rule
}

// who words the packages allowed by a rule.
func who(allowed []string) string {
	if len(allowed) == 0 {
		return "no package"
	}
	return strings.Join(allowed, ", ")
}

// TestNoReexports fails on a type alias of another package's type in any
// file of the module but its tests (type Unit = enumerate.Unit): a package
// names its own types, and go doc shows the real methods where they live.
func TestNoReexports(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != ".":
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go"):
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, spec := range g.Specs {
				if ts := spec.(*ast.TypeSpec); ts.Assign.IsValid() {
					if sel, ok := ts.Type.(*ast.SelectorExpr); ok {
						t.Errorf("%s: type %s = %s.%s re-exports another package's type: use it by its own name", path, ts.Name.Name, sel.X, sel.Sel.Name)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
