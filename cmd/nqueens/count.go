package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/count/estimate"
	"github.com/nqueens/nqueens/count/gpu"
	"github.com/nqueens/nqueens/count/parts"
	"github.com/nqueens/nqueens/count/resume"
	"github.com/nqueens/nqueens/internal/phrase"
	"github.com/nqueens/nqueens/progress"
)

// progressFromN is the smallest n whose count shows progress.
const progressFromN = 15

func (a *app) countCmd() *cobra.Command {
	var asJSON, combine, estimate bool
	var engine, state string
	cmd := &cobra.Command{Use: "count N-LIST", Short: "Count solutions and classes by search alone, no catalog needed",
		Args: minArgs(1, "a list of n such as 16, 4-12 or 1,5,9"),
		RunE: func(cmd *cobra.Command, args []string) error {
			shard, err := shardFlag(cmd)
			if err != nil {
				return err
			}
			if engine == "constellations" {
				engine = "cpu" // an alias of cpu, kept for scripts
			}
			switch sharded := combine || !shard.IsWhole(); {
			case engine != "cpu" && engine != "gpu" && engine != "classes":
				err = fmt.Errorf("--engine %s: want cpu, gpu or classes", quote(engine))
			case engine == "classes" && sharded:
				err = errors.New("--shard and --combine count by constellations: leave out --engine classes")
			case estimate && sharded:
				err = errors.New("--estimate estimates a whole count: leave out --shard and --combine")
			case estimate && engine != "cpu":
				err = fmt.Errorf("--estimate estimates the count by constellations on the CPU: leave out --engine %s", engine)
			case combine && !shard.IsWhole():
				err = errors.New("--combine and --shard do not go together")
			case state != "" && (combine || engine == "classes"):
				err = errors.New("--state keeps the work of a count by constellations: leave out --combine and --engine classes")
			}
			if err != nil {
				return usageError{fmt.Errorf("count: %w", err)}
			} else if combine {
				return a.countCombine(cmd.Context(), args, asJSON)
			}
			ns, err := nArgs(args)
			switch {
			case err != nil:
				return err
			case !shard.IsWhole() && len(ns) != 1:
				return usageError{fmt.Errorf("count --shard: want one n, got %d", len(ns))}
			case state != "" && state != "off" && len(ns) != 1:
				return usageError{fmt.Errorf("count --state: want one n, got %d (each n keeps a state of its own)", len(ns))}
			case estimate:
				return a.countEstimate(cmd.Context(), ns, asJSON)
			}
			if engine == "classes" {
				return a.countClasses(cmd.Context(), ns, asJSON)
			}
			e, closeEngine, err := a.openEngine(engine)
			if err != nil {
				return err
			}
			defer closeEngine()
			if e.Name() != "cpu" || slices.Max(ns) >= progressFromN {
				// The GPU, or a count long enough to show progress: say what counts.
				a.logf("count: engine %s, %s", e.Name(), e.Device())
			}
			if !shard.IsWhole() {
				return a.countShard(cmd.Context(), ns[0], shard, e, state)
			}
			var results []count.Result
			for _, n := range ns {
				if testHookCountStart != nil {
					testHookCountStart(n)
				}
				if e.Name() == "cpu" {
					if err := a.warnLong(cmd.Context(), n); err != nil {
						return a.finished(results, asJSON, err)
					}
				}
				start := time.Now()
				o, done := a.countOptions(fmt.Sprintf("count n=%d", n), n)
				o.Engine = e
				keep := a.keeper(n, nqueens.Shard{}, e, state)
				o.Resume = keep.resume(cmd.Context())
				total, err := o.Search(cmd.Context(), count.Constellations(n))
				done()
				if err := keep.end(cmd.Context(), fmt.Sprintf("count n=%d", n), err); err != nil {
					return a.finished(results, asJSON, err)
				}
				c, err := count.TallyTotal(cmd.Context(), n, total, a.cfg.Workers)
				if cmd.Context().Err() != nil {
					return a.finished(results, asJSON, fmt.Errorf("count n=%d: interrupted", n))
				} else if err != nil {
					return a.finished(results, asJSON, fmt.Errorf("count n=%d: %w", n, err))
				}
				results = append(results, count.Result{N: n, Counts: c, Seconds: time.Since(start).Seconds(), Engine: e.Name(), Device: e.Device()})
			}
			return writeCounts(a.stdout, results, asJSON)
		},
	}
	jsonFlag(&asJSON, cmd)
	cmd.Flags().String("shard", "", "count only shard I of K (I/K, I from 0; or auto/K from the job index)")
	cmd.Flags().BoolVar(&combine, "combine", false, "combine the files of count --shard given as arguments")
	cmd.Flags().BoolVar(&estimate, "estimate", false, "print how long each count would take, without counting")
	cmd.Flags().StringVar(&engine, "engine", "cpu", "cpu, gpu (CUDA), or classes (the class search, to check)")
	cmd.Flags().StringVar(&state, "state", "", "keep the count's finished work in this file to resume (default: in the user cache directory for long counts; off: none)")
	return cmd
}

