package serve

import (
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/store"
)

// The chart's drawing area, in the units of its viewBox: chartW by
// chartH, with the margins for the axes' labels inside it.
const (
	chartW, chartH                 = 640, 300
	chartLeft, chartRight          = 64, 16
	chartTop, chartBottom          = 28, 40
	chartPlotW, chartPlotH float64 = chartW - chartLeft - chartRight, chartH - chartTop - chartBottom
)

// countsChart draws the counts of the whole, complete builds among builds
// as an inline SVG chart: the total and the unique count by n, on a
// logarithmic scale, each point titled with its counts. An n with no
// solution (2 and 3) has no point, and breaks the lines. It draws with
// attributes and the classes of the stylesheet, no style attribute or
// script, so the page's Content-Security-Policy lets it show. It returns
// "" when there is no count to draw.
func countsChart(builds []store.Build) template.HTML {
	var ns []int
	var totals, uniques []uint64
	top := uint64(1)
	for _, b := range builds {
		if b.Complete && b.Shard.IsWhole() {
			ns, totals, uniques = append(ns, b.N), append(totals, b.Total), append(uniques, b.Unique)
			top = max(top, b.Total)
		}
	}
	if len(ns) == 0 || top == 0 {
		return ""
	}
	lo, hi := ns[0], ns[len(ns)-1]
	if lo == hi {
		lo, hi = lo-1, hi+1
	}
	decades := max(1, int(math.Ceil(math.Log10(float64(top)))))
	x := func(n int) float64 { return chartLeft + chartPlotW*float64(n-lo)/float64(hi-lo) }
	y := func(k uint64) float64 { return chartTop + chartPlotH*(1-math.Log10(float64(k))/float64(decades)) }
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-labelledby="chart-title">`, chartW, chartH, chartW, chartH)
	b.WriteString(`<title id="chart-title">Solutions (total) and classes (unique) by n, on a logarithmic scale</title>`)
	// The powers of ten, every one or, past 8 decades, every other.
	step := 1
	if decades > 8 {
		step = 2
	}
	for d := 0; d <= decades; d += step {
		yy := f(y(uint64(math.Pow10(d))))
		fmt.Fprintf(&b, `<line class="grid" x1="%d" x2="%s" y1="%s" y2="%s"/>`, chartLeft, f(chartLeft+chartPlotW), yy, yy)
		fmt.Fprintf(&b, `<text class="tick" x="%d" y="%s" text-anchor="end" dominant-baseline="middle">%s</text>`, chartLeft-6, yy, powerLabel(d))
	}
	for _, n := range ns {
		fmt.Fprintf(&b, `<text class="tick" x="%s" y="%d" text-anchor="middle">%d</text>`, f(x(n)), chartTop+int(chartPlotH)+16, n)
	}
	fmt.Fprintf(&b, `<text class="axis" x="%s" y="%d" text-anchor="middle">n</text>`, f(chartLeft+chartPlotW/2), chartH-4)
	for _, s := range []struct {
		class, name string
		k           []uint64
	}{{"total", "total", totals}, {"unique", "unique", uniques}} {
		var d strings.Builder
		move := true
		for i, k := range s.k {
			if k == 0 {
				move = true
				continue
			}
			if move {
				d.WriteString("M")
			} else {
				d.WriteString(" L")
			}
			d.WriteString(f(x(ns[i])) + " " + f(y(k)))
			move = false
		}
		fmt.Fprintf(&b, `<path class="line %s" d="%s"/>`, s.class, d.String())
		for i, k := range s.k {
			if k > 0 {
				fmt.Fprintf(&b, `<circle class="point %s" cx="%s" cy="%s" r="3"><title>n=%d: %s %s</title></circle>`, s.class, f(x(ns[i])), f(y(k)), ns[i], phrase.Count(k), s.name)
			}
		}
	}
	// The legend, top left.
	for i, s := range []struct{ class, text string }{{"total", "total: solutions"}, {"unique", "unique: classes"}} {
		lx := chartLeft + 8 + 150*i
		fmt.Fprintf(&b, `<line class="line %s" x1="%d" x2="%d" y1="12" y2="12"/><text class="legend" x="%d" y="12" dominant-baseline="middle">%s</text>`, s.class, lx, lx+20, lx+26, s.text)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// powerLabel writes 10 to the power d as the chart's axis does: 1, 10,
// 100, 1k, 10k, 100k, 1M, ... 1T, then 10^15.
func powerLabel(d int) string {
	for _, u := range []struct {
		from int
		name string
	}{{12, "T"}, {9, "G"}, {6, "M"}, {3, "k"}} {
		if d >= u.from && d < u.from+3 {
			return strconv.Itoa(int(math.Pow10(d-u.from))) + u.name
		}
	}
	if d < 3 {
		return strconv.Itoa(int(math.Pow10(d)))
	}
	return "10^" + strconv.Itoa(d)
}
