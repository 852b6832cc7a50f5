package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/canonical"
	"github.com/nqueens/nqueens/export"
	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/store"
)

// pageSize is how many classes a page of /n/{n} shows.
const pageSize = 100

// exportFormats are the formats of /export/{n}.{format}: those of nqueens
// export that stream (svg and html draw boards, one or a page, and are
// served as class pages instead).
var exportFormats = []export.Format{export.FormatJSON, export.FormatNDJSON, export.FormatCSV, export.FormatLeetCode, export.FormatGrid}

// symmetries are the filters the class pages offer.
var symmetries = []nqueens.Symmetry{nqueens.SymNone, nqueens.SymRot180, nqueens.SymRot90, nqueens.SymFull}

// page is what every page's layout needs.
type page struct {
	Title string
}

// board is one board as a page draws it.
type board struct {
	nqueens.Layout
	Cols  []int
	Label string // what the board is, for screen readers
	Note  string // a caption under the board beside the class, if any
	// Labeled draws the numbers of the rows and columns around the board;
	// Marked lists the rows whose queens are marked (two that attack each
	// other); Yours marks the board a user asked about.
	Labeled bool
	Marked  []int
	Yours   bool
	// Px, if not 0, is the board's width and height in pixels (a page's
	// ?size=); 0 lets the stylesheet size it.
	Px int
}

func newBoard(l nqueens.Layout) board {
	return board{Layout: l, Cols: l.Placement.Cols(),
		Label: fmt.Sprintf("n=%d class %d: %s, orbit %d, %s", l.N(), l.Class, l.Placement, l.Symmetry.Orbit(), l.Symmetry.Words())}
}

// SVG draws the board as an inline <svg> whose squares and queen come
// from the page's export.SVGDefs: built here rather than by the template,
// which would escape each of its numbers (a page of 100 boards of n = 17
// holds 1,700 queens).
func (b board) SVG() template.HTML {
	n := strconv.Itoa(b.N())
	buf := make([]byte, 0, 160+48*len(b.Cols))
	if b.Labeled {
		// Room above and to the left for the numbers of the columns and rows.
		m := strconv.Itoa(b.N() + 1)
		buf = append(buf, `<svg viewBox="-1 -1 `+m+` `+m+`" role="img" aria-label="`...)
	} else {
		buf = append(buf, `<svg viewBox="0 0 `+n+` `+n+`" role="img" aria-label="`...)
	}
	buf = append(buf, template.HTMLEscapeString(b.Label)...)
	if b.Px > 0 {
		px := strconv.Itoa(b.Px)
		buf = append(buf, `" width="`+px+`" height="`+px...)
	}
	buf = append(buf, `"><rect width="`+n+`" height="`+n+`" fill="url(#sq)"/>`...)
	if b.Labeled {
		for k := range b.N() {
			i := strconv.Itoa(k)
			buf = append(buf, `<text class="label" x="`+i+`.5" y="-.3" font-size=".5" text-anchor="middle">`+i+`</text>`...)
			buf = append(buf, `<text class="label" x="-.5" y="`+i+`.68" font-size=".5" text-anchor="middle">`+i+`</text>`...)
		}
	}
	for _, r := range b.Marked {
		buf = append(buf, `<rect class="attack" x="`...)
		buf = strconv.AppendInt(buf, int64(b.Cols[r]), 10)
		buf = append(buf, `" y="`...)
		buf = strconv.AppendInt(buf, int64(r), 10)
		buf = append(buf, `" width="1" height="1" fill="#e53935" fill-opacity=".7"/>`...)
	}
	for r, c := range b.Cols {
		buf = append(buf, `<use href="#q" x="`...)
		buf = strconv.AppendInt(buf, int64(c), 10)
		buf = append(buf, `" y="`...)
		buf = strconv.AppendInt(buf, int64(r), 10)
		buf = append(buf, `" width="1" height="1"/>`...)
	}
	return template.HTML(append(buf, "</svg>"...))
}

// Figures draws the boards of the page, each as appendFigure does, a line
// each. Built here for the reason board.SVG is: a page holds 100 boards,
// and the template's reflection over each field of each board took half
// the server's time under load.
func (d classesPageData) Figures() template.HTML {
	var buf []byte
	for _, b := range d.Boards {
		buf = append(b.appendFigure(buf), '\n')
	}
	return template.HTML(buf)
}

