package store

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/pressly/goose/v3"

	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/internal/testutil"
	"github.com/nqueens/nqueens/migrations"
)

// childEnv names the variable that makes this test binary a child that
// creates a catalog and kills itself at a point of the creation:
// "POINT:PATH".
const childEnv = "STORE_TEST_KILL_AT"

func TestMain(m *testing.M) {
	if path := os.Getenv(journalEnv); path != "" {
		leaveHotJournal(path)
	}
	if path := os.Getenv(readEnv); path != "" {
		_, err := Open(ctx, path, Options{ReadOnly: true})
		fmt.Printf("%t %t\n%v\n", errors.Is(err, ErrHotJournal), errors.Is(err, ErrReadOnly), err)
		os.Exit(0)
	}
	if v := os.Getenv(childEnv); v != "" {
		point, path, _ := strings.Cut(v, ":")
		SetTestHook(func(p string) {
			if p == point {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
			}
		})
		if _, err := Open(ctx, path, Options{Create: true}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// journalEnv names the variable that makes this test binary a child that
// dies in the middle of a write to the catalog at its value, in rollback
// journal mode, leaving a hot journal.
const journalEnv = "STORE_TEST_HOT_JOURNAL"

// leaveHotJournal writes to the catalog at path in a transaction large
// enough to spill into the file, and kills the process before it commits.
func leaveHotJournal(path string) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(DELETE)&_pragma=cache_size(10)")
	if err != nil {
		panic(err)
	}
	db.SetMaxOpenConns(1)
	tx, err := db.Begin()
	if err != nil {
		panic(err)
	}
	for i := range 5000 {
		if _, err := tx.Exec(`INSERT INTO classes (n, class, placement, orbit) VALUES (20, ?, ?, 8)`, i+1, fmt.Sprintf("%020d", i)); err != nil {
			panic(err)
		}
	}
	syscall.Kill(os.Getpid(), syscall.SIGKILL)
}

// TestHotJournalRolledBack kills a process in the middle of a write in
// rollback-journal mode: a reader that may write rolls the journal back
// and reads the catalog as it was, and so does a writer.
func TestHotJournalRolledBack(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, opts := range []Options{{ReadOnly: true}, {}} {
		path := filepath.Join(t.TempDir(), "c.db")
		buildWhole(t, path, 8)
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), journalEnv+"="+path)
		cmd.Run()
		if st, err := os.Stat(path + "-journal"); err != nil || st.Size() == 0 {
			t.Fatalf("no hot journal after the kill: %v", err)
		}
		db, err := Open(ctx, path, opts)
		if err != nil {
			t.Fatalf("%+v: Open with a hot journal: %v", opts, err)
		}
		if got := classes(t, db, 8); len(got) != 12 {
			t.Errorf("%+v: %d classes of 8 after the roll-back, want 12", opts, len(got))
		}
		if got := classes(t, db, 20); len(got) != 0 {
			t.Errorf("%+v: %d rows of the unfinished write survived", opts, len(got))
		}
		db.Close()
		if _, err := os.Stat(path + "-journal"); err == nil {
			t.Errorf("%+v: the journal is still there", opts)
		}
	}
}

// readEnv names the variable that makes this test binary a child that
// opens the catalog at its value read-only and prints whether the error
// matches ErrHotJournal and ErrReadOnly, then the error.
const readEnv = "STORE_TEST_OPEN_READ"

