package nqueens_test

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestAPI holds each package's exported names against its list in api/
// (as Go's own api/ files do), so that a new export, or one taken away,
// is a decision a reviewer sees in the diff of api/ rather than a side
// effect. A line gives one exported name: a constant, variable, function,
// type, method of an exported type, field of an exported struct or
// method of an exported interface, with its type as written. Commands
// (package main) export nothing and have no list.
//
// After a deliberate change, write the lists anew with
//
//	NQUEENS_API_UPDATE=1 go test -run TestAPI .
func TestAPI(t *testing.T) {
	got, err := exportedAPI(".")
	if err != nil {
		t.Fatal(err)
	}
	update := os.Getenv("NQUEENS_API_UPDATE") != ""
	if update {
		if err := os.RemoveAll("api"); err != nil {
			t.Fatal(err)
		}
	}
	for _, pkg := range slices.Sorted(maps.Keys(got)) {
		file := apiFile(pkg)
		want := strings.Join(got[pkg], "\n") + "\n"
		if update {
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		old, err := os.ReadFile(file)
		if err != nil {
			t.Errorf("package %s has no list of its exported names (%v): write it with NQUEENS_API_UPDATE=1 go test -run TestAPI .", pkgName(pkg), err)
			continue
		}
		added, removed := lineDiff(strings.Split(strings.TrimSuffix(string(old), "\n"), "\n"), got[pkg])
		for _, l := range added {
			t.Errorf("%s: exported and not in %s: %s", pkgName(pkg), file, l)
		}
		for _, l := range removed {
			t.Errorf("%s: in %s and no longer exported: %s", pkgName(pkg), file, l)
		}
	}
	if update {
		return
	}
	// A list whose package is gone.
	err = filepath.WalkDir("api", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if _, ok := got[apiPackage(path)]; !ok {
			t.Errorf("%s lists a package that has no exported names or no longer exists", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if t.Failed() {
		t.Log("a deliberate change of the exported surface is recorded with NQUEENS_API_UPDATE=1 go test -run TestAPI .")
	}
}

// apiFile is the list of the package in directory pkg ("." is the root).
func apiFile(pkg string) string {
	if pkg == "." {
		return filepath.Join("api", "nqueens.txt")
	}
	return filepath.Join("api", filepath.FromSlash(pkg)+".txt")
}

// apiPackage is the inverse of apiFile.
func apiPackage(file string) string {
	rel := strings.TrimSuffix(filepath.ToSlash(strings.TrimPrefix(file, "api"+string(filepath.Separator))), ".txt")
	if rel == "nqueens" {
		return "."
	}
	return rel
}

func pkgName(pkg string) string {
	if pkg == "." {
		return "package nqueens"
	}
	return "package " + pkg
}

// lineDiff gives the lines of got not in want and of want not in got.
func lineDiff(want, got []string) (added, removed []string) {
	for _, l := range got {
		if !slices.Contains(want, l) {
			added = append(added, l)
		}
	}
	for _, l := range want {
		if l != "" && !slices.Contains(got, l) {
			removed = append(removed, l)
		}
	}
	return added, removed
}

// exportedAPI reads the non-test Go files of every package under root
// (but testdata, hidden folders and commands) and gives each package's
// exported names, sorted, keyed by its directory relative to root.
func exportedAPI(root string) (map[string][]string, error) {
	fset := token.NewFileSet()
	api := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "api") {
			return filepath.SkipDir
		}
		entries, err := os.ReadDir(path)
		if err != nil {
			return err
		}
		var files []*ast.File
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, filepath.Join(path, e.Name()), nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			if f.Name.Name == "main" {
				return nil
			}
			files = append(files, f)
		}
		if lines := packageAPI(fset, files); len(lines) > 0 {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			api[filepath.ToSlash(rel)] = lines
		}
		return nil
	})
	return api, err
}

