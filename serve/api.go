package serve

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/export"
	"github.com/nqueens/nqueens/input"
	"github.com/nqueens/nqueens/store"
)

// Page sizes of /api/v1/classes.
const (
	defaultLimit = 100
	maxLimit     = 1000
)

// writeJSONError writes the error object {"error": msg} with status.
func writeJSONError(w http.ResponseWriter, status int, msg string) {
	body, _ := json.Marshal(struct {
		Error string `json:"error"`
	}{msg})
	writeJSON(w, status, append(body, '\n'))
}

// writeJSON writes body, a JSON document, with status.
func writeJSON(w http.ResponseWriter, status int, body []byte) {
	respond(w, status, "application/json", body)
}

// handleAPICounts answers GET /api/v1/counts and GET /.json, the front
// page's twin: every build the catalog records, complete or not, as the
// objects of nqueens stats --json in one compact array, as every endpoint
// writes.
func (s *Server) handleAPICounts(w http.ResponseWriter, r *http.Request) error {
	builds, err := s.builds(r)
	if err != nil {
		return err
	}
	if builds == nil {
		builds = []store.Build{}
	}
	body, err := json.Marshal(builds)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, append(body, '\n'))
	return nil
}

// classesPage is the object of /api/v1/classes.
type classesPage struct {
	N      int             `json:"n"`
	Offset int64           `json:"offset"`
	Limit  int64           `json:"limit"`
	Count  uint64          `json:"count"`
	Items  json.RawMessage `json:"items"`
}

// handleAPIClasses answers GET /api/v1/classes?n=N&offset=O&limit=L&symmetry=S&square=R,C:
// count, the classes of n the filters select, and as items up to limit of
// them from offset on, each the object of the JSON export.
func (s *Server) handleAPIClasses(w http.ResponseWriter, r *http.Request) error {
	q, err := params(r, "n", "offset", "limit", "symmetry", "square")
	if err != nil {
		return err
	}
	if !q.Has("n") {
		return paramError("missing parameter n: /api/v1/classes?n=8")
	}
	var page classesPage
	var items bytes.Buffer
	err = s.cat.Read(r.Context(), func(db *store.DB) error {
		page = classesPage{Limit: defaultLimit}
		items.Reset()
		b, f, err := s.selection(r.Context(), db, q.Get("n"), q, func() (err error) {
			if q.Has("offset") {
				if page.Offset, err = parseWhole("offset", q.Get("offset"), 0, maxClass); err != nil {
					return err
				}
			}
			if q.Has("limit") {
				page.Limit, err = parseWhole("limit", q.Get("limit"), 1, maxLimit)
			}
			return err
		})
		if err != nil {
			return err
		}
		page.N = b.N
		if page.Count, err = db.Count(r.Context(), b, f); err != nil {
			return err
		}
		f.Offset, f.Limit = page.Offset, page.Limit
		if uint64(page.Offset) >= page.Count {
			items.WriteString("[]")
			return nil
		}
		return writeClasses(r.Context(), db, export.FormatJSON.New(&items, export.ClassBoards), b.N, f)
	})
	if err != nil {
		return err
	}
	page.Items = items.Bytes()
	body, err := json.Marshal(page)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, append(body, '\n'))
	return nil
}

// writeClasses writes the classes of n in db that f selects to ew and
// closes it.
func writeClasses(ctx context.Context, db *store.DB, ew export.Writer, n int, f store.Filter) error {
	for l, err := range db.Classes(ctx, n, f) {
		if err != nil {
			return err
		}
		if err := ew.Write(l); err != nil {
			return err
		}
	}
	return ew.Close()
}

// handleAPIClass answers GET /api/v1/classes/{n}/{k}: class k of n as the
// object of the JSON export.
func (s *Server) handleAPIClass(w http.ResponseWriter, r *http.Request) error {
	_, l, _, err := s.pathClass(r, r.PathValue("k"))
	if err != nil {
		return err
	}
	body, err := encode(export.FormatNDJSON, l)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, body)
	return nil
}