// TestHotJournalOfAnotherUser kills a process in the middle of a write in
// rollback-journal mode, and opens the catalog read-only in a process
// that may not write it (run as root, one of another user; otherwise one
// of the same user with the catalog's mode made read-only): its Open fails
// with ErrHotJournal, which is ErrReadOnly too, names the journal and
// leaves it as it was; the owner's Open then rolls the write back.
func TestHotJournalOfAnotherUser(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "store-hot-journal-") // one every user may enter
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "c.db")
	buildWhole(t, path, 8)
	kill := exec.Command(exe)
	kill.Env = append(os.Environ(), journalEnv+"="+path)
	kill.Run()
	journal := testutil.ReadFile(t, path+"-journal")
	if len(journal) == 0 {
		t.Fatal("no hot journal after the kill")
	}

	reader := exec.Command(exe)
	if os.Geteuid() == 0 {
		// Root may write any file: the reader is another user, running a
		// copy of this binary that every user may run.
		self := filepath.Join(dir, "test")
		testutil.WriteExecutable(t, self, testutil.ReadFile(t, exe))
		const nobody = 65534
		reader = exec.Command(self)
		reader.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	} else {
		if err := os.Chmod(path, 0o444); err != nil {
			t.Fatal(err)
		}
	}
	reader.Env = []string{readEnv + "=" + path}
	out, err := reader.Output()
	if err != nil {
		t.Fatalf("the reader: %v\n%s", err, out)
	}
	is, msg, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	want := path + "-journal holds a write that a killed process left unfinished"
	if is != "true true" || !strings.HasSuffix(msg, want) {
		t.Errorf("the reader's Open: %s (ErrHotJournal, ErrReadOnly: %s), want an error matching both, ending %q", msg, is, want)
	}
	if got := testutil.ReadFile(t, path+"-journal"); !slices.Equal(got, journal) {
		t.Errorf("the reader changed the journal")
	}

	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("the owner's Open with a hot journal: %v", err)
	}
	defer db.Close()
	if got := classes(t, db, 8); len(got) != 12 {
		t.Errorf("%d classes of 8 after the owner's roll-back, want 12", len(got))
	}
	if got := classes(t, db, 20); len(got) != 0 {
		t.Errorf("%d rows of the unfinished write survived", len(got))
	}
}

// TestCreateKilledAtEachPoint kills a process creating a catalog at each
// point of the creation, several times: the path then holds nothing or a
// whole empty catalog, every reader opens it or says there is none, and
// the next Open with Create succeeds and removes what the killed one left.
func TestCreateKilledAtEachPoint(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, point := range []string{"created", "migrated", "linking", "linked"} {
		dir := t.TempDir()
		path := filepath.Join(dir, "new.db")
		for round := range 3 {
			cmd := exec.Command(exe)
			cmd.Env = append(os.Environ(), childEnv+"="+point+":"+path)
			err := cmd.Run()
			var ee *exec.ExitError
			killed := errors.As(err, &ee) && ee.Sys().(syscall.WaitStatus).Signal() == syscall.SIGKILL
			if !killed && round == 0 {
				t.Fatalf("%s: the child was not killed: %v", point, err)
			}
			db, err := Open(ctx, path, Options{ReadOnly: true})
			switch {
			case errors.Is(err, ErrNoCatalog):
				if _, serr := os.Stat(path); serr == nil {
					t.Errorf("%s: reader says no catalog but %s exists", point, path)
				}
			case err != nil:
				t.Fatalf("%s, round %d: reader after the kill: %v", point, round, err)
			default:
				if builds, err := db.Builds(ctx); err != nil || len(builds) != 0 {
					t.Errorf("%s: builds %v, %v", point, builds, err)
				}
				db.Close()
			}
		}
		db, err := Open(ctx, path, Options{Create: true})
		if err != nil {
			t.Fatalf("%s: Open after the kills: %v", point, err)
		}
		db.Close()
		if names := testutil.ReadDir(t, dir); !slices.Equal(names, []string{"new.db", "new.db.lock"}) {
			t.Errorf("%s: after the kills and an Open the directory holds %v", point, names)
		}
	}
}

// openAtOnce opens the catalog at path from 8 goroutines at once, each
// running use on its DB, and fails the test for each error.
func openAtOnce(t *testing.T, round int, path string, opts Options, use func(*DB) error) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			db, err := Open(ctx, path, opts)
			if err == nil {
				err = use(db)
				db.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("round %d, opener %d: %v", round, i, err)
		}
	}
}

// TestConcurrentCreate opens one new catalog from many goroutines at once,
// each with Create: every one succeeds, on the same file.
func TestConcurrentCreate(t *testing.T) {
	for round := range 5 {
		path := filepath.Join(t.TempDir(), "c.db")
		openAtOnce(t, round, path, Options{Create: true}, func(db *DB) error {
			_, err := db.Builds(ctx)
			return err
		})
		// SQLite's log and index may stay when the last two connections
		// close at once (each sees the other): the owner's files, used by
		// the next open. No temporary file of a creation may stay.
		names := slices.DeleteFunc(testutil.ReadDir(t, filepath.Dir(path)), func(s string) bool {
			return s == "c.db-wal" || s == "c.db-shm"
		})
		if !slices.Equal(names, []string{"c.db", "c.db.lock"}) {
			t.Errorf("round %d: directory holds %v", round, names)
		}
	}
}

