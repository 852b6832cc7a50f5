package export

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/phrase"
)

// Format is one output format. Each use of the formats has its list:
// Formats for layouts, CompletionFormats for the completions of a partial
// board, SolutionFormats for a bare solution, PuzzleFormats for puzzles
// and LookupFormats for what a lookup finds. ParseFormat reads a format's
// name for one use; the zero Format is none. A Format knows its limits
// (Check) and makes its writers, which cannot fail to be made: each
// panics only when given a Format that is not of its use, which
// ParseFormat with that use's list rules out.
type Format uint8

// The formats, named by String.
const (
	FormatText     Format = iota + 1 // words or columns, a record a line
	FormatJSON                       // a JSON array of objects, an object a line
	FormatNDJSON                     // newline-delimited JSON: an object a line
	FormatCSV                        // a header row, then a row a record
	FormatLeetCode                   // LeetCode 51's array of string grids
	FormatGrid                       // text grids of 'Q' and '.'
	FormatSVG                        // an SVG image of one board
	FormatHTML                       // an HTML page of small boards
	FormatDataset                    // puzzles as a reasoning dataset's records
	FormatParquet                    // an Apache Parquet file: a row a record
)

// formatFacts are each format's name (String, as ParseFormat reads it),
// the extension of its files (Extension: the first a file of its output
// is named with; extensions lists every one OutputFormat reads) and its
// media type, as a Content-Type header names it (MediaType).
var formatFacts = [...]struct{ name, ext, mediaType string }{
	FormatText:     {"text", ".txt", "text/plain; charset=utf-8"},
	FormatJSON:     {"json", ".json", "application/json"},
	FormatNDJSON:   {"ndjson", ".ndjson", "application/x-ndjson"},
	FormatCSV:      {"csv", ".csv", "text/csv; charset=utf-8"},
	FormatLeetCode: {"leetcode", ".json", "application/json"},
	FormatGrid:     {"grid", ".txt", "text/plain; charset=utf-8"},
	FormatSVG:      {"svg", ".svg", "image/svg+xml"},
	FormatHTML:     {"html", ".html", "text/html; charset=utf-8"},
	FormatDataset:  {"dataset", ".ndjson", "application/x-ndjson"},
	FormatParquet:  {"parquet", ".parquet", "application/vnd.apache.parquet"},
}

// valid reports whether f is a format.
func (f Format) valid() bool { return f > 0 && int(f) < len(formatFacts) }

