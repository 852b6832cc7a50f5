package export

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/phrase"
)

// Pictures: SVG draws one board as a standalone image; HTML draws the
// classes or solutions of a board as a page of small boards. Both are self-contained: no
// script, font, stylesheet or image is loaded from anywhere.

// Board colours and the queen, shared by SVG and HTML.
const (
	lightSquare = "#f0d9b5"
	darkSquare  = "#b58863"
	queenColour = "#1d1d1b"
	// queenPath is a crown in a 1x1 square: five points over a band.
	queenPath = "M.18 .78 .12 .34 .3 .52 .38 .24 .5 .46 .62 .24 .7 .52 .88 .34 .82 .78Z" +
		"M.16 .82H.84V.9H.16Z"
)

// svgDefs appends the pattern of the squares and the queen symbol; ids
// end with suffix so that several can share a page. The top left square is
// light, as a8 is on a chessboard seen from White.
func svgDefs(buf []byte) []byte {
	buf = append(buf, `<defs><pattern id="sq" width="2" height="2" patternUnits="userSpaceOnUse">`...)
	buf = append(buf, `<rect width="2" height="2" fill="`+lightSquare+`"/>`...)
	buf = append(buf, `<rect x="1" width="1" height="1" fill="`+darkSquare+`"/><rect y="1" width="1" height="1" fill="`+darkSquare+`"/></pattern>`...)
	buf = append(buf, `<symbol id="q" viewBox="0 0 1 1"><path d="`+queenPath+`" fill="`+queenColour+`" stroke="#fff" stroke-width=".03"/></symbol></defs>`...)
	return buf
}

// SVGDefs returns the <defs> of a board: the pattern of the squares
// (id "sq") and the queen symbol (id "q"). A page of inline boards drawn
// as the HTML export draws them (a rect filled with url(#sq), a <use
// href="#q"> per queen) holds it once, in a hidden <svg>.
func SVGDefs() string { return string(svgDefs(nil)) }

// appendQueens appends the board's squares and a queen per row, in the
// coordinates of a viewBox of n by n.
func appendQueens(buf []byte, cols []int32) []byte {
	n := strconv.Itoa(len(cols))
	buf = append(buf, `<rect width="`+n+`" height="`+n+`" fill="url(#sq)"/>`...)
	for r, c := range cols {
		buf = append(buf, `<use href="#q" x="`...)
		buf = strconv.AppendInt(buf, int64(c), 10)
		buf = append(buf, `" y="`...)
		buf = strconv.AppendInt(buf, int64(r), 10)
		buf = append(buf, `" width="1" height="1"/>`...)
	}
	return buf
}

