package main

import (
	"errors"
	"fmt"
	"math"

	"github.com/spf13/pflag"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/config"
	"github.com/nqueens/nqueens/internal/phrase"
)

// flagError rewrites pflag's message for a flag of the command whose path
// is command ("nqueens build") and whose flags are fs, so that it reads as
// the messages of the configuration's other sources do. An unknown flag
// gets the nearest known one suggested: unknown flag --worker (did you
// mean --workers?): run nqueens build --help for the list. A bad value is
// quoted whole, with what the flag wants instead of the strconv error
// behind it: --workers "many": want a whole number from 0 to 1024; and
// for a whole number refused for its leading zeros alone (nqueens.WholeHint)
// the message says so. Other errors are returned as they are.
func flagError(fs *pflag.FlagSet, command string, err error) error {
	var ne *pflag.NotExistError
	if errors.As(err, &ne) && len(ne.GetSpecifiedName()) > 1 {
		var names []string
		fs.VisitAll(func(f *pflag.Flag) {
			if !f.Hidden {
				names = append(names, f.Name)
			}
		})
		msg := fmt.Sprintf("unknown flag --%s", ne.GetSpecifiedName())
		if s := config.Nearest(ne.GetSpecifiedName(), names); s != "" {
			msg += fmt.Sprintf(" (did you mean --%s?)", s)
		}
		return fmt.Errorf("%s: run %s --help for the list", msg, command)
	}
	if errors.As(err, &ne) && len(ne.GetSpecifiedShortnames()) > 0 {
		short := ne.GetSpecifiedShortnames()
		msg := fmt.Sprintf("unknown flag -%s", short)
		if (short == "V" || short == "v") && fs.Lookup("version") != nil {
			msg += " (did you mean --version?)"
		}
		return fmt.Errorf("%s: run %s --help for the list", msg, command)
	}
	var ie *pflag.InvalidValueError
	if !errors.As(err, &ie) {
		return err
	}
	f := ie.GetFlag()
	why := nqueens.WholeHint(ie.GetValue())
	for _, k := range config.Keys {
		if k.Flag != f.Name && (k.Former.Flag == "" || k.Former.Flag != f.Name) {
			continue
		}
		if k.Kind != config.Whole {
			why = ""
		}
		return fmt.Errorf("--%s %s: want %s%s", f.Name, phrase.Quote(ie.GetValue()), k.Allowed(), why)
	}
	switch f.Value.Type() {
	case "int", "int64":
		return fmt.Errorf("--%s %s: want a whole number%s", f.Name, phrase.Quote(ie.GetValue()), why)
	case "uint64":
		return fmt.Errorf("--%s %s: want a whole number from 0 to %d%s", f.Name, phrase.Quote(ie.GetValue()), uint64(math.MaxUint64), why)
	case "bool":
		return fmt.Errorf("--%s %s: want true or false", f.Name, phrase.Quote(ie.GetValue()))
	}
	return err
}