// encode returns the layout l written in format (export.Format.New): one
// class's document.
func encode(format export.Format, l nqueens.Layout) ([]byte, error) {
	var buf bytes.Buffer
	ew := format.New(&buf, export.ClassBoards)
	ew.Write(l) // an error is Close's
	err := ew.Close()
	return buf.Bytes(), err
}

// pathClass reads the class {n}/k of a path from the catalog, with the
// build of n and the query, which may hold the parameters allowed alone.
func (s *Server) pathClass(r *http.Request, k string, allowed ...string) (store.Build, nqueens.Layout, url.Values, error) {
	q, err := params(r, allowed...)
	if err != nil {
		return store.Build{}, nqueens.Layout{}, nil, err
	}
	var b store.Build
	var l nqueens.Layout
	err = s.cat.Read(r.Context(), func(db *store.DB) (err error) {
		b, _, err = s.selection(r.Context(), db, r.PathValue("n"), nil, nil)
		if err != nil {
			return err
		}
		class, err := parseClass(b, k)
		if err != nil {
			return err
		}
		l, err = db.Class(r.Context(), b.N, class)
		return err
	})
	return b, l, q, err
}

// handleAPILookup answers GET /api/v1/lookup?placement=P: the object of
// nqueens lookup --json for the board P, with its class number when the
// catalog holds its n complete. A board that is not a solution is an
// answer too (valid false, and why); one that is not a placement is a 400.
func (s *Server) handleAPILookup(w http.ResponseWriter, r *http.Request) error {
	f, err := s.lookup(r)
	if err != nil {
		return err
	}
	var body bytes.Buffer
	export.FormatJSON.WriteFound(&body, f)
	writeJSON(w, http.StatusOK, body.Bytes())
	return nil
}

// lookup reads the parameter placement of r and says what it is: whether
// a solution, its class, and the class number if the catalog holds its n
// complete (0 otherwise).
func (s *Server) lookup(r *http.Request) (export.Found, error) {
	q, err := params(r, "placement")
	if err != nil {
		return export.Found{}, err
	}
	p, err := parsePlacement(q.Get("placement"))
	if err != nil {
		return export.Found{}, err
	}
	return export.Identify(p, func(c nqueens.Placement) (k int64, err error) {
		err = s.cat.Read(r.Context(), func(db *store.DB) error {
			k = 0
			b, err := build(r.Context(), db, c.N())
			if errors.Is(err, errNotServed) {
				return nil
			} else if err != nil {
				return err
			}
			k, err = db.Finder(b).Find(r.Context(), c)
			if errors.Is(err, store.ErrNoClass) {
				return fmt.Errorf("the catalog lacks the class of %s: %w", c, err)
			}
			return err
		})
		return k, err
	})
}

// openAPI is the OpenAPI 3.1 description of the routes under /api/v1/:
// their parameters, and their answers and errors with their statuses.
// A test checks it against the routes and their real answers.
//
//go:embed openapi.json
var openAPI []byte

// handleOpenAPI answers GET /api/v1/openapi.json: the API's description,
// openAPI.
func (s *Server) handleOpenAPI(w http.ResponseWriter, r *http.Request) error {
	if _, err := params(r); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, openAPI)
	return nil
}

// parsePlacement reads one placement in the forms of nqueens lookup
// ("4 6 1 5 2 0 7 3", "4,6,1,5,2,0,7,3", "[4, 6, ...]", an export's JSON
// object), with each column once.
func parsePlacement(v string) (nqueens.Placement, error) {
	if strings.TrimSpace(v) == "" {
		return nqueens.Placement{}, paramError(`missing parameter placement: the columns of the queens row by row, such as "4 6 1 5 2 0 7 3"`)
	}
	p, err := input.ParsePlacement(v, "columns")
	if err != nil {
		return p, paramError(fmt.Sprintf("placement: %s", err))
	}
	return p, nil
}