// makeV1 writes a catalog of schema version 1 (before shard builds)
// holding n=8 at path, at rest in WAL mode as nqueens left them.
func makeV1(t *testing.T, path string) {
	t.Helper()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	p, err := goose.NewProvider(goose.DialectSQLite3, raw, migrations.FS,
		goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`INSERT INTO builds (n, total, unique_count, orbit8, orbit4, complete, units_done, units_total, started_at, seconds)
		VALUES (8, 92, 12, 11, 1, 1, 5, 5, '2026-01-01T00:00:00Z', 0.1);
		INSERT INTO classes (n, placement, orbit) VALUES (8, '04752613', 8);
		PRAGMA journal_mode=WAL`); err != nil {
		t.Fatal(err)
	}
}

// latestSchema is the schema version of this program's catalogs.
const latestSchema = 6

// schemaVersion reads the schema version of the catalog at path.
func schemaVersion(t *testing.T, path string) int64 {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v int64
	if err := db.QueryRow(`SELECT max(version_id) FROM goose_db_version WHERE is_applied`).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestConcurrentMigrate opens a catalog of an older schema from many
// goroutines at once: the migration runs once and every Open succeeds.
func TestConcurrentMigrate(t *testing.T) {
	for round := range 3 {
		path := filepath.Join(t.TempDir(), "v1.db")
		makeV1(t, path)
		openAtOnce(t, round, path, Options{}, func(db *DB) error {
			b, err := db.Build(ctx, 8)
			if err == nil && (b.Unique != 12 || !b.Shard.IsWhole()) {
				err = fmt.Errorf("build of n=8 reads %+v", b)
			}
			return err
		})
		if v := schemaVersion(t, path); v != latestSchema {
			t.Errorf("round %d: schema version %d after the opens, want %d", round, v, latestSchema)
		}
	}
}

// TestReadOnlyWritesNothing opens catalogs read-only, a current one and one
// of schema version 1: they read, and once closed nothing in their
// directory has changed (no log, index, journal or lock is left, the file
// keeps every byte), the old one is not migrated, and writers are refused.
// (Another user's reads, which may not even create the log while they run,
// are tested in cmd/nqueens.)
func TestReadOnlyWritesNothing(t *testing.T) {
	dir := t.TempDir()
	current := filepath.Join(dir, "current.db")
	buildWhole(t, current, 8)
	os.Remove(current + ".lock")
	old := filepath.Join(dir, "v1.db")
	makeV1(t, old)

	for _, path := range []string{current, old} {
		before := testutil.ReadDir(t, dir)
		data, _ := os.ReadFile(path)
		ro, err := Open(ctx, path, Options{ReadOnly: true})
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(path), err)
		}
		bld, err := ro.Build(ctx, 8)
		if err != nil || bld.Unique != 12 || !bld.Complete {
			t.Errorf("%s: build of 8: %+v, %v", filepath.Base(path), bld, err)
		}
		if len(classes(t, ro, 8)) == 0 {
			t.Errorf("%s: no classes read", filepath.Base(path))
		}
		if _, err := ro.begin(ctx, 9, len(canonical.Units(9))); !errors.Is(err, ErrReadOnly) {
			t.Errorf("%s: Begin on a read-only DB: %v, want ErrReadOnly", filepath.Base(path), err)
		}
		ro.Close()
		if after := testutil.ReadDir(t, dir); !slices.Equal(after, before) {
			t.Errorf("%s: reading changed the directory from %v to %v", filepath.Base(path), before, after)
		}
		if got, _ := os.ReadFile(path); string(got) != string(data) {
			t.Errorf("%s: reading changed the file", filepath.Base(path))
		}
	}
	if v := schemaVersion(t, old); v != 1 {
		t.Errorf("a read-only open migrated the old catalog to version %d", v)
	}
	if _, err := Open(ctx, filepath.Join(dir, "none.db"), Options{ReadOnly: true, Create: true}); !errors.Is(err, ErrNoCatalog) {
		t.Errorf("ReadOnly with Create of a missing file: %v, want ErrNoCatalog", err)
	}
}

