package main

// Tests of the advice the command adds to the libraries' errors and to
// the pages of nqueens serve, which the libraries leave to it.

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/config"
	"github.com/nqueens/nqueens/count/estimate"
	"github.com/nqueens/nqueens/serve"
	"github.com/nqueens/nqueens/store"
)

// TestHotJournalAdvice reads, as another user, a catalog whose journal
// holds a write that a killed build left: the commands say what is wrong,
// as store words it, and that a writing command run by the catalog's
// owner rolls it back.
func TestHotJournalAdvice(t *testing.T) {
	t.Parallel()
	dir, exe := sharedDir(t)
	db := filepath.Join(dir, "c.db")
	if out, err := runAs(t, 0, exe, dir, "build", "4-6", "-q", "--db", db); err != nil {
		t.Fatalf("owner's build: %v\n%s", err, out)
	}
	// A reader that may not write the catalog refuses any journal beside
	// it before SQLite reads it, so its bytes do not matter here (store's
	// tests leave a real one).
	if err := os.WriteFile(db+"-journal", []byte("unfinished"), 0o644); err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.EvalSymlinks(db)
	if err != nil {
		t.Fatal(err)
	}
	why := "open catalog " + db + ": catalog is read-only: " + abs + "-journal holds a write that a killed process left unfinished" +
		"; run a writing command such as nqueens build as the catalog's owner to roll it back"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"stats"}, "nqueens: " + why + "\n"},
		{[]string{"lookup", "4", "6", "1", "5", "2", "0", "7", "3"},
			"lookup: no class numbers: " + why + "\nn=8 4 6 1 5 2 0 7 3: canonical 1 6 4 7 0 3 5 2, orbit 8 (symmetry none), transform antitranspose\n"},
	} {
		out, _ := runAs(t, nobody, exe, dir, append(tc.args, "--db", db)...)
		if out != tc.want {
			t.Errorf("%s as another user:\n%s\nwant\n%s", strings.Join(tc.args, " "), out, tc.want)
		}
	}
}

// TestOpenAdvice checks the advice openAdvice adds to each error of a
// catalog that does not open, and that the error still matches its
// sentinel.
func TestOpenAdvice(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{store.ErrNoCatalog, "no catalog (run nqueens build 1-14 to make one)"},
		{store.ErrEmptyCatalog, "no catalog (run nqueens build 1-14 to make it a catalog)"},
		{store.ErrHotJournal, "catalog is read-only; run a writing command such as nqueens build as the catalog's owner to roll it back"},
		{store.ErrReadOnly, "catalog is read-only"},
		{store.ErrCorrupt, "catalog file is damaged"},
	} {
		got := openAdvice(tc.err)
		if got.Error() != tc.want || !errors.Is(got, tc.err) {
			t.Errorf("openAdvice(%v) = %q, want %q wrapping it", tc.err, got, tc.want)
		}
	}
	if err := openAdvice(nil); err != nil {
		t.Errorf("openAdvice(nil) = %v", err)
	}
}

