// Package cuda is the one package that calls the CUDA driver: it loads the
// driver library (libcuda.so.1) at run time, so that building needs no C
// compiler and no CUDA toolkit, and offers what count/gpu needs of it: a
// device and its primary context, a module loaded from PTX and its
// occupancy, device memory, streams, asynchronous copies and kernel
// launches. Every driver error is translated here, into
// an error that names the call and the driver's words for the result.
//
// A context belongs to an OS thread: Open and every method of a Device
// must run on one goroutine locked to its thread (runtime.LockOSThread).
//
// The driver calls are built on Linux without the tag nogpu only;
// count/gpu leaves the package out otherwise.
package cuda

import (
	"errors"
	"os"
)

// ErrNoDriver is matched by Open's error when there is no driver library
// to load or no GPU for it to drive.
var ErrNoDriver = errors.New("no CUDA driver or GPU")

// libraryEnv names the environment variable that, when set, is the path
// of the driver library Open loads instead of searching for libcuda.so.1.
const libraryEnv = "NQUEENS_CUDA_LIBRARY"

// libraries returns the driver libraries Open tries, in order.
func libraries() []string {
	if p := os.Getenv(libraryEnv); p != "" {
		return []string{p}
	}
	return []string{"libcuda.so.1", "/usr/local/nvidia/lib64/libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1"}
}

// noDriver is an error that reads as err and matches ErrNoDriver.
type noDriver struct{ err error }

func (e noDriver) Error() string   { return e.err.Error() }
func (e noDriver) Unwrap() []error { return []error{e.err, ErrNoDriver} }
