//go:build nogpu || !linux

package gpu

import (
	"errors"
	"runtime"
)

// Open returns an error matching ErrNoDevice: this build of nqueens has
// no GPU engine.
func Open() (*Engine, error) {
	if runtime.GOOS != "linux" {
		return nil, marked{errors.New("the GPU engine reaches the CUDA driver on Linux only"), ErrNoDevice}
	}
	return nil, marked{errors.New("this nqueens was built without the GPU engine (-tags nogpu)"), ErrNoDevice}
}

// kernel says how the driver compiled the kernel: "", as there is none.
func (e *Engine) kernel() string { return "" }
