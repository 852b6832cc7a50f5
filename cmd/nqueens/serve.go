package main

import (
	"fmt"
	"net"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/serve"
	"github.com/nqueens/nqueens/store"
)

func (a *app) serveCmd() *cobra.Command {
	var addr string
	cmd := &cobra.Command{
		Use:   "serve [--addr HOST:PORT]",
		Short: "Serve the catalog as web pages and a JSON API",
		Args:  exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, _, err := net.SplitHostPort(addr); err != nil {
				return usageError{fmt.Errorf("--addr %s: want HOST:PORT, such as 127.0.0.1:8080", quote(addr))}
			}
			ctx := cmd.Context()
			db, err := store.Follow(ctx, a.cfg.DB, serve.FollowOptions)
			if err != nil {
				return noCatalogAdvice(err)
			}
			defer db.Close()
			opts := serve.Options{}
			if !a.cfg.Quiet {
				opts.Log = a.stderr
			}
			err = serve.New(db, opts).Run(ctx, addr, func(at net.Addr) {
				fmt.Fprintf(a.stderr, "serving %s on http://%s/ (Ctrl-C to stop)\n", db.Path(), at)
			})
			if err != nil {
				return err
			}
			a.logf("serve: stopped")
			return nil
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "listen on HOST:PORT (port 0: any free port)")
	return cmd
}
