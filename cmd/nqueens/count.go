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
	var asJSON, total, combine, estimate, classSearch bool
	var engine, state string
	cmd := &cobra.Command{Use: "count N-LIST", Short: "Count solutions and classes by search alone, no catalog needed",
		Args: minArgs(1, "a list of n such as 16, 4-12 or 1,5,9"),
		RunE: func(cmd *cobra.Command, args []string) error {
			shard, err := shardFlag(cmd)
			if err != nil {
				return err
			}
			if engine == "constellations" {
				engine = "cpu" // the engine's other name: it counts by constellations
			}
			switch sharded := combine || !shard.IsWhole(); {
			case engine == "classes":
				err = errors.New("--engine classes: the class search is no engine: count with it by --class-search")
			case engine != "" && !slices.Contains(engineNames, engine):
				err = fmt.Errorf("--engine %s: want %s", quote(engine), orList(engineNames))
			case classSearch && engine != "":
				err = fmt.Errorf("--class-search counts by the class search, on no engine: leave out --engine %s", engine)
			case classSearch && sharded:
				err = errors.New("--shard and --combine count by work units: leave out --class-search")
			case estimate && sharded:
				err = errors.New("--estimate estimates a whole count: leave out --shard and --combine")
			case estimate && engine == "gpu":
				err = errors.New("--estimate estimates the counts on the CPU, by the join or by constellations: leave out --engine gpu")
			case estimate && classSearch:
				err = errors.New("--estimate estimates the counts on the CPU, by the join or by constellations: leave out --class-search")
			case combine && !shard.IsWhole():
				err = errors.New("--combine and --shard do not go together")
			case state != "" && (combine || classSearch):
				err = errors.New("--state keeps the work units of a count: leave out --combine and --class-search")
			}
			out := countTable
			switch {
			case total && asJSON:
				err = errors.New("--total prints the bare totals, --json every count: choose one")
			case total && (estimate || !shard.IsWhole()):
				err = errors.New("--total prints the totals of whole counts: leave out --estimate and --shard")
			case total:
				out = countTotal
			case asJSON:
				out = countJSON
			}
			if err != nil {
				return usageError{fmt.Errorf("count: %w", err)}
			} else if combine {
				return a.countCombine(cmd.Context(), args, out)
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
				return a.countEstimate(cmd.Context(), ns, engine, asJSON)
			}
			if classSearch {
				engine = "classes" // what engines.of gives the class search
			}
			engines, err := a.openEngines(engine, ns)
			if err != nil {
				return err
			}
			defer engines.close()
			if !shard.IsWhole() {
				e, err := engines.of(ns[0], a.cfg.Workers)
				if err != nil {
					return err
				}
				a.sayEngine(e, ns[0])
				return a.countShard(cmd.Context(), ns[0], shard, e, state)
			}
			var results []count.Result
			for _, n := range ns {
				if testHookCountStart != nil {
					testHookCountStart(n)
				}
				e, err := engines.of(n, a.cfg.Workers)
				if err != nil {
					return a.finished(results, out, err)
				}
				a.sayEngine(e, n)
				var estimate time.Duration
				if e.Name() == "cpu" || e.Name() == "join" {
					if estimate, err = a.warnLong(cmd.Context(), n, e.Name()); err != nil {
						return a.finished(results, out, err)
					}
				}
				start := time.Now()
				label := fmt.Sprintf("count n=%d", n)
				o, done := a.countOptions(label, n, estimate)
				o = e.options(o)
				o.Keeper = a.keeper(cmd.Context(), label, n, nqueens.Shard{}, e, state)
				c, err := count.Board(cmd.Context(), n, o)
				done()
				if err != nil {
					return a.finished(results, out, countError(err))
				}
				results = append(results, count.Result{N: n, Counts: c, Seconds: time.Since(start).Seconds(), Engine: e.Name(), Device: e.Device()})
			}
			return writeCounts(a.stdout, results, out)
		},
	}
	jsonFlag(&asJSON, cmd)
	cmd.Flags().BoolVar(&total, "total", false, "print each total alone on a line (LeetCode 52's answer)")
	cmd.Flags().String("shard", "", "count only shard I of K (I/K, I from 0; or auto/K from the job index)")
	cmd.Flags().BoolVar(&combine, "combine", false, "combine the files of count --shard given as arguments")
	cmd.Flags().BoolVar(&estimate, "estimate", false, "print how long each count would take, without counting")
	cmd.Flags().StringVar(&engine, "engine", "", "join (half boards joined), cpu (constellations) or gpu (CUDA); default: join from n = 16 to 25 and for even n from 8, cpu for the rest")
	cmd.Flags().BoolVar(&classSearch, "class-search", false, "count by build's search for classes instead, on the CPU: slower, an independent check")
	cmd.Flags().StringVar(&state, "state", "", "keep the count's finished work in this file to resume (default: in the user cache directory for long counts; off: none)")
	cmd.ValidArgsFunction = completeNs(false)
	completeValues(cmd, "engine", engineNames...)
	return cmd
}

