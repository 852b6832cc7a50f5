package main

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/serve"
	"github.com/nqueens/nqueens/store"
)

func (a *app) serveCmd() *cobra.Command {
	var addr string
	var clientExports int
	cmd := &cobra.Command{
		Use:   "serve [--addr HOST:PORT] [--client-exports K]",
		Short: "Serve the catalog as web pages and a JSON API",
		Args:  exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, port, err := net.SplitHostPort(addr)
			if err != nil {
				return usageError{fmt.Errorf("--addr %s: want HOST:PORT, such as 127.0.0.1:8080", quote(addr))}
			}
			if p, err := nqueens.ParseWhole(port); err != nil || p > 65535 {
				return usageError{fmt.Errorf("--addr %s: the port must be a number from 0 to 65535 (0: any free port)", quote(addr))}
			}
			if clientExports < 1 || clientExports > 1024 {
				return usageError{fmt.Errorf("--client-exports %d: want a whole number from 1 to 1024", clientExports)}
			}
			ctx := cmd.Context()
			opts := serve.Options{Advice: a.advice().serveAdvice(), MaxClientExports: clientExports}
			db, err := store.Follow(ctx, a.cfg.DB, opts.FollowOptions())
			if err != nil {
				return openAdvice(err)
			}
			defer db.Close()
			if !a.cfg.Quiet {
				opts.Log = a.stderr
			}
			err = serve.New(db, opts).Run(ctx, addr, func(at net.Addr) {
				fmt.Fprintf(a.stderr, "serving %s on http://%s/ (Ctrl-C to stop)\n", db.Path(), at)
			})
			switch {
			case errors.Is(err, syscall.EADDRINUSE):
				return fmt.Errorf("serve: %s is in use, by another server or an earlier nqueens serve: choose another --addr (port 0: any free port)", addr)
			case errors.Is(err, syscall.EACCES):
				return fmt.Errorf("serve: not allowed to listen on %s (ports below 1024 need privileges): choose another --addr", addr)
			case errors.Is(err, syscall.EADDRNOTAVAIL):
				return fmt.Errorf("serve: %s is no address of this machine: choose another --addr, such as 127.0.0.1:8080", addr)
			case err != nil:
				return err
			}
			a.logf("serve: stopped")
			return nil
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "listen on HOST:PORT (port 0: any free port)")
	wholeVar(cmd.Flags(), &clientExports, "client-exports", 2, "exports one client address may stream at once (behind a reverse proxy every client has the proxy's address)")
	return cmd
}

// serveAdvice is what nqueens serve's pages and errors tell a user to do,
// in the words of the command line, for the catalog v is of (with its
// --db where it is not the default, as every piece of advice the program
// prints): the advice of a catalog that does not open and the commands
// that build n and export it.
func (v advice) serveAdvice() serve.Advice {
	return serve.Advice{
		Open:  func(err error) error { return v.open(err) },
		Build: func(n int) string { return v.command("build", strconv.Itoa(n)) },
		Start: func() string { return v.command("build", defaultStart) },
		Lex:   func(n int) string { return v.command("export", strconv.Itoa(n), "--all", "--order", "lex") },
		Square: func(n int, sq nqueens.Square) string {
			return v.command("export", strconv.Itoa(n), "--square", fmt.Sprintf("%d,%d", sq.Row, sq.Col), "--format", "csv")
		},
	}
}
