package export

import (
	"bytes"
	"encoding/xml"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
)

// svgDoc is what TestSVG reads back of an SVG image.
type svgDoc struct {
	XMLName xml.Name `xml:"svg"`
	ViewBox string   `xml:"viewBox,attr"`
	Title   string   `xml:"title"`
	Uses    []struct {
		X string `xml:"x,attr"`
		Y string `xml:"y,attr"`
	} `xml:"use"`
}

func TestSVG(t *testing.T) {
	ls := layouts(8, false)
	var buf bytes.Buffer
	w := newSVG(&buf)
	if err := w.Write(ls[0]); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var doc svgDoc
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, buf.Bytes())
	}
	if doc.ViewBox != "0 0 8 8" || !strings.Contains(doc.Title, "n=8 class 1: 0 4 7 5 2 6 1 3, orbit 8, no symmetry") {
		t.Errorf("viewBox %q, title %q", doc.ViewBox, doc.Title)
	}
	if len(doc.Uses) != 8 {
		t.Fatalf("%d queens drawn, want 8", len(doc.Uses))
	}
	for r, u := range doc.Uses {
		if want := ls[0].Placement.Col(r); u.Y != itoa(r) || u.X != itoa(want) {
			t.Errorf("queen %d at (%s,%s), want (%d,%d)", r, u.X, u.Y, want, r)
		}
	}
	if err := w.Write(ls[1]); err == nil || !strings.Contains(err.Error(), "one board") {
		t.Errorf("second board: %v", err)
	}
	if err := newSVG(&buf).Close(); err == nil {
		t.Errorf("an SVG of no board closed without error")
	}
	if err := writeBoardSVG(&failWriter{}, []int32{1, 3, 0, 2}, "x"); !errors.Is(err, errFull) {
		t.Errorf("WriteBoardSVG to a full disk: %v", err)
	}
}

func TestHTML(t *testing.T) {
	for _, tt := range []struct{ n, boards int }{{4, 1}, {8, 12}, {10, 92}, {12, 1787}} {
		page := string(write(t, FormatHTML, layouts(tt.n, false)))
		if got := strings.Count(page, `<figure class="board">`); got != tt.boards {
			t.Errorf("n=%d: %d boards, want %d", tt.n, got, tt.boards)
		}
		for _, external := range []string{"http://", "https://", "src=", "@import", "url(http"} {
			if strings.Contains(strings.ReplaceAll(page, `xmlns="http://www.w3.org/2000/svg"`, ""), external) {
				t.Errorf("n=%d: the page refers to something outside it (%q)", tt.n, external)
			}
		}
		if !regexp.MustCompile(`<title>N-Queens: classes of n=\d+</title>`).MatchString(page) {
			t.Errorf("n=%d: no title", tt.n)
		}
		if tt.n == 12 && len(page) > 2<<20 {
			t.Errorf("n=12: page of %d bytes", len(page))
		}
	}
	w := newHTML(&bytes.Buffer{}, ClassBoards)
	cols, _ := nqueens.Construct(15)
	p, _ := nqueens.New(intCols(cols))
	if err := w.Write(nqueens.Layout{Class: 1, Placement: p}); err == nil || !strings.Contains(err.Error(), "up to n=14") {
		t.Errorf("html of n=15: %v", err)
	}
}

func intCols(cols []int32) []int {
	out := make([]int, len(cols))
	for i, c := range cols {
		out[i] = int(c)
	}
	return out
}

func itoa(i int) string { return string(rune('0' + i)) }

// TestHTMLSaysWhatItShows checks that the heading, lede and closing count
// of an HTML page say what its boards are: classes, each its canonical
// representative, or solutions (every solution, a sample of them, the
// completions of a partial board), one board "1 board" and not "1
// boards", and a board of no known class has no class number.
func TestHTMLSaysWhatItShows(t *testing.T) {
	four := layouts(4, false)
	for _, tt := range []struct {
		name    string
		boards  Boards
		ls      []nqueens.Layout
		want    []string
		notWant []string
	}{
		{"classes of 8", ClassBoards, layouts(8, false),
			[]string{"<title>N-Queens: classes of n=8</title>", "<h1>Classes of n = 8</h1>", "Each board is the canonical representative of its class", "The number is its class's number in the catalog", "<p class=\"lede\">12 classes.</p>"},
			[]string{"boards.", "a solution"}},
		{"one class", ClassBoards, four,
			[]string{"<h1>Classes of n = 4</h1>", "<p class=\"lede\">1 class.</p>"},
			[]string{"1 classes", "boards."}},
		{"every solution of 8", SolutionBoards, layouts(8, true),
			[]string{"<title>N-Queens: solutions of n=8</title>", "<h1>Solutions of n = 8</h1>", "Each board is a solution", "not necessarily the class's canonical representative", "The number is its class's number in the catalog", "<p class=\"lede\">92 solutions.</p>"},
			[]string{"Each board is the canonical representative", "boards."}},
		{"one solution", SolutionBoards, layouts(4, true)[1:],
			[]string{"<h1>Solutions of n = 4</h1>", "<p class=\"lede\">1 solution.</p>"},
			[]string{"1 solutions", "canonical representative of its class"}},
		{"solutions of no known class", SolutionBoards, []nqueens.Layout{{Placement: four[0].Placement, Symmetry: four[0].Symmetry}},
			[]string{"Each board is a solution", `aria-label="n=4: 1 3 0 2, orbit 2`, "<figcaption>orbit 2 ", "<p class=\"lede\">1 solution.</p>"},
			[]string{"class 0", "<b>0</b>", "The number is"}},
	} {
		page := string(writeBoards(t, FormatHTML, tt.boards, tt.ls))
		for _, w := range tt.want {
			if !strings.Contains(page, w) {
				t.Errorf("%s: the page does not say %q", tt.name, w)
			}
		}
		for _, w := range tt.notWant {
			if strings.Contains(page, w) {
				t.Errorf("%s: the page says %q", tt.name, w)
			}
		}
	}
}