// engineNames are the engines --engine names (constellations is cpu's
// other name).
var engineNames = []string{"join", "cpu", "gpu"}

// testHookCountStart, when set by a test, is called as count starts each
// n of its list.
var testHookCountStart func(n int)

// finished prints the counts of results, the n finished before a count
// failed with err (none: nothing printed), and returns err, saying that
// those rows are complete. After counts that are not the published ones
// it prints nothing.
func (a *app) finished(results []count.Result, out countOutput, err error) error {
	if len(results) == 0 || errors.As(err, new(*nqueens.KnownError)) {
		return err
	}
	if perr := writeCounts(a.stdout, results, out); perr != nil {
		return perr
	}
	first, last := results[0].N, results[len(results)-1].N
	done := fmt.Sprintf("n=%d", first)
	if last != first {
		done = fmt.Sprintf("n=%d to %d", first, last)
	}
	return fmt.Errorf("%w (the counts of %s, printed, are complete)", err, done)
}

// countError words the error of count.Board or parts.Make, which names n
// (and the shard): "count n=16: ...".
func countError(err error) error {
	return fmt.Errorf("count %w", err)
}

// counter is what counts an n (count.Options.By): an engine that
// searches its constellations, the join, or the class search.
type counter struct {
	by      count.Method
	engine  count.Engine // the engine of count.ByConstellations
	workers int
}

// Name names what counts, as stderr and --json say it: the engine's name,
// "join" or "classes".
func (c counter) Name() string {
	switch c.by {
	case count.ByJoin:
		return "join"
	case count.ByClasses:
		return "classes"
	}
	return c.engine.Name()
}

// Device says what it counts on: the engine's device, or the CPU's
// goroutines for the join and the class search.
func (c counter) Device() string {
	if c.by == count.ByConstellations {
		return c.engine.Device()
	}
	return count.CPU{Workers: c.workers}.Device()
}

// options returns o, set to count with c.
func (c counter) options(o count.Options) count.Options {
	o.By, o.Engine = c.by, c.engine
	return o
}

// engines are the counters a count may use: the one --engine named (or
// the class search, --class-search), or where it named none, the join
// and the constellations on the CPU, of which each n takes the faster
// (count.JoinFaster).
type engines struct {
	named string
	gpu   count.Engine
	close func()
	a     *app
}

// openEngines returns the engines of a count of ns whose --engine flag is
// name ("" for none): the GPU is opened here, once, and a join is refused
// before anything is counted if one of ns would not fit (engines.of). Without a GPU, gpu is an error of one line that says what
// was looked for and that the CPU's engines are the default.
func (a *app) openEngines(name string, ns []int) (*engines, error) {
	es := &engines{named: name, close: func() {}, a: a}
	if name == "join" || name == "" {
		for _, n := range ns {
			if _, err := es.of(n, a.cfg.Workers); err != nil {
				return nil, err
			}
		}
	}
	if name != "gpu" {
		return es, nil
	}
	e, err := gpu.Open()
	if errors.Is(err, gpu.ErrNoDevice) {
		return nil, fmt.Errorf("count --engine gpu: no GPU to count on: %v; the default engines, join and cpu, need none: leave out --engine gpu", err)
	} else if err != nil {
		return nil, fmt.Errorf("count --engine gpu: %w", err)
	}
	es.gpu = e
	es.close = func() {
		if err := e.Close(); err != nil {
			a.logf("count: %v", err)
		}
	}
	return es, nil
}