// testHookCountStart, when set by a test, is called as count starts each
// n of its list.
var testHookCountStart func(n int)

// finished prints the counts of results, the n finished before a count
// failed with err (none: nothing printed), and returns err, saying that
// those rows are complete.
func (a *app) finished(results []count.Result, asJSON bool, err error) error {
	if len(results) == 0 {
		return err
	}
	if perr := writeCounts(a.stdout, results, asJSON); perr != nil {
		return perr
	}
	first, last := results[0].N, results[len(results)-1].N
	done := fmt.Sprintf("n=%d", first)
	if last != first {
		done = fmt.Sprintf("n=%d to %d", first, last)
	}
	return fmt.Errorf("%w (the counts of %s, printed, are complete)", err, done)
}

// countClasses counts each n of ns with the class search and prints the
// table or JSON.
func (a *app) countClasses(ctx context.Context, ns []int, asJSON bool) error {
	var results []count.Result
	for _, n := range ns {
		start := time.Now()
		o, done := a.countOptions(fmt.Sprintf("count n=%d", n), n)
		o.Classes = true
		c, err := count.Board(ctx, n, o)
		done()
		if ctx.Err() != nil {
			return a.finished(results, asJSON, fmt.Errorf("count n=%d: interrupted", n))
		} else if err != nil {
			return a.finished(results, asJSON, err)
		}
		results = append(results, count.Result{N: n, Counts: c, Seconds: time.Since(start).Seconds(),
			Engine: "classes", Device: count.CPU{Workers: a.cfg.Workers}.Device()})
	}
	return writeCounts(a.stdout, results, asJSON)
}

// openEngine returns the engine called name, cpu or gpu, and the function
// that releases it. Without a GPU, gpu is an error of one line that says
// what was looked for and that the CPU engine is the default.
func (a *app) openEngine(name string) (count.Engine, func(), error) {
	if name == "cpu" {
		return count.CPU{Workers: a.cfg.Workers}, func() {}, nil
	}
	e, err := gpu.Open()
	if errors.Is(err, gpu.ErrNoDevice) {
		return nil, nil, fmt.Errorf("count --engine gpu: no GPU to count on: %v; the default engine, cpu, needs none: leave out --engine gpu", err)
	} else if err != nil {
		return nil, nil, fmt.Errorf("count --engine gpu: %w", err)
	}
	return e, func() {
		if err := e.Close(); err != nil {
			a.logf("count: %v", err)
		}
	}, nil
}

// resumeFromN is, by engine, the smallest n whose count keeps its state
// when --state names no file: the counts of minutes (CPU n = 19 takes
// about 2 minutes on 2 cores; the GPU's n = 22 is aimed at 100 s).
var resumeFromN = map[string]int{"cpu": 19, "gpu": 22}

// keeper keeps the state of one count (count/resume), if it has one: a
// count of --state FILE, or a long count without --state.
type keeper struct {
	a     *app
	path  string // "" if the count keeps none
	label string
	hdr   func(cs []count.Constellation) resume.Header
	st    *resume.State
	units int
	fail  error // the first error writing the state
}