// appendFigure appends the board as a page of classes lists it: its SVG
// linking to its class page, captioned with its number, orbit and
// symmetry.
func (b board) appendFigure(buf []byte) []byte {
	buf = append(buf, `<figure class="board"><a href="/n/`...)
	buf = strconv.AppendInt(buf, int64(b.N()), 10)
	buf = append(buf, '/')
	buf = strconv.AppendInt(buf, b.Class, 10)
	buf = append(buf, `">`...)
	buf = append(buf, b.SVG()...)
	buf = append(buf, `</a>`...)
	buf = export.AppendCaption(buf, b.Layout)
	return append(buf, `</figure>`...)
}

// parsePages parses the templates: each page is templates/NAME.html with
// templates/layout.html around it.
func parsePages() map[string]*template.Template {
	funcs := template.FuncMap{
		"defs":    func() template.HTML { return template.HTML(export.SVGDefs()) },
		"symtext": nqueens.Symmetry.Words,
		"thousand": func(k any) string {
			switch k := k.(type) {
			case int:
				return phrase.Count(k)
			case int64:
				return phrase.Count(k)
			case uint64:
				return phrase.Count(k)
			}
			return fmt.Sprint(k)
		},
		"plural": func(k any, noun string) string {
			switch k := k.(type) {
			case int:
				return phrase.Plural(k, noun)
			case int64:
				return phrase.Plural(k, noun)
			case uint64:
				return phrase.Plural(k, noun)
			}
			return fmt.Sprint(k, " ", noun)
		},
		"inc": func(k int64) int64 { return k + 1 },
		"dec": func(k int64) int64 { return k - 1 },
	}
	pages := map[string]*template.Template{}
	for _, name := range []string{"index", "classes", "class", "lookup", "error"} {
		pages[name] = template.Must(template.New("layout.html").Funcs(funcs).ParseFS(files, "templates/layout.html", "templates/board.html", "templates/"+name+".html"))
	}
	return pages
}

// render writes the page name with data and status. It renders into a
// buffer first, so that a template error is a 500, not half a page.
func (s *Server) render(w http.ResponseWriter, status int, name string, data any) {
	var buf bytes.Buffer
	if err := s.pages[name].Execute(&buf, data); err != nil {
		http.Error(w, "render "+name+": "+err.Error(), http.StatusInternalServerError)
		return
	}
	respond(w, status, "text/html; charset=utf-8", buf.Bytes())
}

// respond writes body, of the media type ctype, with status, not to be
// cached.
func respond(w http.ResponseWriter, status int, ctype string, body []byte) {
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(body)
}

// errorPage is the data of templates/error.html.
type errorPage struct {
	page
	Status  int
	Message string
}

// indexPage is the data of templates/index.html.
type indexPage struct {
	page
	Builds []store.Build
	Start  string        // the command that builds a first n, for an empty catalog
	Chart  template.HTML // the chart of the counts by n (countsChart), if any
}

// handleIndex answers GET /: the counts of every build, their chart and a
// lookup form.
func (s *Server) handleIndex(w http.ResponseWriter, r *http.Request) error {
	builds, err := s.builds(r)
	if err != nil {
		return err
	}
	d := indexPage{page: page{Title: "N-Queens catalog"}, Builds: builds, Chart: countsChart(builds)}
	if len(builds) == 0 && s.advice.Start != nil {
		d.Start = s.advice.Start()
	}
	s.render(w, http.StatusOK, "index", d)
	return nil
}

// classesPageData is the data of templates/classes.html.
type classesPageData struct {
	page
	Build    store.Build
	View     view // the filters and board size, as parameters
	Filters  []filterLink
	Sizes    []filterLink
	Count    uint64
	Page     int64
	Pages    int64
	Prev     string // links to the pages before and after, if any
	Next     string
	First    string // links to the first and last pages, if not this one
	Last     string
	Boards   []board
	Exports  []exportLink
	JSON     string // the page's twins: the same classes as JSON and CSV
	CSV      string
	From, To uint64 // the positions of the first and last board among Count
	Sized    string // the class of the boards' section for their size, if any
}