// String returns the format's name, as ParseFormat reads it ("json"), or
// "Format(k)" for a value that is no format.
func (f Format) String() string {
	if f.valid() {
		return formatFacts[f].name
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// MediaType returns the media type of the format's output, as a
// Content-Type header names it ("text/csv; charset=utf-8"), or "" for a
// value that is no format.
func (f Format) MediaType() string {
	if f.valid() {
		return formatFacts[f].mediaType
	}
	return ""
}

// The lists of the formats of each use, which ParseFormat and
// OutputFormat read a format from.
var (
	// Formats lists the formats of layouts (New), in the order the CLI
	// documents them.
	Formats = []Format{FormatJSON, FormatNDJSON, FormatCSV, FormatLeetCode, FormatGrid, FormatSVG, FormatHTML, FormatParquet}

	// CompletionFormats lists the formats of a list of completions (nqueens
	// complete --list): text, one placement a line as its columns (and its
	// class when known), and the formats of layouts (Formats) but parquet,
	// as a list of completions is written board by board as the boards come.
	CompletionFormats = []Format{FormatText, FormatJSON, FormatNDJSON, FormatCSV, FormatLeetCode, FormatGrid, FormatSVG, FormatHTML}

	// SolutionFormats lists the formats of Format.WriteSolution, in the order
	// the CLI documents them:
	//
	//   - text: the 0-based column of the queen in each row, top row first,
	//     separated by spaces on one line;
	//   - json and ndjson: the object {"n":8,"placement":[...]} on one line
	//     (JSON's object minus class, orbit and symmetry);
	//   - csv: the header "n,placement", then n and the columns separated by
	//     spaces (CSV's row minus class, orbit and symmetry);
	//   - leetcode: the board in LeetCode 51's form, ["..Q.",...];
	//   - grid: the board a row a line, 'Q' for the queen and '.' elsewhere;
	//   - svg: the board as an image, drawn as the svg format of layouts
	//     draws it.
	//
	// Each ends with a newline.
	SolutionFormats = []Format{FormatText, FormatJSON, FormatNDJSON, FormatCSV, FormatLeetCode, FormatGrid, FormatSVG}

	// PuzzleFormats lists the formats of Format.NewPuzzles:
	//
	//   - text: each puzzle as a heading, the board drawn a row a line with Q
	//     for a given queen and _ for an empty square, separated by spaces,
	//     and the solution; a blank line between puzzles;
	//   - json: an array of objects, one a line;
	//   - ndjson: the same objects, one a line, with no array;
	//   - csv: a header row (n,givens,difficulty,nodes,class,symmetry,board,
	//     solution), then a row a puzzle;
	//   - dataset: a JSON object a line for reasoning datasets (see
	//     DatasetRecord), the boards drawn as text;
	//   - parquet: a Parquet file of a row a puzzle, the object's keys its
	//     typed columns (given a list of row and column pairs), a key the
	//     object leaves out a null.
	//
	// The object is, with class left out when it is not known:
	//
	//	{"n":8,"given":[[3,7],[5,6],[6,2]],"solution":[3,0,4,7,1,6,2,5],"class":5,"symmetry":"none","givens":3,"difficulty":"medium","nodes":23}
	//
	// The nodes are those the completion search visits on the puzzle (queens
	// placed in its empty rows) to find the solution and prove it is the only
	// one; the difficulty is graded by them (package partial/puzzle).
	PuzzleFormats = []Format{FormatText, FormatJSON, FormatNDJSON, FormatCSV, FormatDataset, FormatParquet}

	// LookupFormats lists the formats of Format.WriteFound.
	LookupFormats = []Format{FormatText, FormatJSON}
)

// ParseFormat returns the format of allowed named name; names are not
// case-sensitive ("CSV" is csv), and jsonl, the name most dataset tools
// use, is ndjson. For a name not in allowed it returns an error naming the
// formats allowed, in their order.
func ParseFormat(name string, allowed []Format) (Format, error) {
	if strings.EqualFold(name, "jsonl") {
		name = FormatNDJSON.String()
	}
	for _, f := range allowed {
		if strings.EqualFold(name, f.String()) {
			return f, nil
		}
	}
	return 0, fmt.Errorf("unknown format %s: must be one of %s", phrase.Quote(name), strings.Join(FormatNames(allowed), ", "))
}

// extensions maps a file name's extension to the formats whose output a
// file of that name holds, the one a file of that name gets first. A
// .txt file holds any format of plain lines; .json any JSON document,
// LeetCode's array of grids included; .jsonl and .ndjson a record a line,
// the puzzles' dataset records included.
var extensions = map[string][]Format{
	".json":   {FormatJSON, FormatLeetCode},
	".ndjson": {FormatNDJSON, FormatDataset},
	".jsonl":  {FormatNDJSON, FormatDataset},
	".csv":    {FormatCSV},
	".svg":    {FormatSVG},
	".html":   {FormatHTML},
	".htm":    {FormatHTML},
	".txt":    {FormatGrid, FormatText, FormatLeetCode},

	".parquet": {FormatParquet},
}

// OutputFormat returns the format of an output to the file path, for a
// use whose formats are allowed: the format named (ParseFormat), if name
// is not ""; else the one path's extension names, compared without case:
// def if a file of that extension may hold it, else the first of .json:
// json, .ndjson or .jsonl: ndjson, .csv, .svg, .html, .txt: grid,
// .parquet, that is allowed; else def. A name that path's extension
// contradicts (--format csv -o q.json) is an error that says so, and so is
// an extension whose format the use does not allow; an extension not
// listed, or none (stdout is ""), names nothing.
func OutputFormat(name, path string, allowed []Format, def Format) (Format, error) {
	var named Format
	if name != "" {
		f, err := ParseFormat(name, allowed)
		if err != nil {
			return 0, err
		}
		named = f
	}
	ext := strings.ToLower(filepath.Ext(path))
	fits, listed := extensions[ext]
	if !listed || path == "-" {
		if named != 0 {
			return named, nil
		}
		return def, nil
	}
	if named != 0 {
		if !slices.Contains(fits, named) {
			return 0, fmt.Errorf("--format %s writes no %s file: name the file %s, or leave out --format", named, ext, exampleName(path, named))
		}
		return named, nil
	}
	if slices.Contains(fits, def) {
		return def, nil
	}
	for _, f := range fits {
		if slices.Contains(allowed, f) {
			return f, nil
		}
	}
	return 0, fmt.Errorf("a %s file is none of the formats here (%s): give --format, or another file name", ext, strings.Join(FormatNames(allowed), ", "))
}

// KnownExtension reports whether the extension ext (".csv") names a
// format, compared without case, as OutputFormat reads it.
func KnownExtension(ext string) bool {
	_, ok := extensions[strings.ToLower(ext)]
	return ok
}

// exampleName returns path with the extension of f's files.
func exampleName(path string, f Format) string {
	if ext := f.Extension(); ext != "" {
		return strings.TrimSuffix(path, filepath.Ext(path)) + ext
	}
	return path
}

// Extension returns the extension of a file of f's output, as OutputFormat
// reads file names: ".json" for json and leetcode, ".ndjson" for ndjson and
// dataset, ".csv", ".svg", ".html", and ".txt" for grid and text; "" for
// a Format that is none.
func (f Format) Extension() string {
	if f.valid() {
		return formatFacts[f].ext
	}
	return ""
}

// FormatNames returns the names of formats, in their order.
func FormatNames(formats []Format) []string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.String()
	}
	return names
}