// writeBoardSVG writes the board whose queen in row r is in column cols[r]
// as a standalone SVG image, 40 pixels a square up to 1000 pixels wide,
// titled title.
func writeBoardSVG(w io.Writer, cols []int32, title string) error {
	if len(cols) == 0 {
		return errors.New("svg: empty board")
	}
	n := len(cols)
	px := max(min(40*n, 1000), n)
	buf := make([]byte, 0, 512+40*n)
	buf = fmt.Appendf(buf, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" shape-rendering="crispEdges">`+"\n", px, px, n, n)
	buf = append(buf, "<title>"...)
	buf = appendEscaped(buf, title)
	buf = append(buf, "</title>\n"...)
	buf = svgDefs(buf)
	buf = append(buf, '\n')
	buf = appendQueens(buf, cols)
	buf = append(buf, "\n</svg>\n"...)
	_, err := w.Write(buf)
	return err
}

// appendEscaped appends s escaped for XML text and attributes.
func appendEscaped(buf []byte, s string) []byte {
	for _, r := range s {
		switch r {
		case '&':
			buf = append(buf, "&amp;"...)
		case '<':
			buf = append(buf, "&lt;"...)
		case '>':
			buf = append(buf, "&gt;"...)
		case '"':
			buf = append(buf, "&quot;"...)
		default:
			buf = append(buf, string(r)...)
		}
	}
	return buf
}

// describe says what a layout is, for titles and captions: its class
// only where it is known (not 0).
func describe(l nqueens.Layout) string {
	if l.Class == 0 {
		return fmt.Sprintf("n=%d: %s, orbit %d, %s", l.N(), l.Placement, l.Symmetry.Orbit(), l.Symmetry.Words())
	}
	return fmt.Sprintf("n=%d class %d: %s, orbit %d, %s", l.N(), l.Class, l.Placement, l.Symmetry.Orbit(), l.Symmetry.Words())
}

// svgWriter writes one board, the first layout it is given, as a standalone SVG
// image (see writeBoardSVG); it is an error to give it a second one.
type svgWriter struct {
	w     io.Writer
	count int
	err   error
}

// newSVG returns an SVG writer to w. The caller must call Close.
func newSVG(w io.Writer) *svgWriter { return &svgWriter{w: w} }

// Write draws l; only one layout fits in an image, so a second Write
// returns an error.
func (s *svgWriter) Write(l nqueens.Layout) error {
	if s.err != nil {
		return s.err
	}
	s.count++
	if s.count > 1 {
		s.err = errors.New("svg draws one board, not two")
		return s.err
	}
	var a [nqueens.MaxN]int32
	s.err = writeBoardSVG(s.w, columns(&a, l.Placement), describe(l))
	return s.err
}

// Close reports the first error; an SVG of no board is an error.
func (s *svgWriter) Close() error {
	if s.err == nil && s.count == 0 {
		s.err = errors.New("svg: no board to draw")
	}
	return s.err
}

// htmlWriter writes one self-contained page showing every layout it is given as
// a small board with its class number, orbit and symmetry, in a grid that
// fills the window, for boards of up to MaxHTMLN (FormatHTML.Check). Its
// heading, lede and closing count say what the boards are (Boards): "Classes
// of n = 8 ... Each board is the canonical representative of its class
// ... 12 classes." or "Solutions of n = 8 ... 92 solutions.". Each board is
// a <figure class="board"> holding an <svg>. The page holds no script and
// loads nothing.
type htmlWriter struct {
	base
	n      int
	boards Boards
}

// Boards says what the layouts given to a writer are, for the formats
// that say it in words (the heading and lede of html): each its class's
// canonical representative (ClassBoards: an export of classes, a sample
// of classes), or solutions, any member of their class (SolutionBoards:
// an export of every solution, a sample of solutions, the completions of
// a partial board).
type Boards uint8

// What the boards of a writer are.
const (
	ClassBoards Boards = iota
	SolutionBoards
)

// nouns returns the boards' noun, in the singular and the plural.
func (b Boards) nouns() (one, many string) {
	if b == SolutionBoards {
		return "solution", "solutions"
	}
	return "class", "classes"
}

// newHTML returns an HTML writer to w of boards b. The caller must call
// Close.
func newHTML(w io.Writer, b Boards) *htmlWriter { return &htmlWriter{base: newBase(w), boards: b} }

// Write adds one board to the page.
func (h *htmlWriter) Write(l nqueens.Layout) error {
	if h.count == 0 {
		h.n = l.N()
		if h.err = FormatHTML.Check(h.n); h.err != nil {
			return h.err
		}
		h.buf = h.head(h.buf, l)
	}
	h.count++
	size := strconv.Itoa(l.N())
	h.buf = append(h.buf, `<figure class="board"><svg viewBox="0 0 `+size+` `+size+`" role="img" aria-label="`...)
	h.buf = appendEscaped(h.buf, describe(l))
	h.buf = append(h.buf, `">`...)
	var a [nqueens.MaxN]int32
	h.buf = appendQueens(h.buf, columns(&a, l.Placement))
	h.buf = append(h.buf, `</svg>`...)
	h.buf = AppendCaption(h.buf, l)
	h.buf = append(h.buf, "</figure>\n"...)
	return h.put()
}

// AppendCaption appends to buf the HTML caption of a board of the class of
// l, as the HTML export and the pages of nqueens serve draw it under the
// board: <figcaption> with the class number in bold (none where the class
// is not known, 0), its orbit and, for a symmetric class, the symmetry's
// name.
func AppendCaption(buf []byte, l nqueens.Layout) []byte {
	buf = append(buf, `<figcaption>`...)
	if l.Class > 0 {
		buf = append(buf, `<b>`...)
		buf = strconv.AppendInt(buf, l.Class, 10)
		buf = append(buf, `</b> `...)
	}
	buf = append(buf, `orbit `...)
	buf = strconv.AppendInt(buf, int64(l.Symmetry.Orbit()), 10)
	if l.Symmetry != nqueens.SymNone {
		// The names are fixed words (rot180, rot90, full): nothing to escape.
		buf = append(buf, ` <span class="sym">`...)
		buf = append(buf, l.Symmetry.String()...)
		buf = append(buf, `</span>`...)
	}
	return append(buf, `</figcaption>`...)
}

// head appends the page up to the first board, l: its title, heading and
// lede say what the boards are, and the lede explains the number under
// each only if l's class is known.
func (h *htmlWriter) head(buf []byte, l nqueens.Layout) []byte {
	n := strconv.Itoa(h.n)
	what := "Classes"
	if h.boards == SolutionBoards {
		what = "Solutions"
	}
	buf = append(buf, `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>N-Queens: `+strings.ToLower(what)+` of n=`+n+`</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;background:#fafafa}
h1{font-size:1.4em;margin:0 0 .2em}
p.lede{margin:0 0 1em;color:#555}
main{display:grid;grid-template-columns:repeat(auto-fill,minmax(120px,1fr));gap:14px}
figure.board{margin:0;background:#fff;border:1px solid #ddd;border-radius:6px;padding:6px;box-shadow:0 1px 2px #0001}
figure.board svg{display:block;width:100%;height:auto;aspect-ratio:1}
figcaption{text-align:center;font-size:12px;margin-top:4px;color:#444}
figcaption b{color:#000}
.sym{background:#ffe08a;border-radius:3px;padding:0 3px}
</style></head>
<body>
<svg width="0" height="0" style="position:absolute" aria-hidden="true">`...)
	buf = svgDefs(buf)
	buf = append(buf, `</svg>
<h1>`+what+` of n = `+n+`</h1>
<p class="lede">`...)
	if h.boards == SolutionBoards {
		buf = append(buf, `Each board is a solution, row 0 at the top: one of the rotations and reflections that make
its class, not necessarily the class's canonical representative.`...)
	} else {
		buf = append(buf, `Each board is the canonical representative of its class of solutions: the lexicographically
smallest of its 8 rotations and reflections, row 0 at the top.`...)
	}
	orbit := "\nThe orbit"
	if l.Class > 0 {
		buf = append(buf, "\nThe number is its class's number in the catalog;"...)
		orbit = " the orbit"
	}
	buf = append(buf, orbit+` is how many solutions the class holds: 8, or fewer for a symmetric class
(4 with <span class="sym">rot180</span>, 2 with <span class="sym">rot90</span>, 1 with <span class="sym">full</span>).</p>
<main>
`...)
	return buf
}

// Close ends the page, with the number of its boards, and flushes. A page
// of no boards says so.
func (h *htmlWriter) Close() error {
	if h.err != nil {
		return h.err
	}
	one, many := h.boards.nouns()
	if h.count == 0 {
		return h.finish(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>N-Queens: no ` + many + `</title></head>
<body><p>No ` + many + ` to show.</p></body></html>
`)
	}
	return h.finish(`</main>
<p class="lede">` + phrase.Plural(h.count, one) + `.</p>
</body></html>
`)
}