// Unsquared is the page's first page without its square filter.
func (d classesPageData) Unsquared() string {
	v := d.View
	v.Square = ""
	return v.url(d.Build.N, 1, "")
}

// Filtered says which classes the page shows, as words that follow
// "classes": "of symmetry rot180 with a queen at row 0, column 3"; "" for
// all.
func (d classesPageData) Filtered() string {
	var parts []string
	if d.View.Symmetry != "" {
		parts = append(parts, "of symmetry "+d.View.Symmetry)
	}
	if d.View.Square != "" {
		parts = append(parts, "with a queen at row "+strings.Replace(d.View.Square, ",", ", column ", 1))
	}
	return strings.Join(parts, " ")
}

type filterLink struct {
	Name, URL string
	Current   bool
}

type exportLink struct {
	Name, URL string
}

// view is what a page of classes shows beside its page number, as the
// parameters that links to its other pages keep: the filters, and the
// size of its boards.
type view struct {
	Symmetry string // the symmetry filter, "" for none
	Square   string // the square filter, "r,c", "" for none
	Size     string // the size of the boards, "" for the default
}

// url is the path of page p of the classes of n in the view v, as HTML or
// (ext ".json" or ".csv") its twin, which takes no size.
func (v view) url(n int, p int64, ext string) string {
	q := url.Values{}
	if v.Symmetry != "" {
		q.Set("symmetry", v.Symmetry)
	}
	if v.Square != "" {
		q.Set("square", v.Square)
	}
	if v.Size != "" && ext == "" {
		q.Set("size", v.Size)
	}
	if p > 1 {
		q.Set("page", strconv.FormatInt(p, 10))
	}
	return withQuery("/n/"+strconv.Itoa(n)+ext, q)
}

// Board sizes of a page of classes (?size=): small, the default, fits as
// many boards to a row as the width allows at 110 pixels or more; large
// at 260 or more; a number is each board's width in pixels, from
// minBoardPx to maxBoardPx.
const (
	minBoardPx = 40
	maxBoardPx = 800
)

// parseSize reads the size parameter of a page of classes: the class of
// the boards' section for a named size ("" for small) or a width in pixels.
func parseSize(v string) (sized string, px int, err error) {
	switch v {
	case "", "small":
		return "", 0, nil
	case "large":
		return "large", 0, nil
	}
	k, err := parseWhole("size", v, minBoardPx, maxBoardPx)
	if err != nil {
		return "", 0, paramError(fmt.Sprintf("size %s: want small, large or a width in pixels from %d to %d", phrase.Quote(v), minBoardPx, maxBoardPx))
	}
	return "fixed", int(k), nil
}

// twin splits the path value of a page into its name and the extension
// of a twin, ".json" or ".csv" ("" for the page itself).
func twin(v string) (name, ext string) {
	for _, ext := range []string{".json", ".csv"} {
		if name, ok := strings.CutSuffix(v, ext); ok {
			return name, ext
		}
	}
	return v, ""
}

// classesTwin is the object of /n/{n}.json: a page of classes, each the
// object of the JSON export.
type classesTwin struct {
	N        int             `json:"n"`
	Symmetry string          `json:"symmetry,omitempty"`
	Square   string          `json:"square,omitempty"`
	Count    uint64          `json:"count"` // the classes the filters select
	Page     int64           `json:"page"`
	Pages    int64           `json:"pages"`
	Items    json.RawMessage `json:"items"`
	Prev     string          `json:"prev,omitempty"` // the twins of the pages before and after
	Next     string          `json:"next,omitempty"`
}