// of returns what counts n on workers goroutines: the engine named (or
// the class search, named "classes"), or the default of n (the join
// where count.JoinFaster says so, constellations otherwise), which
// depends on n alone. The join needs memory that grows with n
// (count.JoinFits): where it would not fit, of returns an error of one
// line that says so and names the engine to use.
func (es *engines) of(n, workers int) (counter, error) {
	cpu := counter{engine: count.CPU{Workers: workers}, workers: workers}
	join := counter{by: count.ByJoin, workers: workers}
	switch es.named {
	case "cpu":
		return cpu, nil
	case "classes":
		return counter{by: count.ByClasses, workers: workers}, nil
	case "gpu":
		return counter{engine: es.gpu, workers: workers}, nil
	case "join":
		if err := count.JoinFits(n, workers, availableMemory()); err != nil {
			return counter{}, fmt.Errorf("count %d --engine join: %w: leave out --engine join, or use --engine cpu", n, err)
		}
		return join, nil
	}
	if !count.JoinFaster(n) {
		return cpu, nil
	}
	// The default engine of n is the same on every run and every machine,
	// so that a count resumes its own state and shards combine: where the
	// join would not fit, the count is refused rather than moved.
	if err := count.JoinFits(n, workers, availableMemory()); err != nil {
		return counter{}, fmt.Errorf("count %d: %w: count it by constellations with --engine cpu, or free memory", n, err)
	}
	return join, nil
}

// sayEngine logs, for a count long enough to show progress or on the
// GPU, which engine counts n on what, and for the join the memory it
// takes.
func (a *app) sayEngine(e counter, n int) {
	switch {
	case e.Name() == "join" && n >= progressFromN:
		a.logf("count: engine join, %s, about %s of memory", e.Device(), phrase.Bytes(uint64(count.JoinMemory(n, a.cfg.Workers))))
	case e.Name() == "gpu" || e.Name() == "cpu" && n >= progressFromN:
		a.logf("count: engine %s, %s", e.Name(), e.Device())
	}
}

// resumeFromN is, by engine, the smallest n whose count keeps its state
// when --state names no file: the counts of minutes (CPU n = 19 takes
// about 2 minutes on 2 cores, the join's n = 20 about 3; the GPU's n =
// 22 is aimed at 100 s).
var resumeFromN = map[string]int{"cpu": 19, "join": 20, "gpu": 22}

// keeper returns the keeper of the state of the count of n (or shard s
// of it) by e, called label, running under ctx, with the --state flag:
// nil if it keeps none (--state off, the class search, or a short count
// without --state).
func (a *app) keeper(ctx context.Context, label string, n int, s nqueens.Shard, e counter, flag string) count.Keeper {
	k := &resume.Keeper{N: n, Shard: s, Version: version(commit), Log: func(msg string) { a.logf("%s: %s", label, msg) }}
	from, long := resumeFromN[e.Name()]
	switch {
	case flag == "off" || e.by == count.ByClasses:
		return nil
	case flag != "":
		k.Path = flag
	case !long || n < from:
		return nil
	default:
		p, err := resume.DefaultPath(n, s)
		if err != nil {
			a.logf("%s: the work is not kept for a resume: %v", label, err)
			return nil
		}
		k.Path, k.Optional = p, true
	}
	if testHookCountFound != nil {
		return hookedKeeper{k, ctx}
	}
	return k
}

// testHookCountFound, when set by a test, is called after each work unit
// a count with a state finds, with the count's context and the number of
// units the state holds.
var testHookCountFound func(ctx context.Context, kept int)

// hookedKeeper calls testHookCountFound after each work unit kept.
type hookedKeeper struct {
	*resume.Keeper
	ctx context.Context
}

func (h hookedKeeper) Keep(i int, solutions uint64) {
	h.Keeper.Keep(i, solutions)
	testHookCountFound(h.ctx, h.Len())
}