// maxHTMLN is the largest board HTML draws: a page of the 45,752 classes of
// n = 14 is about 20 MB; past that no browser shows it well.
const maxHTMLN = 14

// maxDrawN is the largest board drawn in the formats that draw every
// square (see Format.Draws): n*n of them, a megabyte at n = 1000.
const maxDrawN = 1000

// Check returns an error saying which boards f draws, and which formats
// to use instead, if f does not draw boards of n: html stops at MaxHTMLN,
// and the formats that draw every square (Draws) at MaxDrawN. It returns
// nil for every other format and n.
func (f Format) Check(n int) error {
	switch {
	case f == FormatHTML && n > maxHTMLN:
		return fmt.Errorf("format html draws boards up to n=%d, not n=%d: use csv or ndjson", maxHTMLN, n)
	case f.Draws() && n > maxDrawN:
		return fmt.Errorf("format %s draws n*n squares, so it stops at n = %d; use text, json, ndjson or csv for n = %d", f, maxDrawN, n)
	}
	return nil
}

// Binary reports whether f's output is binary, no text (parquet): a
// terminal shows it as noise.
func (f Format) Binary() bool { return f == FormatParquet }

// OneBoard reports whether f draws a single board (svg).
func (f Format) OneBoard() bool { return f == FormatSVG }

// ForJudges reports whether f is a judge's (leetcode, grid): the answer a
// judge expects is every solution in lexicographic order, which Choose
// gives unless asked otherwise.
func (f Format) ForJudges() bool { return f == FormatLeetCode || f == FormatGrid }

// Order is the order of an export's solutions: OrderClass, class by class
// (each class's members in lexicographic order), or OrderLex, every
// solution in lexicographic order, as the plain search finds them.
type Order string

// The orders of an export.
const (
	OrderClass Order = "class"
	OrderLex   Order = "lex"
)

// ErrLexNeedsAll is Choose's error for the lexicographic order of one
// board per class, which has no meaning beyond the class order (classes
// come in lexicographic order already).
var ErrLexNeedsAll = errors.New("lexicographic order is of every solution")

// Choose says what an export in f writes: every solution (all) or one
// board per class, and in which order. all and order are what the caller
// asked for, nil and "" where it did not say. The judges' formats
// (ForJudges) give every solution, in lexicographic order, unless told
// otherwise; the others one board per class, or every solution class by
// class. An order other than class or lex is an error naming them, and
// lex without every solution is ErrLexNeedsAll.
func (f Format) Choose(all *bool, order Order) (every bool, lex bool, err error) {
	every = f.ForJudges()
	if all != nil {
		every = *all
	}
	switch order {
	case "":
		return every, every && f.ForJudges(), nil
	case OrderClass:
		return every, false, nil
	case OrderLex:
		if !every {
			return every, false, ErrLexNeedsAll
		}
		return every, true, nil
	}
	return every, false, fmt.Errorf("order %s: want class or lex", phrase.Quote(string(order)))
}

// Draws reports whether f draws every square of a board (leetcode, grid,
// svg), so that it stops at n = MaxDrawN (see Check).
func (f Format) Draws() bool {
	return f == FormatLeetCode || f == FormatGrid || f == FormatSVG
}

// New returns a writer of layouts in f to w, layouts that are boards b
// (which html says in words, and the other formats need not): for one of
// Formats, the writer of that format (NewJSON, NewNDJSON, NewCSV,
// NewLeetCode, NewGrid, NewSVG, NewHTML, or for parquet a Parquet file of
// a row a layout, see the Parquet section of this package); for text, the completions' list, one layout a line as
// its columns separated by spaces and " (class K)" when its class is
// known, each line written through to w as it comes, so that a reader of
// a stream of boards sees each board's completions at once. The caller
// must call Close. New panics if f is neither text nor one of Formats.
func (f Format) New(w io.Writer, b Boards) Writer {
	switch f {
	case FormatJSON:
		return newJSON(w)
	case FormatNDJSON:
		return newNDJSON(w)
	case FormatCSV:
		return newCSV(w)
	case FormatLeetCode:
		return newLeetCode(w)
	case FormatGrid:
		return newGrid(w)
	case FormatSVG:
		return newSVG(w)
	case FormatHTML:
		return newHTML(w, b)
	case FormatParquet:
		return newParquetLayouts(w)
	case FormatText:
		return &framed[nqueens.Layout]{base: base{w: bufio.NewWriter(w), through: true}, record: func(buf []byte, l nqueens.Layout) []byte {
			var a [nqueens.MaxN]int32
			buf = appendCols(buf, columns(&a, l.Placement), ' ')
			if l.Class > 0 {
				buf = fmt.Appendf(buf, " (class %d)", l.Class)
			}
			return append(buf, '\n')
		}}
	}
	panic(fmt.Sprintf("export: %v is not a format of layouts", f))
}