// keeper returns the keeper of the count of n (or shard s of it) by e,
// with the --state flag.
func (a *app) keeper(n int, s nqueens.Shard, e count.Engine, flag string) *keeper {
	k := &keeper{a: a, label: fmt.Sprintf("count n=%d%s", n, shardSuffix(s))}
	k.hdr = func(cs []count.Constellation) resume.Header {
		return resume.NewHeader(n, s, cs, version(commit))
	}
	switch {
	case flag == "off":
	case flag != "":
		k.path = flag
	case n >= resumeFromN[e.Name()]:
		if p, err := resume.DefaultPath(n, s); err != nil {
			a.logf("%s: the work is not kept for a resume: %v", k.label, err)
		} else {
			k.path = p
		}
	}
	return k
}

// resume returns count.Options.Resume for the count running under ctx:
// it opens the state and says on stderr what it resumes from.
func (k *keeper) resume(ctx context.Context) func(cs []count.Constellation) (map[int]uint64, func(int, uint64), error) {
	return func(cs []count.Constellation) (map[int]uint64, func(int, uint64), error) {
		k.units = len(cs)
		if k.path == "" {
			return nil, nil, nil
		}
		st, err := resume.Open(k.path, k.hdr(cs))
		if err != nil {
			return nil, nil, err
		}
		k.st = st
		if st.Replaced != "" {
			k.a.logf("%s: replacing the state in %s: %s", k.label, st.Path(), st.Replaced)
		}
		if st.Len() > 0 {
			k.a.logf("%s: resuming with %d of %d work units kept in %s", k.label, st.Len(), len(cs), st.Path())
		}
		return st.Known(), func(i int, solutions uint64) {
			if err := st.Record(i, solutions); err != nil && k.fail == nil {
				k.fail = err
				k.a.logf("%s: %v: the work from here on is not kept", k.label, err)
			}
			if testHookCountFound != nil {
				testHookCountFound(ctx, st.Len())
			}
		}, nil
	}
}

// testHookCountFound, when set by a test, is called after each work unit
// a count with a state finds, with the count's context and the number of
// units the state holds.
var testHookCountFound func(ctx context.Context, kept int)

// end closes the state once the search returned err: it removes it after
// a whole search, keeps it otherwise, and returns the error to report,
// which says where the work is kept.
func (k *keeper) end(ctx context.Context, label string, err error) error {
	kept := func() string {
		return fmt.Sprintf("%d of %d work units kept in %s: run the same count again to resume", k.st.Len(), k.units, k.st.Path())
	}
	switch {
	case err == nil && k.st != nil:
		if err := k.st.Remove(); err != nil {
			k.a.logf("%s: %v", label, err)
		}
		return nil
	case err == nil:
		return nil
	case k.st == nil && ctx.Err() != nil:
		return fmt.Errorf("%s: interrupted", label)
	case k.st == nil:
		return fmt.Errorf("%s: %w", label, err)
	}
	k.st.Close()
	if ctx.Err() != nil {
		return fmt.Errorf("%s: interrupted; %s", label, kept())
	}
	return fmt.Errorf("%s: %w; %s", label, err, kept())
}

// countOptions returns the options of a count of n with the configured
// workers and, for n of progressFromN and above, a meter called label;
// the caller calls done when the count returns.
func (a *app) countOptions(label string, n int) (o count.Options, done func()) {
	m := progress.Nop
	o = count.Options{Workers: a.cfg.Workers}
	if n >= progressFromN {
		o.Start = func(units int) { m = a.progress(label, 0, int64(units), "work units") }
		o.Progress = func() { m.Add(1) }
	}
	return o, func() { m.Done() }
}

// countEstimate prints the estimate of counting each n of ns, as text or,
// with asJSON, a JSON array; it searches only the calibration sample.
func (a *app) countEstimate(ctx context.Context, ns []int, asJSON bool) error {
	r, err := a.estimator().Rate(ctx)
	if err != nil || ctx.Err() != nil {
		return rateError(ctx, err)
	}
	var out []estimate.Result
	for _, n := range ns {
		e := r.For(n)
		out = append(out, e)
		if !asJSON {
			fmt.Fprintf(a.stdout, "count %d: %s\n", n, e)
		}
	}
	if asJSON {
		return writeJSON(a.stdout, out)
	}
	return nil
}