// TestSymlinkSharesTheLock opens one catalog by its name and through a
// symbolic link: a builder through either holds the one build lock.
func TestSymlinkSharesTheLock(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.db")
	link := filepath.Join(dir, "link.db")
	db := open(t, real)
	if err := os.Symlink("real.db", link); err != nil {
		t.Fatal(err)
	}
	viaLink := open(t, link)
	if viaLink.Path() != db.Path() {
		t.Errorf("paths differ: %s and %s", db.Path(), viaLink.Path())
	}
	b, err := db.begin(ctx, 8, len(canonical.Units(8)))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := viaLink.begin(ctx, 9, len(canonical.Units(9))); !errors.Is(err, ErrBusy) {
		t.Errorf("Begin through the link while a build holds the catalog: %v, want ErrBusy", err)
	}
	// A link to a catalog not yet made creates it at the link's target.
	dangling := filepath.Join(dir, "later.db")
	if err := os.Symlink("target.db", dangling); err != nil {
		t.Fatal(err)
	}
	nd := open(t, dangling)
	if nd.Path() != filepath.Join(db.Path(), "..", "target.db") && filepath.Base(nd.Path()) != "target.db" {
		t.Errorf("catalog through a dangling link made at %s", nd.Path())
	}
	if st, err := os.Lstat(dangling); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
}

// TestResolveDotDotAfterLink opens a catalog through a path whose ".."
// follows a symbolic link to a directory: it is the file the system
// reaches (as readlink -f says), not the one the path names as text.
func TestResolveDotDotAfterLink(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"w", "elsewhere/sub"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../elsewhere/sub", filepath.Join(dir, "w", "linkdir")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("linkdir/../real.db", filepath.Join(dir, "w", "c.db")); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, "elsewhere", "real.db")
	for _, path := range []string{filepath.Join(dir, "w", "c.db"), filepath.Join(dir, "w", "linkdir") + "/../real.db"} {
		db := open(t, path)
		if db.Path() != want {
			t.Errorf("Open(%s) opened %s, want %s", path, db.Path(), want)
		}
		if files := Files(path); !slices.Contains(files, want+"-wal") {
			t.Errorf("Files(%s) = %v, want %s-wal among them", path, files, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "w", "real.db")); err == nil {
		t.Error("a catalog was made where the path reads as text")
	}
}

// buildWhole builds n whole into a new catalog at path and closes it.
func buildWhole(t *testing.T, path string, n int) {
	t.Helper()
	db := open(t, path)
	defer db.Close()
	units := canonical.Units(n)
	b, err := db.begin(ctx, n, len(units))
	if err != nil {
		t.Fatal(err)
	}
	build(t, b, units, 0, len(units))
	if _, err := b.Finish(); err != nil {
		t.Fatal(err)
	}
}

// TestOpenWhileAnotherCloses opens a catalog while, between the open's
// first look at the file and its read of the header, another connection
// builds into it and closes, copying its log into the file and removing
// the log: the open must read the grown file as the healthy catalog it is,
// read-only and for writing.
func TestOpenWhileAnotherCloses(t *testing.T) {
	for _, opts := range []Options{{ReadOnly: true}, {}} {
		path := filepath.Join(t.TempDir(), "c.db")
		buildWhole(t, path, 4)
		grown := false
		SetTestHook(func(point string) {
			if point != "header" || grown {
				return
			}
			grown = true
			other := open(t, path)
			run(t, other, 12)
			other.Close()
			if _, err := os.Stat(path + "-wal"); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("the other connection closed and left its log: %v", err)
			}
		})
		db, err := Open(ctx, path, opts)
		SetTestHook(nil)
		if err != nil {
			t.Fatalf("read-only %v: %v", opts.ReadOnly, err)
		}
		if b, err := db.Build(ctx, 12); err != nil || b.Unique != 1787 {
			t.Errorf("read-only %v: build of 12 reads %+v, %v", opts.ReadOnly, b, err)
		}
		db.Close()
	}
}