// countOptions returns the options of a count of n with the configured
// workers and, for n of progressFromN and above, a meter called label
// that counts the work units of the whole count, those a resumed count
// kept included (as its messages do), and whose time left starts from
// estimate (0: none), the whole count's, in the share of the units left
// (progress.Left); the caller calls done when the count returns.
func (a *app) countOptions(label string, n int, estimate time.Duration) (o count.Options, done func()) {
	m := progress.Nop
	o = count.Options{Workers: a.cfg.Workers}
	if n >= progressFromN {
		o.Start = func(kept, total int) {
			m = a.progressEstimated(label, int64(kept), int64(total), "work units", estimate)
		}
		o.Progress = func() { m.Add(1) }
	}
	return o, func() { m.Done() }
}

// countEstimate prints the estimate of counting each n of ns with the
// engine named by --engine (engine; "" for the default of each n), as
// text or, with asJSON, a JSON array; it searches only the calibration
// sample.
func (a *app) countEstimate(ctx context.Context, ns []int, engine string, asJSON bool) error {
	for _, n := range ns {
		if engine == "join" {
			if err := count.JoinFits(n, a.cfg.Workers, -1); err != nil {
				return fmt.Errorf("count %d --engine join: %w: leave out --engine join, or use --engine cpu", n, err)
			}
		}
	}
	r, err := a.estimator().Rate(ctx)
	if err != nil || ctx.Err() != nil {
		return rateError(ctx, err)
	}
	var out []estimate.Result
	for _, n := range ns {
		e := r.For(n)
		if engine == "join" || engine == "" && count.JoinFaster(n) && count.JoinFits(n, a.cfg.Workers, availableMemory()) == nil {
			e = r.ForJoin(n)
		}
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

// warnLong writes to stderr, unless --quiet, how long counting n with
// the engine called engine will take if it is long
// (estimate.Estimator.Long), and returns that time for the progress
// meter to start from; 0 if it said nothing.
func (a *app) warnLong(ctx context.Context, n int, engine string) (time.Duration, error) {
	if a.cfg.Quiet {
		return 0, nil
	}
	e, long, err := a.estimator().Long(ctx, n, engine == "join")
	if err != nil {
		return 0, rateError(ctx, err)
	} else if !long {
		return 0, nil
	}
	fmt.Fprintf(a.stderr, "count %d: %s; --shard splits it\n", n, e.Time())
	return time.Duration(e.Seconds * float64(time.Second)), nil
}

// estimator returns the estimator of counts with the configured workers,
// which measures this machine's rate once, when first needed.
func (a *app) estimator() *estimate.Estimator {
	if a.est == nil {
		a.est = &estimate.Estimator{Workers: a.cfg.Workers, Measured: testRate}
	}
	return a.est
}

// testRate, when set by a test, is the search rate of every estimate, so
// that what the command says of a long build or count does not depend on
// the machine's load.
var testRate *estimate.Rate

// rateError words an error of measuring the search rate.
func rateError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return errors.New("count: interrupted while measuring the search rate")
	}
	return fmt.Errorf("count: %w", err)
}

// countShard counts one shard of n with e and prints its part as JSON.
func (a *app) countShard(ctx context.Context, n int, s nqueens.Shard, e counter, state string) error {
	label := fmt.Sprintf("count n=%d%s", n, shardSuffix(s))
	o, done := a.countOptions(label, n, 0)
	o = e.options(o)
	o.Keeper = a.keeper(ctx, label, n, s, e, state)
	p, err := parts.Make(ctx, n, s, o)
	done()
	switch {
	case errors.Is(err, nqueens.ErrNoShard):
		return usageError{err}
	case err != nil:
		return countError(err)
	}
	a.logf("n=%d shard %s: %s of %s work units, %s, %s (search %s)",
		n, s, phrase.Count(p.Units), phrase.Count(p.UnitsTotal), phrase.Plural(p.Total, "solution"), seconds(p.Seconds), seconds(p.SearchSeconds))
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
func (a *app) countCombine(ctx context.Context, files []string, out countOutput) error {
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
	if err := writeCounts(a.stdout, []count.Result{c}, out); err != nil {
		return err
	}
	if _, ok := nqueens.KnownCounts(c.N); ok {
		a.logf("n=%d: %s combined; the counts match OEIS A000170 and A002562", c.N, phrase.Plural(k, "shard"))
	}
	return nil
}