// warnLong writes to stderr, unless --quiet, how long counting n will
// take if it is long (estimate.Estimator.Long).
func (a *app) warnLong(ctx context.Context, n int) error {
	if a.cfg.Quiet {
		return nil
	}
	e, long, err := a.estimator().Long(ctx, n)
	if err != nil {
		return rateError(ctx, err)
	} else if long {
		fmt.Fprintf(a.stderr, "count %d: %s; --shard splits it\n", n, e.Time())
	}
	return nil
}

// estimator returns the estimator of counts with the configured workers,
// which measures this machine's rate once, when first needed.
func (a *app) estimator() *estimate.Estimator {
	if a.est == nil {
		a.est = &estimate.Estimator{Workers: a.cfg.Workers}
	}
	return a.est
}

// rateError words an error of measuring the search rate.
func rateError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return errors.New("count: interrupted while measuring the search rate")
	}
	return fmt.Errorf("count: %w", err)
}

// countShard counts one shard of n with e and prints its part as JSON.
func (a *app) countShard(ctx context.Context, n int, s nqueens.Shard, e count.Engine, state string) error {
	label := fmt.Sprintf("count n=%d%s", n, shardSuffix(s))
	o, done := a.countOptions(label, n)
	o.Engine = e
	keep := a.keeper(n, s, e, state)
	o.Resume = keep.resume(ctx)
	p, err := parts.Make(ctx, n, s, o)
	done()
	switch {
	case errors.Is(err, nqueens.ErrNoShard):
		return usageError{err}
	case err != nil && keep.st == nil && ctx.Err() != nil:
		return fmt.Errorf("%s: interrupted", label)
	case err != nil && keep.st == nil:
		return err
	case err != nil:
		return keep.end(ctx, label, err)
	}
	keep.end(ctx, label, nil)
	a.logf("n=%d shard %s: %d of %d work units, %s, %.3fs (search %.3fs)",
		n, s, p.Units, p.UnitsTotal, phrase.Plural(p.Total, "solution"), p.Seconds, p.SearchSeconds)
	return writeJSONLine(a.stdout, p)
}

// notAPart says what a file given to count --combine holds instead of a
// part.
func notAPart(fe *parts.FileError) error {
	switch {
	case errors.Is(fe, parts.ErrOtherVersion):
		// Parts of versions before constellations carried class counts.
		return fmt.Errorf("%s is not the output of this version's count --shard (%w): made by another version?", fe.Path, fe.Err)
	case errors.Is(fe, parts.ErrMoreThanOne):
		return fmt.Errorf("%s holds more than one result of count --shard", fe.Path)
	case errors.Is(fe, parts.ErrOutOfRange):
		return fe
	}
	return fmt.Errorf("%s is not the output of count --shard: %w", fe.Path, fe.Err)
}

// countCombine prints the combined counts of the partial results in
// files, and fails if they differ from the published counts.
func (a *app) countCombine(ctx context.Context, files []string, asJSON bool) error {
	if len(files) == 0 {
		return usageError{errors.New("count --combine: want the files count --shard wrote, e.g. part-*.json")}
	}
	c, k, err := parts.CombineFiles(ctx, files, a.cfg.Workers)
	var fe *parts.FileError
	switch {
	case errors.As(err, &fe):
		return fmt.Errorf("combine: %w", notAPart(fe))
	case errors.Is(err, parts.ErrAltered):
		return fmt.Errorf("%w: %v", errMismatch, err)
	case err != nil:
		return err
	}
	if err := writeCounts(a.stdout, []count.Result{c}, asJSON); err != nil {
		return err
	}
	if _, ok := nqueens.KnownCounts(c.N); ok {
		a.logf("n=%d: %s combined; the counts match OEIS A000170 and A002562", c.N, phrase.Plural(k, "shard"))
	}
	return nil
}