// TestServeAdvice serves an empty catalog with the command's advice: the
// home page says which command builds a first n, and once the catalog
// file is gone the errors say how to make one. The commands of the other
// advice are those the command line has.
func TestServeAdvice(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "c.db")
	db, err := store.Open(ctx, path, store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	f, err := store.Follow(ctx, path, serve.Options{}.FollowOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	srv := httptest.NewServer(serve.New(f, serve.Options{Advice: advice{}.serveAdvice()}))
	defer srv.Close()
	if code, body := fetch(t, srv.URL+"/"); code != 200 || !strings.Contains(body, "<p>The catalog is empty: build some n with <code>nqueens build 1-14</code>.</p>") {
		t.Errorf("/ of an empty catalog: %d\n%s", code, body)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if code, body := fetch(t, srv.URL+"/api/v1/counts"); code != 503 || !strings.HasSuffix(body, `: no catalog (run nqueens build 1-14 to make one)"}`+"\n") {
		t.Errorf("/api/v1/counts with the catalog removed: %d\n%s", code, body)
	}
	plain, other := (advice{}).serveAdvice(), (advice{db: "/srv/my cat.db"}).serveAdvice()
	for _, tt := range []struct{ got, want string }{
		{plain.Build(8), "nqueens build 8"},
		{plain.Lex(17), "nqueens export 17 --all --order lex"},
		{other.Build(8), "nqueens build 8 --db '/srv/my cat.db'"},
		{other.Start(), "nqueens build 1-14 --db '/srv/my cat.db'"},
		{other.Square(18, nqueens.Square{Row: 9, Col: 4}), "nqueens export 18 --square 9,4 --format csv --db '/srv/my cat.db'"},
	} {
		if tt.got != tt.want {
			t.Errorf("serve's advice %q, want %q", tt.got, tt.want)
		}
	}
}

// TestBuildTime checks the advice to build an n not in the catalog, at a
// rate set rather than measured (that of 2 cores of the machine
// count/estimate was calibrated on): where the build would take a minute
// or more it says how long count --estimate puts the count by
// constellations at, which the build takes longer than, before the
// command; for a build of seconds it is the command alone.
func TestBuildTime(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rate := &estimate.Rate{Workers: 2, Cores: 2, PerSecond: 3e8}
	notBuilt := func(n int) error {
		return &store.IncompleteError{Path: "/c/my.db", N: n, Err: store.ErrNotBuilt}
	}
	// Of each n, what advise adds to its error (the error reads "n=N is
	// not in the catalog /c/my.db: " and the advice), and what the build
	// advice of stats and puzzle says.
	tests := []struct {
		n, maxRowsN, workers int
		advise, build        string
	}{
		{n: 25, maxRowsN: 17,
			advise: "building it would take longer than counting it by constellations, about 2 years 7 months on 2 cores (nqueens count 25 --estimate --engine cpu); " +
				"nqueens build 25 --db /c/my.db makes its index, not its 275,986,683,743,434 rows (about 9.3 PiB), as n=25 is above max_rows_n 17",
			build: "building it would take longer than counting it by constellations, about 2 years 7 months on 2 cores (nqueens count 25 --estimate --engine cpu); " +
				"nqueens build 25 --db /c/my.db makes its index, not its 275,986,683,743,434 rows (about 9.3 PiB), as n=25 is above max_rows_n 17"},
		{n: 20, maxRowsN: 20, workers: 2,
			advise: "building it would take longer than counting it by constellations, about 21 min on 2 cores (nqueens count 20 --estimate --engine cpu --workers 2); run nqueens build 20 --db /c/my.db first",
			build:  "building it would take longer than counting it by constellations, about 21 min on 2 cores (nqueens count 20 --estimate --engine cpu --workers 2); nqueens build 20 --db /c/my.db makes it"},
		// Seconds: the command alone.
		{n: 18, maxRowsN: 17,
			advise: "nqueens build 18 --db /c/my.db makes its index, not its 83,263,591 rows (about 2.4 GiB), as n=18 is above max_rows_n 17",
			build:  "nqueens build 18 --db /c/my.db makes its index, not its 83,263,591 rows (about 2.4 GiB), as n=18 is above max_rows_n 17"},
		{n: 14, maxRowsN: 17, advise: "run nqueens build 14 --db /c/my.db first", build: "nqueens build 14 --db /c/my.db makes it"},
	}
	for _, tt := range tests {
		a := &app{cfg: config.Config{DB: "/c/my.db", Workers: tt.workers, MaxRowsN: tt.maxRowsN},
			est: &estimate.Estimator{Workers: 2, Measured: rate}}
		err := a.advise(ctx, notBuilt(tt.n))
		if want := fmt.Sprintf("n=%d is not in the catalog /c/my.db: %s", tt.n, tt.advise); err.Error() != want || !errors.Is(err, store.ErrNotBuilt) {
			t.Errorf("n=%d: advise = %q\nwant %q", tt.n, err, want)
		}
		if got := a.buildAdvice(ctx, tt.n); got != tt.build {
			t.Errorf("n=%d: buildAdvice = %q\nwant %q", tt.n, got, tt.build)
		}
	}
}
