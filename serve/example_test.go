package serve_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/serve"
	"github.com/nqueens/nqueens/store"
)

// A server of a catalog of n = 8, asked for class 1 over the JSON API and
// for a class it lacks.
func Example() {
	dir, err := os.MkdirTemp("", "serve-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(dir, "c.db"), store.Options{Create: true})
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Run(ctx, 8, nqueens.Shard{}, store.RunOptions{}); err != nil {
		log.Fatal(err)
	}

	srv := httptest.NewServer(serve.New(db, serve.Options{}))
	defer srv.Close()
	for _, path := range []string{"/api/v1/classes/8/1", "/api/v1/classes/8/13"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			log.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Print(resp.StatusCode, " ", string(body))
	}
	// Output:
	// 200 {"n":8,"class":1,"placement":[0,4,7,5,2,6,1,3],"orbit":8,"symmetry":"none"}
	// 404 {"error":"n=8 has 12 classes, no class 13: no such class"}
}
