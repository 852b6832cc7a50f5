package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/store"
	"github.com/nqueens/nqueens/verify"
)

// What the command says of its work, as opposed to the layouts (package
// export): the tables of builds and of counts, the lines of a
// verification, the words for a filter of classes, and their JSON forms.
// Each table has one row per n, right-aligned; the JSON of a row holds its
// columns and may hold more (stats --json adds when a build started and
// finished, and its work units).

// secondsColumn is the format of the seconds column of every table: to
// the millisecond, as a catalog records a build's seconds.
const secondsColumn = "%.3f"

// seconds words a time in seconds for a message (phrase.Duration): "310
// ms", "1 min 4 s".
func seconds(secs float64) string {
	return phrase.Duration(time.Duration(secs * float64(time.Second)))
}

// writeJSON writes v as indented JSON and a newline: the --json form of
// every table.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeJSONLine writes v as compact JSON and a newline: one record of a
// stream.
func writeJSONLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// writeBuilds writes builds as a table: the counts of each n, whether its
// build is complete (or how far it got, or which shard it is), and its
// seconds.
func writeBuilds(w io.Writer, builds []store.Build) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "n\ttotal\tunique\torbit8\torbit4\torbit2\torbit1\tcomplete\tseconds\tform\t")
	for _, b := range builds {
		complete := "yes"
		if !b.Complete {
			complete = fmt.Sprintf("no (%d/%d)", b.UnitsDone, b.UnitsTotal)
		}
		if !b.Shard.IsWhole() {
			complete = "shard " + b.Shard.String() + ": " + complete
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t"+secondsColumn+"\t%s\t\n", b.N, b.Total, b.Unique, b.Orbit8, b.Orbit4, b.Orbit2, b.Orbit1, complete, b.Seconds, b.Form)
	}
	return tw.Flush()
}

// countRow is one count as count --json prints it, its keys in this
// order: n, the counts (total, unique, orbit8 to orbit1), seconds, engine,
// device.
type countRow struct {
	N int `json:"n"`
	nqueens.Counts
	Seconds float64 `json:"seconds"`
	// Engine and Device say what counted; empty for a combined count.
	Engine string `json:"engine,omitempty"`
	Device string `json:"device,omitempty"`
}

// countOutput is how count prints its results: a table, JSON, or the
// bare totals (--total).
type countOutput int

const (
	countTable countOutput = iota
	countJSON
	countTotal
)

// writeCounts writes the results of counts in the form out: a table, a
// JSON array, or each total alone on a line, the answer LeetCode 52 asks
// for.
func writeCounts(w io.Writer, results []count.Result, out countOutput) error {
	switch out {
	case countTotal:
		var b []byte
		for _, r := range results {
			b = fmt.Appendf(b, "%d\n", r.Total)
		}
		_, err := w.Write(b)
		return err
	case countJSON:
		rows := make([]countRow, len(results))
		for i, r := range results {
			rows[i] = countRow{N: r.N, Counts: r.Counts, Seconds: r.Seconds, Engine: r.Engine, Device: r.Device}
		}
		return writeJSON(w, rows)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "n\ttotal\tunique\torbit8\torbit4\torbit2\torbit1\tseconds\t")
	for _, r := range results {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t%d\t%d\t"+secondsColumn+"\t\n", r.N, r.Total, r.Unique, r.Orbit8, r.Orbit4, r.Orbit2, r.Orbit1, r.Seconds)
	}
	return tw.Flush()
}

// writeVerify writes the lines of a verification's text form for r: "n=8
// ok: 92 solutions in 12 classes", or a line for each problem.
func writeVerify(w io.Writer, r verify.Report) error {
	var b strings.Builder
	switch {
	case r.N == 0:
		for _, p := range r.Problems {
			fmt.Fprintf(&b, "catalog MISMATCH: %s\n", p)
		}
	case r.OK && r.Shard != nil:
		fmt.Fprintf(&b, "n=%d shard %s ok: %s in %s (a shard: the published counts apply once merged)\n", r.N, r.Shard, phrase.Plural(r.Total, "solution"), phrase.Plural(r.Unique, "class"))
	case r.OK:
		fmt.Fprintf(&b, "n=%d ok: %s in %s\n", r.N, phrase.Plural(r.Total, "solution"), phrase.Plural(r.Unique, "class"))
	}
	if r.N != 0 {
		for _, p := range r.Problems {
			fmt.Fprintf(&b, "n=%d MISMATCH: %s\n", r.N, p)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// filterWords says which classes f chooses, for a message: "classes of
// symmetry rot90 or full with a queen at row 0, column 3 among classes
// 3-30".
func filterWords(f store.Filter) string {
	names := make([]string, len(f.Symmetry))
	for i, s := range f.Symmetry {
		names[i] = s.String()
	}
	out := "classes"
	if len(names) > 0 {
		out += " of symmetry " + strings.Join(names, " or ")
	}
	if f.Square != nil {
		out += fmt.Sprintf(" with a queen at row %d, column %d", f.Square.Row, f.Square.Col)
	}
	if f.From > 0 || f.To > 0 {
		out += fmt.Sprintf(" among classes %d-%d", max(f.From, 1), f.To)
	}
	return out
}