// packageAPI gives one line per exported name of pkg, sorted, each file's
// build constraints ignored (a name exported under any of them counts).
func packageAPI(fset *token.FileSet, files []*ast.File) []string {
	seen := map[string]bool{}
	add := func(line string) { seen[line] = true }
	expr := func(e ast.Expr) string {
		var b bytes.Buffer
		printer.Fprint(&b, fset, stripNames(e))
		return strings.Join(strings.Fields(b.String()), " ")
	}
	for _, file := range files {
		for _, decl := range file.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				sig := strings.TrimPrefix(expr(d.Type), "func")
				if d.Recv == nil {
					add(fmt.Sprintf("func %s%s", d.Name.Name, sig))
					continue
				}
				recv := expr(d.Recv.List[0].Type)
				if !ast.IsExported(baseType(d.Recv.List[0].Type)) {
					continue
				}
				add(fmt.Sprintf("method (%s) %s%s", recv, d.Name.Name, sig))
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.ValueSpec:
						kind := "var"
						if d.Tok == token.CONST {
							kind = "const"
						}
						for _, n := range s.Names {
							if !n.IsExported() {
								continue
							}
							if s.Type != nil {
								add(fmt.Sprintf("%s %s %s", kind, n.Name, expr(s.Type)))
							} else {
								add(fmt.Sprintf("%s %s", kind, n.Name))
							}
						}
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						typeAPI(s, expr, add)
					}
				}
			}
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// typeAPI adds the lines of an exported type: the type, and its exported
// fields or interface methods.
func typeAPI(s *ast.TypeSpec, expr func(ast.Expr) string, add func(string)) {
	name := s.Name.Name
	if s.TypeParams != nil {
		name += expr(&ast.IndexListExpr{X: ast.NewIdent(""), Indices: fieldTypes(s.TypeParams)})
	}
	switch t := s.Type.(type) {
	case *ast.StructType:
		add(fmt.Sprintf("type %s struct", name))
		for _, f := range t.Fields.List {
			if len(f.Names) == 0 {
				if ast.IsExported(baseType(f.Type)) {
					add(fmt.Sprintf("type %s struct, embedded %s", name, expr(f.Type)))
				}
				continue
			}
			for _, n := range f.Names {
				if n.IsExported() {
					add(fmt.Sprintf("type %s struct, %s %s", name, n.Name, expr(f.Type)))
				}
			}
		}
	case *ast.InterfaceType:
		add(fmt.Sprintf("type %s interface", name))
		for _, m := range t.Methods.List {
			for _, n := range m.Names {
				if n.IsExported() {
					add(fmt.Sprintf("type %s interface, %s%s", name, n.Name, strings.TrimPrefix(expr(m.Type), "func")))
				}
			}
			if len(m.Names) == 0 {
				add(fmt.Sprintf("type %s interface, embedded %s", name, expr(m.Type)))
			}
		}
	default:
		if s.Assign.IsValid() {
			add(fmt.Sprintf("type %s = %s", name, expr(s.Type)))
		} else {
			add(fmt.Sprintf("type %s %s", name, expr(s.Type)))
		}
	}
}

func fieldTypes(fl *ast.FieldList) []ast.Expr {
	var es []ast.Expr
	for _, f := range fl.List {
		for range max(1, len(f.Names)) {
			es = append(es, f.Type)
		}
	}
	return es
}

// baseType is the name of the type a receiver or embedded field names.
func baseType(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.SelectorExpr:
			return t.Sel.Name
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

// stripNames gives a copy of e's function types without the names of
// their parameters and results, which are not part of the API.
func stripNames(e ast.Expr) ast.Expr {
	switch t := e.(type) {
	case *ast.FuncType:
		return &ast.FuncType{Params: stripFields(t.Params), Results: stripFields(t.Results)}
	case *ast.StarExpr:
		return &ast.StarExpr{X: stripNames(t.X)}
	}
	return e
}

func stripFields(fl *ast.FieldList) *ast.FieldList {
	if fl == nil {
		return nil
	}
	out := &ast.FieldList{}
	for _, f := range fl.List {
		for range max(1, len(f.Names)) {
			out.List = append(out.List, &ast.Field{Type: stripNames(f.Type)})
		}
	}
	return out
}
