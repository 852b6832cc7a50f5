package serve

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/export"
	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/store"
)

// maxLexN is the largest n whose solutions an export serves in
// lexicographic order: the search runs on one goroutine with a table of
// the classes in memory, n bytes a class (30 MB and about 4 s for the
// 14.8 million solutions of n = 16; n = 17 would take 200 MB a request).
const maxLexN = 16

// handleExport answers GET /export/{n}.{format}?all=1&symmetry=S&square=R,C&order=O:
// the bytes of nqueens export N --format FORMAT [--all] [--symmetry S]
// [--square R,C] [--order O], as a download. As on the command line, the judges' formats
// (leetcode, grid) give every solution in lexicographic order unless all=0
// or order=class says otherwise; order=lex, up to n = MaxLexN, searches the
// solutions again with a table of the classes read at the start. It
// streams: the layouts are read Options.ExportChunk classes at a time,
// each chunk in its own short read of the catalog that ends before a byte
// of it is written, so an export takes constant memory and holds no read
// transaction while the client reads (a build's log can be checkpointed
// meanwhile). Each chunk reads the build of n again, and an export whose
// build changed under it stops. The write deadline moves on by
// WriteTimeout with each write, no further than the end of the rate
// window (see Options.MinExportRate) and than ExportTimeout after the
// start, so a client that stops reading, or reads too slowly, is cut off.
// An error after the first byte aborts the connection, so that a client
// never takes a cut export for a whole one. A HEAD request gets the
// headers only.
//
// An export holds one of the server's MaxExports turns only while it
// produces: it takes one to start (waiting up to QueueTimeout, then 503),
// gives it back each time its writer's 64 KiB buffer is full, while the
// client takes the bytes (deadlineWriter), and takes one again before it
// reads or writes more. So each export is its handler's goroutine (and,
// in lexicographic order, the search's) and a buffer, whatever its
// client does. A lexicographic export whose table takes more than 1 MiB
// also holds one of MaxExports turns of tables to its end (see
// Options.MaxExports).
func (s *Server) handleExport(w http.ResponseWriter, r *http.Request) error {
	q, err := params(r, "all", "symmetry", "square", "order")
	if err != nil {
		return err
	}
	producer := &turn{turns: s.exports, timeout: s.opts.QueueTimeout}
	if !producer.take(r.Context()) {
		w.Header().Set("Retry-After", "1")
		s.fail(w, r, http.StatusServiceUnavailable, "too many exports at once: try again in a second")
		return nil
	}
	defer producer.give()
	file := r.PathValue("file")
	name, ext, ok := strings.Cut(file, ".")
	i := slices.IndexFunc(exportFormats, func(f export.Format) bool { return f.String() == ext })
	if !ok || i < 0 {
		s.fail(w, r, http.StatusNotFound, fmt.Sprintf("no export %s: want /export/N.FORMAT with FORMAT one of %s", file, strings.Join(export.FormatNames(exportFormats), ", ")))
		return nil
	}
	format := exportFormats[i]
	end := time.Now().Add(s.opts.ExportTimeout)
	ctx, cancel := context.WithDeadline(r.Context(), end)
	defer cancel()
	var all, lex bool
	var b store.Build
	var f store.Filter
	var table *store.ClassTable
	err = s.cat.Read(ctx, func(db *store.DB) (err error) {
		b, f, err = s.selection(ctx, db, name, q, func() error {
			var asked *bool
			switch q.Get("all") {
			case "":
			case "0", "1":
				v := q.Get("all") == "1"
				asked = &v
			default:
				return paramError(fmt.Sprintf("all must be 1 or 0, got %q", q.Get("all")))
			}
			var err error
			all, lex, err = format.Choose(asked, export.Order(q.Get("order")))
			switch {
			case errors.Is(err, export.ErrLexNeedsAll):
				return paramError("order=lex orders every solution: add all=1 (one board per class comes in lexicographic order already)")
			case err != nil:
				return paramError(fmt.Sprintf("order must be class or lex, got %q", q.Get("order")))
			}
			return nil
		})
		if err != nil || !lex {
			return err
		}
		if b.N > maxLexN {
			msg := fmt.Sprintf("the solutions of n=%d are served in class order only: lexicographic order is served up to n = %d", b.N, maxLexN)
			if s.advice.Lex != nil {
				msg += fmt.Sprintf(" (%s gives it)", s.advice.Lex(b.N))
			}
			return paramError(msg)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if lex && r.Method != http.MethodHead {
		// The table is read in a read of its own, after the turn of tables,
		// so that no read is held while the export waits for it.
		if tableBytes(b) > 1<<20 {
			tables := &turn{turns: s.tables, timeout: s.opts.QueueTimeout}
			if !tables.take(ctx) {
				w.Header().Set("Retry-After", "1")
				s.fail(w, r, http.StatusServiceUnavailable, "too many exports in lexicographic order at once: try again in a second")
				return nil
			}
			defer tables.give()
		}
		err = s.cat.Read(ctx, func(db *store.DB) (err error) {
			if err := sameBuild(ctx, db, b); err != nil {
				return err
			}
			table, err = db.ClassTable(ctx, b, f)
			return err
		})
		if err != nil {
			return err
		}
	}
	filename := fmt.Sprintf("queens-%d", b.N)
	if all {
		filename += "-all"
	}
	if lex {
		filename += "-lex"
	}
	if len(f.Symmetry) > 0 {
		filename += "-" + strings.ReplaceAll(symmetryParam(f.Symmetry), ",", "-")
	}
	if f.Square != nil {
		filename += fmt.Sprintf("-r%dc%d", f.Square.Row, f.Square.Col)
	}
	h := w.Header()
	h.Set("Content-Type", format.MediaType())
	h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.%s"`, filename, format))
	h.Set("Cache-Control", "no-store")
	if r.Method == http.MethodHead {
		return nil
	}
	dw := &deadlineWriter{w: w, rc: http.NewResponseController(w), end: end, timeout: s.opts.WriteTimeout,
		ctx: ctx, producer: producer}
	if s.opts.MinExportRate > 0 {
		dw.rate, dw.window = s.opts.MinExportRate, s.opts.RateWindow
		dw.quota = int64(float64(dw.rate) * dw.window.Seconds())
	}
	boards := export.ClassBoards
	if all {
		boards = export.SolutionBoards
	}
	ew := format.New(dw, boards)
	// fail returns err while nothing is sent, to be answered with an error
	// status, and aborts the response after.
	fail := func(err error) error {
		if dw.written == 0 && r.Context().Err() == nil {
			h.Del("Content-Disposition")
			return err
		}
		s.abort(r, err)
		return nil
	}
	if lex {
		// The search reads nothing from the catalog: no read is held while
		// the client reads.
		for l, err := range table.Layouts(ctx, 1) {
			if err == nil {
				err = ew.Write(l)
			}
			if err != nil {
				return fail(err)
			}
		}
		if err := ctx.Err(); err != nil {
			return fail(err)
		}
		dw.closing = true
		if err := ew.Close(); err != nil {
			return fail(err)
		}
		return nil
	}
	var chunk []nqueens.Layout
	chunkSize := int64(s.opts.ExportChunk)
	// Each read takes the next chunkSize classes the filter selects, from
	// the class after the last read: a page whose first class the store
	// finds by arithmetic over the symmetric classes when the filter is by
	// symmetry, so that a filter that selects few classes is read in few
	// reads.
	to := cmp.Or(f.To, int64(b.Unique))
	for from, more := max(f.From, 1), true; more && from <= to; {
		sel := store.Selection{Filter: f, All: all}
		sel.From, sel.To, sel.Limit = from, to, chunkSize
		err := s.cat.Read(ctx, func(db *store.DB) error {
			chunk = chunk[:0]
			if err := sameBuild(ctx, db, b); err != nil {
				return err
			}
			layouts, _, err := db.Layouts(ctx, b, sel)
			if err != nil {
				return err
			}
			for l, err := range layouts {
				if err != nil {
					return err
				}
				chunk = append(chunk, l)
			}
			return nil
		})
		if err != nil {
			return fail(err)
		}
		classes := int64(0)
		for _, l := range chunk {
			if l.Class >= from {
				classes++
				from = l.Class + 1
			}
			if err := ew.Write(l); err != nil {
				return fail(err)
			}
		}
		more = classes == chunkSize
	}
	dw.closing = true
	if err := ew.Close(); err != nil {
		return fail(err)
	}
	return nil
}

// sameBuild returns an error unless the catalog's complete build of b.N
// is b, as an export read it at its start.
func sameBuild(ctx context.Context, db *store.DB, b store.Build) error {
	now, err := db.Complete(ctx, b.N)
	if err != nil {
		return err
	}
	if now.Unique != b.Unique || now.Total != b.Total || !now.FinishedAt.Equal(b.FinishedAt) {
		return fmt.Errorf("n=%d: the catalog's build changed during the export (%s was replaced?)", b.N, db.Path())
	}
	return nil
}

// tableBytes is about the most memory a lexicographic export of b's
// classes holds (store.ClassTable.Layouts): n + 12 bytes a solution where
// it sorts them, n + 4 a class where it searches.
func tableBytes(b store.Build) uint64 {
	n := uint64(b.N)
	if store.LexSearches(b.Total) {
		return b.Unique * (n + 4)
	}
	return b.Total*(n+12) + b.Unique*9
}

// abort ends a response cut short by err, after logging err: net/http
// closes the connection without ending the chunked body, so the client
// sees an incomplete transfer.
func (s *Server) abort(r *http.Request, err error) {
	if s.log != nil {
		why := strings.ReplaceAll(err.Error(), "\n", "; ")
		if r.Context().Err() != nil && !errors.Is(err, errSlowClient) {
			why = "the client went away"
		}
		s.logMu.Lock()
		fmt.Fprintf(s.log, "%s %s: aborted: %s\n", r.Method, r.URL.EscapedPath(), why)
		s.logMu.Unlock()
	}
	panic(http.ErrAbortHandler)
}

// errSlowClient: an export's client took it more slowly than the
// server's minimum rate, and was cut off.
var errSlowClient = errors.New("client too slow")

// deadlineWriter writes to a response, moving its write deadline timeout
// past each write, but never past end, nor, given a window, past the end
// of the window in which the client has yet to take quota bytes. A
// window starts with the first write after the last one ends (or after
// quota bytes were taken in it): a client is held to the rate only while
// the server has something to write. It gives the producer's turn back
// while it writes and takes it again after, unless closing (the export's
// last bytes, after which it produces nothing); an export that cannot
// take it again within the queue's timeout stops with errNoTurn.
type deadlineWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	end     time.Time
	timeout time.Duration
	written int64

	ctx      context.Context
	producer *turn
	closing  bool

	rate     int           // bytes a second, the minimum
	window   time.Duration // 0: no minimum rate
	quota    int64         // bytes the client must take in a window
	winEnd   time.Time     // the end of the current window
	winBytes int64         // bytes taken in the current window
}

func (d *deadlineWriter) Write(p []byte) (int, error) {
	now := time.Now()
	if d.window > 0 && (!now.Before(d.winEnd) || d.winBytes >= d.quota) {
		d.winEnd, d.winBytes = now.Add(d.window), 0
	}
	deadline := now.Add(d.timeout)
	if deadline.After(d.end) {
		deadline = d.end
	}
	slow := d.window > 0 && d.winEnd.Before(deadline)
	if slow {
		deadline = d.winEnd
	}
	d.producer.give()
	// An httptest recorder has no deadline to move: ignore that.
	d.rc.SetWriteDeadline(deadline)
	n, err := d.w.Write(p)
	d.written += int64(n)
	d.winBytes += int64(n)
	if err != nil && slow && !time.Now().Before(deadline) {
		err = fmt.Errorf("%w: it took %s in %s, under the minimum of %d bytes/s (%v)", errSlowClient, phrase.Plural(d.winBytes, "byte"), phrase.Duration(d.window), d.rate, err)
	}
	if err == nil && !d.closing && !d.producer.take(d.ctx) {
		err = cmp.Or(d.ctx.Err(), errNoTurn)
	}
	return n, err
}

// errNoTurn: an export waited for its turn to produce more for longer
// than the queue's timeout, and was cut off.
var errNoTurn = errors.New("no export turn came free in time: too many exports at once")