// handleClasses answers GET /n/{n}?page=P&symmetry=S&square=R,C&size=Z:
// page P of the classes of n the filters select, PageSize to a page, with
// boards of size Z; with ?class=K it redirects to the page of class K. Its
// twins /n/{n}.json and /n/{n}.csv hold the same classes as the JSON object
// classesTwin and as the CSV export, and take the same parameters but
// class and size. A page past the last is a 404.
func (s *Server) handleClasses(w http.ResponseWriter, r *http.Request) error {
	name, ext := twin(r.PathValue("n"))
	allowed := []string{"page", "symmetry", "square"}
	if ext == "" {
		allowed = append(allowed, "class", "size")
	}
	q, err := params(r, allowed...)
	if err != nil {
		return err
	}
	var d classesPageData
	var f store.Filter
	px := 0
	k := int64(0) // the class to jump to, if any
	err = s.cat.Read(r.Context(), func(db *store.DB) (err error) {
		d = classesPageData{Page: 1}
		d.Build, f, err = s.selection(r.Context(), db, name, q, func() (err error) {
			d.Sized, px, err = parseSize(q.Get("size"))
			return err
		})
		if err != nil {
			return err
		}
		if q.Has("class") {
			if len(q) > 1 {
				return paramError("class jumps to one class: give it alone")
			}
			k, err = parseClass(d.Build, strings.TrimSpace(q.Get("class")))
			return err
		}
		if d.Count, err = db.Count(r.Context(), d.Build, f); err != nil {
			return err
		}
		d.Pages = max(1, int64((d.Count+pageSize-1)/pageSize))
		if q.Has("page") {
			if d.Page, err = parsePage(d.Build.N, q.Get("page"), d.Pages); err != nil {
				return err
			}
		}
		f.Offset, f.Limit = (d.Page-1)*pageSize, pageSize
		for l, err := range db.Classes(r.Context(), d.Build.N, f) {
			if err != nil {
				return err
			}
			b := newBoard(l)
			b.Px = px
			d.Boards = append(d.Boards, b)
		}
		return nil
	})
	if err != nil {
		return err
	}
	n := d.Build.N
	if k > 0 {
		http.Redirect(w, r, classURL(n, k), http.StatusSeeOther)
		return nil
	}
	d.View = view{Symmetry: symmetryParam(f.Symmetry), Square: squareParam(f.Square), Size: q.Get("size")}
	if ext != "" {
		return s.writeClassesTwin(w, d, ext)
	}
	if len(d.Boards) > 0 {
		d.From, d.To = uint64(f.Offset)+1, uint64(f.Offset)+uint64(len(d.Boards))
	}
	d.Title = fmt.Sprintf("n = %d: classes", n)
	if f := d.Filtered(); f != "" {
		d.Title += " " + f
	}
	if d.Page > 1 {
		d.Title += fmt.Sprintf(", page %d", d.Page)
		d.First, d.Prev = d.View.url(n, 1, ""), d.View.url(n, d.Page-1, "")
	}
	if d.Page < d.Pages {
		d.Next, d.Last = d.View.url(n, d.Page+1, ""), d.View.url(n, d.Pages, "")
	}
	d.JSON, d.CSV = d.View.url(n, d.Page, ".json"), d.View.url(n, d.Page, ".csv")
	all := d.View
	all.Symmetry = ""
	d.Filters = append(d.Filters, filterLink{"all", all.url(n, 1, ""), d.View.Symmetry == ""})
	for _, sym := range symmetries {
		v := d.View
		v.Symmetry = sym.String()
		d.Filters = append(d.Filters, filterLink{sym.String(), v.url(n, 1, ""), d.View.Symmetry == sym.String()})
	}
	for _, size := range []string{"small", "large"} {
		v := d.View
		v.Size = size
		if size == "small" {
			v.Size = ""
		}
		d.Sizes = append(d.Sizes, filterLink{size, v.url(n, d.Page, ""), v.Size == d.View.Size})
	}
	var exports []exportLink
	for _, format := range exportFormats {
		name := format.String()
		switch {
		case !format.ForJudges():
			d.Exports = append(d.Exports, exportLink{name, exportURL(n, format, d.View, "")})
			exports = append(exports, exportLink{name + " (all solutions)", exportURL(n, format, d.View, "all=1")})
		case n <= maxLexN:
			d.Exports = append(d.Exports, exportLink{name + " (one per class)", exportURL(n, format, d.View, "all=0")})
			exports = append(exports, exportLink{name + " (all solutions, lexicographic)", exportURL(n, format, d.View, "")})
		default:
			d.Exports = append(d.Exports, exportLink{name + " (one per class)", exportURL(n, format, d.View, "all=0")})
			exports = append(exports, exportLink{name + " (all solutions, class by class)", exportURL(n, format, d.View, "all=1&order=class")})
		}
	}
	d.Exports = append(d.Exports, exports...)
	s.render(w, http.StatusOK, "classes", d)
	return nil
}

