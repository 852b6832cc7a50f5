package estimate

import "context"

// Estimator says how long counts of n would take on this machine with
// Workers goroutines, measuring the machine's rate (MeasureRate) only once
// an estimate needs it, and then once. An Estimator is not safe for
// concurrent use.
type Estimator struct {
	// Workers is the number of goroutines the counts run: all cores when
	// less than 1.
	Workers int
	// Measured is the rate measured for Workers: nil until Rate measures
	// it; a caller that knows the rate may set it.
	Measured *Rate
}

// Rate returns e.Measured, measuring it first (MeasureRate) if it is nil.
// It returns MeasureRate's error, ctx.Err() if ctx is cancelled.
func (e *Estimator) Rate(ctx context.Context) (Rate, error) {
	if e.Measured == nil {
		r, err := measureRate(ctx, e.Workers)
		if err != nil {
			return r, err
		}
		e.Measured = &r
	}
	return *e.Measured, nil
}

// Long returns the estimate of counting n at this machine's rate, by the
// join if join is true and by constellations otherwise, and whether that
// count is long (Result.Long). It measures the rate only
// when the count could be long on a slow machine (MinRate), so that
// counts of a few seconds start at once, and estimates nothing for an n
// that cannot be long (Short), where the estimate alone would cost a
// sixth of the count: then it returns the zero Result and false. Its
// error is Rate's.
func (e *Estimator) Long(ctx context.Context, n int, join bool) (Result, bool, error) {
	if short(n) || join && n <= joinShortMax {
		return Result{}, false, nil
	}
	var est Result
	if join {
		est = MinRate(e.Workers).ForJoin(n)
	} else {
		est = MinRate(e.Workers).For(n)
	}
	if !est.Long() {
		return est, false, nil
	}
	r, err := e.Rate(ctx)
	if err != nil {
		return Result{}, false, err
	}
	est = est.At(r)
	return est, est.Long(), nil
}
