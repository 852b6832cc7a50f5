package main

import (
	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/verify"
)

func (a *app) verifyCmd() *cobra.Command {
	var asJSON bool
	return jsonFlag(&asJSON, nsCommand("verify [N-LIST...]", "Re-check the catalog and exit 3 on any mismatch", "", func(cmd *cobra.Command, ns []int) error {
		db, err := a.open(cmd.Context())
		if err != nil {
			return err
		}
		defer db.Close()
		reports, err := verify.Catalog(cmd.Context(), db, ns)
		switch {
		case !asJSON:
			for _, r := range reports {
				writeVerify(a.stdout, r)
			}
		case err == nil:
			err = writeJSON(a.stdout, reports)
		}
		if err != nil {
			return err
		}
		return verify.Summary(reports)
	}))
}