// parsePage reads the page parameter of the classes of n, which have
// pages pages: a 400 if it is not a whole number from 1, a 404 (an error
// matching errNotServed) if it is past the last page.
func parsePage(n int, v string, pages int64) (int64, error) {
	p, err := parseWhole("page", v, 1, maxClass)
	if err != nil {
		_, err = parseWhole("page", v, 1, pages) // its message names the pages there are
		return 0, err
	}
	if p > pages {
		return 0, notServed(fmt.Sprintf("no page %d: these classes of n=%d fill %s", p, n, phrase.Plural(uint64(pages), "page")))
	}
	return p, nil
}

// writeClassesTwin writes the twin ext (".json" or ".csv") of the page of
// classes d.
func (s *Server) writeClassesTwin(w http.ResponseWriter, d classesPageData, ext string) error {
	var buf bytes.Buffer
	format := export.FormatCSV
	if ext == ".json" {
		format = export.FormatJSON
	}
	ew := format.New(&buf, export.ClassBoards)
	for _, b := range d.Boards {
		if err := ew.Write(b.Layout); err != nil {
			return err
		}
	}
	if err := ew.Close(); err != nil {
		return err
	}
	if ext == ".csv" {
		respond(w, http.StatusOK, export.FormatCSV.MediaType(), buf.Bytes())
		return nil
	}
	n := d.Build.N
	t := classesTwin{N: n, Symmetry: d.View.Symmetry, Square: d.View.Square, Count: d.Count, Page: d.Page, Pages: d.Pages, Items: buf.Bytes()}
	if d.Page > 1 {
		t.Prev = d.View.url(n, d.Page-1, ".json")
	}
	if d.Page < d.Pages {
		t.Next = d.View.url(n, d.Page+1, ".json")
	}
	// Its links are written as they are, not with & escaped for HTML.
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(t); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, body.Bytes())
	return nil
}

// classPageData is the data of templates/class.html.
type classPageData struct {
	page
	Build      store.Build
	Board      board
	Images     []board
	Prev, Next string
	Page       string // the page of /n/{n} that holds the class
	SVG, JSON  string
	Yours      string // says which image is the board a lookup led from
}

// handleClass answers GET /n/{n}/{k}: the page of class k of n; GET
// /n/{n}/{k}.svg: its board as an SVG image (nqueens export N --format svg
// --class K); and GET /n/{n}/{k}.json, the page's twin: the class as the
// object of the JSON export, as /api/v1/classes/{n}/{k} gives it.
func (s *Server) handleClass(w http.ResponseWriter, r *http.Request) error {
	k, svg := strings.CutSuffix(r.PathValue("k"), ".svg")
	k, asJSON := strings.CutSuffix(k, ".json")
	allowed := []string{"board"}
	if svg || asJSON {
		allowed = nil
	}
	b, l, q, err := s.pathClass(r, k, allowed...)
	if err != nil {
		return err
	}
	n := l.N()
	if asJSON {
		body, err := encode(export.FormatNDJSON, l)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, body)
		return nil
	}
	var yours nqueens.Placement // the board a lookup led here from, if any
	if q.Has("board") {
		if yours, err = nqueens.Parse(q.Get("board")); err != nil {
			return paramError("board: " + err.Error())
		}
		if yours.N() != n || yours.Valid() != nil || canonical.Fold(yours) != l.Placement {
			return paramError(fmt.Sprintf("board %s is not a solution of class %d of n=%d", yours, l.Class, n))
		}
	}
	if svg {
		img, err := encode(export.FormatSVG, l)
		if err != nil {
			return err
		}
		h := w.Header()
		h.Set("Content-Type", export.FormatSVG.MediaType())
		h.Set("Content-Disposition", fmt.Sprintf(`inline; filename="queens-%d-class-%d.svg"`, n, l.Class))
		w.Write(img)
		return nil
	}
	d := classPageData{Build: b, Board: newBoard(l),
		Page: view{}.url(n, (l.Class-1)/pageSize+1, ""),
		SVG:  classURL(n, l.Class) + ".svg",
		JSON: classURL(n, l.Class) + ".json"}
	d.Title = fmt.Sprintf("n = %d, class %d", n, l.Class)
	if l.Class > 1 {
		d.Prev = classURL(n, l.Class-1)
	}
	if uint64(l.Class) < b.Unique {
		d.Next = classURL(n, l.Class+1)
	}
	for _, p := range canonical.Orbit(l.Placement) {
		img := newBoard(nqueens.Layout{Class: l.Class, Placement: p, Symmetry: l.Symmetry})
		img.Note = canonical.Identify(p).Transform.String()
		img.Label = fmt.Sprintf("the %s of class %d: %s", img.Note, l.Class, p)
		if p == yours {
			img.Yours = true
			d.Yours = fmt.Sprintf("Your board %s is the %s of the canonical board, marked below.", p, img.Note)
			img.Note += " (your board)"
			img.Label += ", your board"
		}
		d.Images = append(d.Images, img)
	}
	s.render(w, http.StatusOK, "class", d)
	return nil
}

