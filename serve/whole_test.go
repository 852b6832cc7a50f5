package serve

import (
	"net/http"
	"strings"
	"testing"
)

// TestWholeParams checks that every whole number of a URL (n, a class, a
// page, an offset, a limit, a size, a square, a column) is read as
// nqueens.ParseWhole reads whole numbers: decimal digits, no leading zeros
// (refused, not read as octal or as decimal), no sign, hex or underscores.
func TestWholeParams(t *testing.T) {
	s, _ := openServer(t, Options{})
	// Each target is answered 200 with a plain number in place of X and
	// 400 with each of the bad forms.
	targets := []struct{ target, good string }{
		{"/n/X", "8"},
		{"/n/X.json", "8"},
		{"/n/8/X", "7"},
		{"/n/8/X.json", "7"},
		{"/api/v1/classes/X/7", "8"},
		{"/api/v1/classes/8/X", "7"},
		{"/api/v1/classes?n=X", "8"},
		{"/api/v1/classes?n=8&offset=X", "10"},
		{"/api/v1/classes?n=8&limit=X", "10"},
		{"/n/10?page=X", "1"},
		{"/n/8?size=X", "100"},
		{"/n/8?square=0,X", "2"},
		{"/n/8?square=X,2", "0"},
		{"/export/X.csv", "8"},
		{"/api/v1/lookup?placement=4+6+1+5+2+0+7+X", "3"},
	}
	bad := []string{
		"010", "08", "00", "0x10", "0b1", "0o7", "1_0", "1e1", "-0",
		"%2B5",      // +5: a bare + in a query is a space
		"%2010",     // " 10"
		"10%20",     // "10 "
		"%EF%BC%98", // a fullwidth 8
	}
	for _, tt := range targets {
		good := strings.ReplaceAll(tt.target, "X", tt.good)
		if w := get(t, s, "GET", good); w.Code != http.StatusOK && w.Code != http.StatusSeeOther {
			t.Errorf("GET %s: status %d, want 200: %.300s", good, w.Code, w.Body)
		}
		for _, form := range bad {
			target := strings.ReplaceAll(tt.target, "X", form)
			w := get(t, s, "GET", target)
			if w.Code != http.StatusBadRequest {
				t.Errorf("GET %s: status %d, want 400: %.300s", target, w.Code, w.Body)
			}
		}
	}
	// A leading zero is refused with the reason, in the pages and the API.
	for _, target := range []string{"/n/010", "/n/8/010.json", "/api/v1/classes?n=8&limit=010", "/n/10?page=01"} {
		w := get(t, s, "GET", target)
		if body := w.Body.String(); w.Code != http.StatusBadRequest || !strings.Contains(body, "leading zeros are refused") {
			t.Errorf("GET %s: status %d, %.300s; want 400 saying leading zeros are refused", target, w.Code, body)
		}
	}
}