// lookupPageData is the data of templates/lookup.html.
type lookupPageData struct {
	page
	Placement string // as typed
	Message   string
	Found     *export.Found
	Board     *board
	Class     string // the class page, when the catalog holds n
}

// handleLookup answers GET /lookup?placement=P: a redirect (303) to the
// class page of the board P, or a page saying why there is none: P is not
// a solution (200), is not a placement (400), or is of an n the catalog
// does not hold (404). Without P it is the lookup form.
func (s *Server) handleLookup(w http.ResponseWriter, r *http.Request) error {
	d := lookupPageData{page: page{Title: "Look a board up"}}
	q, err := params(r, "placement")
	if err != nil {
		return err
	}
	d.Placement = q.Get("placement")
	if strings.TrimSpace(d.Placement) == "" {
		s.render(w, http.StatusOK, "lookup", d)
		return nil
	}
	f, err := s.lookup(r)
	var pe paramError
	switch {
	case errors.As(err, &pe):
		d.Message = err.Error()
		s.render(w, http.StatusBadRequest, "lookup", d)
		return nil
	case err != nil:
		return err
	}
	if f.Class > 0 {
		to := classURL(f.Placement.N(), f.Class) + "?" + url.Values{"board": {f.Placement.String()}}.Encode()
		http.Redirect(w, r, to, http.StatusSeeOther)
		return nil
	}
	d.Found = &f
	b := newBoard(nqueens.Layout{Placement: f.Placement})
	b.Label = "the board " + f.Placement.String()
	b.Labeled = true
	if r1, r2, ok := f.Placement.Attacking(); ok {
		b.Marked = []int{r1, r2}
		b.Label += fmt.Sprintf(": the queens of rows %d and %d attack each other", r1, r2)
	}
	d.Board = &b
	if f.NotSolution != nil {
		d.Message = fmt.Sprintf("%s is not a solution: %v.", f.Placement, f.NotSolution)
		s.render(w, http.StatusOK, "lookup", d)
		return nil
	}
	why := fmt.Sprintf("n=%d is not in this catalog", f.Placement.N())
	if s.advice.Build != nil {
		why += ": build it with " + s.advice.Build(f.Placement.N())
	}
	err = s.cat.Read(r.Context(), func(db *store.DB) error {
		_, err := build(r.Context(), db, f.Placement.N())
		return err
	})
	if errors.Is(err, errNotServed) {
		why = err.Error() // not built, or being built
	} else if err != nil {
		return err
	}
	d.Message = fmt.Sprintf("%s is a solution of n=%d, in the class of %s (%s), but %s.",
		f.Placement, f.Placement.N(), f.Canonical, f.Symmetry.Words(), why)
	s.render(w, http.StatusNotFound, "lookup", d)
	return nil
}

// classURL is the path of the page of class k of n.
func classURL(n int, k int64) string { return fmt.Sprintf("/n/%d/%d", n, k) }

// exportURL is the path of an export of n in format, with the filters of
// the view v and the parameters extra ("all=1&order=class"), if any.
func exportURL(n int, format export.Format, v view, extra string) string {
	q, _ := url.ParseQuery(extra) // written by the callers here
	if v.Symmetry != "" {
		q.Set("symmetry", v.Symmetry)
	}
	if v.Square != "" {
		q.Set("square", v.Square)
	}
	return withQuery(fmt.Sprintf("/export/%d.%s", n, format), q)
}

// withQuery returns path with the query q, if any.
func withQuery(path string, q url.Values) string {
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}
