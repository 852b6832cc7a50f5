//go:build linux && !nogpu

package cuda

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"unsafe"

	"github.com/ebitengine/purego"
)

// driver holds the functions of the driver library, each as purego
// registered it; every one returns a CUresult, 0 for success.
type driver struct {
	init               func(flags uint32) int32
	driverGetVersion   func(version *int32) int32
	deviceGetCount     func(count *int32) int32
	deviceGet          func(dev *int32, ordinal int32) int32
	deviceGetName      func(name *byte, size int32, dev int32) int32
	deviceGetAttribute func(value *int32, attr int32, dev int32) int32
	primaryCtxRetain   func(ctx *uintptr, dev int32) int32
	primaryCtxRelease  func(dev int32) int32
	ctxSetCurrent      func(ctx uintptr) int32
	moduleLoadData     func(module *uintptr, image unsafe.Pointer) int32
	moduleGetFunction  func(fn *uintptr, module uintptr, name *byte) int32
	moduleUnload       func(module uintptr) int32
	memAlloc           func(ptr *uint64, size uint64) int32
	memFree            func(ptr uint64) int32
	launchKernel       func(fn uintptr, gx, gy, gz, bx, by, bz, shared uint32, stream uintptr, params unsafe.Pointer, extra unsafe.Pointer) int32
	streamCreate       func(stream *uintptr, flags uint32) int32
	streamDestroy      func(stream uintptr) int32
	streamQuery        func(stream uintptr) int32
	streamSynchronize  func(stream uintptr) int32
	memcpyHtoDAsync    func(dst uint64, src unsafe.Pointer, size uint64, stream uintptr) int32
	memcpyDtoHAsync    func(dst unsafe.Pointer, src uint64, size uint64, stream uintptr) int32
	memsetD32Async     func(dst uint64, value uint32, count uint64, stream uintptr) int32
	occupancy          func(blocks *int32, fn uintptr, blockSize int32, dynamicShared uint64) int32
	funcGetAttribute   func(value *int32, attr int32, fn uintptr) int32
	getErrorName       func(res int32, str **byte) int32
	getErrorString     func(res int32, str **byte) int32
}

// symbols lists the driver's functions by their names in the library.
func (d *driver) symbols() []struct {
	name string
	fn   any
} {
	return []struct {
		name string
		fn   any
	}{
		{"cuInit", &d.init}, {"cuDriverGetVersion", &d.driverGetVersion},
		{"cuDeviceGetCount", &d.deviceGetCount}, {"cuDeviceGet", &d.deviceGet},
		{"cuDeviceGetName", &d.deviceGetName}, {"cuDeviceGetAttribute", &d.deviceGetAttribute},
		{"cuDevicePrimaryCtxRetain", &d.primaryCtxRetain}, {"cuDevicePrimaryCtxRelease_v2", &d.primaryCtxRelease},
		{"cuCtxSetCurrent", &d.ctxSetCurrent},
		{"cuModuleLoadData", &d.moduleLoadData}, {"cuModuleGetFunction", &d.moduleGetFunction},
		{"cuModuleUnload", &d.moduleUnload},
		{"cuMemAlloc_v2", &d.memAlloc}, {"cuMemFree_v2", &d.memFree},
		{"cuLaunchKernel", &d.launchKernel},
		{"cuStreamCreate", &d.streamCreate}, {"cuStreamDestroy_v2", &d.streamDestroy},
		{"cuStreamQuery", &d.streamQuery}, {"cuStreamSynchronize", &d.streamSynchronize},
		{"cuMemcpyHtoDAsync_v2", &d.memcpyHtoDAsync}, {"cuMemcpyDtoHAsync_v2", &d.memcpyDtoHAsync},
		{"cuMemsetD32Async", &d.memsetD32Async},
		{"cuOccupancyMaxActiveBlocksPerMultiprocessor", &d.occupancy}, {"cuFuncGetAttribute", &d.funcGetAttribute},
		{"cuGetErrorName", &d.getErrorName}, {"cuGetErrorString", &d.getErrorString},
	}
}

// Device attributes (CUdevice_attribute).
const (
	attrMultiprocessors      = 16
	attrThreadsPerProcessor  = 39
	attrComputeCapabilityMaj = 75
	attrComputeCapabilityMin = 76
)

// Results and flags of the driver (CUresult, CUstream_flags,
// CUfunction_attribute).
const (
	errorNotReady       = 600
	streamNonBlocking   = 1
	funcSharedSizeBytes = 1
	funcNumRegs         = 4
)

// Device is a GPU with its primary context current on the calling thread.
type Device struct {
	// Name is the device's name ("NVIDIA H100 80GB HBM3"), Capability its
	// compute capability ("9.0"), Driver the driver's CUDA version
	// ("12.4").
	Name, Capability, Driver string
	// SMs is the number of multiprocessors, ThreadsPerSM the threads
	// each runs at once.
	SMs, ThreadsPerSM int
	d                 *driver
	dev               int32
	ctx               uintptr
}

// Open loads the driver library, initialises it and finds the first GPU,
// on the calling thread, which must be locked to its goroutine and make
// every later call on the Device, Start first. It returns an error
// matching ErrNoDriver if no library loads or the driver finds no GPU or
// cannot start, and one naming the call that failed otherwise.
func Open() (*Device, error) {
	var lib uintptr
	paths := libraries()
	var first error
	for _, path := range paths {
		h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err == nil {
			lib = h
			break
		} else if first == nil {
			first = err
		}
	}
	if lib == 0 {
		return nil, noDriver{fmt.Errorf("looked for the CUDA driver library as %s: none loads (%v)", strings.Join(paths, ", "), first)}
	}
	d := new(driver)
	for _, s := range d.symbols() {
		sym, err := purego.Dlsym(lib, s.name)
		if err != nil {
			return nil, noDriver{fmt.Errorf("the CUDA driver library has no %s: too old a driver? (%v)", s.name, err)}
		}
		purego.RegisterFunc(s.fn, sym)
	}
	if r := d.init(0); r != 0 {
		return nil, noDriver{d.error("cuInit", r)}
	}
	var count int32
	if r := d.deviceGetCount(&count); r != 0 {
		return nil, noDriver{d.error("cuDeviceGetCount", r)}
	} else if count == 0 {
		return nil, noDriver{errors.New("the CUDA driver found no GPU")}
	}
	dv := &Device{d: d}
	if r := d.deviceGet(&dv.dev, 0); r != 0 {
		return nil, d.error("cuDeviceGet", r)
	}
	var name [256]byte
	if r := d.deviceGetName(&name[0], int32(len(name)), dv.dev); r != 0 {
		return nil, d.error("cuDeviceGetName", r)
	}
	dv.Name = cString(&name[0])
	var sms, threads, major, minor, version int32
	for _, a := range []struct {
		attr int32
		to   *int32
	}{{attrMultiprocessors, &sms}, {attrThreadsPerProcessor, &threads}, {attrComputeCapabilityMaj, &major}, {attrComputeCapabilityMin, &minor}} {
		if r := d.deviceGetAttribute(a.to, a.attr, dv.dev); r != 0 {
			return nil, d.error("cuDeviceGetAttribute", r)
		}
	}
	if r := d.driverGetVersion(&version); r != 0 {
		return nil, d.error("cuDriverGetVersion", r)
	}
	dv.SMs, dv.ThreadsPerSM = int(sms), int(threads)
	dv.Capability = fmt.Sprintf("%d.%d", major, minor)
	dv.Driver = fmt.Sprintf("%d.%d", version/1000, version%1000/10)
	return dv, nil
}

// Start makes the device's primary context current on the calling
// thread, Open's: what takes the driver longest (a few hundred
// milliseconds), which the caller may overlap with its own work. Every
// other method needs it; the caller calls Close once it succeeded.
func (dv *Device) Start() error {
	d := dv.d
	if r := d.primaryCtxRetain(&dv.ctx, dv.dev); r != 0 {
		return d.error("cuDevicePrimaryCtxRetain", r)
	}
	if r := d.ctxSetCurrent(dv.ctx); r != 0 {
		d.primaryCtxRelease(dv.dev)
		return d.error("cuCtxSetCurrent", r)
	}
	return nil
}

// Close releases the device's primary context.
func (dv *Device) Close() error {
	if r := dv.d.primaryCtxRelease(dv.dev); r != 0 {
		return dv.d.error("cuDevicePrimaryCtxRelease", r)
	}
	return nil
}

// error returns the error of the driver call named call with the result r:
// "cuLaunchKernel: CUDA_ERROR_LAUNCH_FAILED (unspecified launch failure)".
// It is the one translation of driver results.
func (d *driver) error(call string, r int32) error {
	var name, desc *byte
	n, s := fmt.Sprintf("CUresult %d", r), "no description"
	if d.getErrorName(r, &name) == 0 && name != nil {
		n = cString(name)
	}
	if d.getErrorString(r, &desc) == 0 && desc != nil {
		s = cString(desc)
	}
	return fmt.Errorf("%s: %s (%s)", call, n, s)
}

// cString returns the NUL-terminated string at p, at most 4096 bytes.
func cString(p *byte) string {
	var b []byte
	for i := range 4096 {
		c := *(*byte)(unsafe.Add(unsafe.Pointer(p), i))
		if c == 0 {
			break
		}
		b = append(b, c)
	}
	return string(b)
}

// Kernel is a kernel function of a module loaded on a device.
type Kernel struct {
	dv     *Device
	module uintptr
	fn     uintptr
}

// Load loads the module ptx (NUL-terminated PTX, compiled for the device
// by the driver) and returns its kernel called name. The caller calls
// Unload.
func (dv *Device) Load(ptx []byte, name string) (*Kernel, error) {
	if len(ptx) == 0 || ptx[len(ptx)-1] != 0 {
		return nil, errors.New("cuModuleLoadData: the PTX is not NUL-terminated")
	}
	k := &Kernel{dv: dv}
	if r := dv.d.moduleLoadData(&k.module, unsafe.Pointer(&ptx[0])); r != 0 {
		return nil, dv.d.error("cuModuleLoadData", r)
	}
	cname := append([]byte(name), 0)
	if r := dv.d.moduleGetFunction(&k.fn, k.module, &cname[0]); r != 0 {
		dv.d.moduleUnload(k.module)
		return nil, dv.d.error("cuModuleGetFunction "+name, r)
	}
	return k, nil
}

// Unload unloads the kernel's module.
func (k *Kernel) Unload() error {
	if r := k.dv.d.moduleUnload(k.module); r != 0 {
		return k.dv.d.error("cuModuleUnload", r)
	}
	return nil
}

// Buffer is device memory: its address and size in bytes.
type Buffer struct {
	ptr  uint64
	size int
}

// Size returns the size of b in bytes: 0 for the zero Buffer, which is
// none.
func (b Buffer) Size() int { return b.size }

// Alloc allocates size bytes of device memory. The caller calls Free.
func (dv *Device) Alloc(size int) (Buffer, error) {
	b := Buffer{size: size}
	if r := dv.d.memAlloc(&b.ptr, uint64(max(size, 1))); r != 0 {
		return Buffer{}, dv.d.error(fmt.Sprintf("cuMemAlloc of %d bytes", size), r)
	}
	return b, nil
}

// Free frees b.
func (dv *Device) Free(b Buffer) error {
	if r := dv.d.memFree(b.ptr); r != 0 {
		return dv.d.error("cuMemFree", r)
	}
	return nil
}

// Stream is a queue of work on a device (CUstream), whose work runs
// beside that of other streams. The zero Stream is none.
type Stream struct{ s uintptr }

// IsZero reports whether s is the zero Stream.
func (s Stream) IsZero() bool { return s.s == 0 }

// NewStream returns a new stream, which runs beside the others, the
// legacy default stream included. The caller calls FreeStream.
func (dv *Device) NewStream() (Stream, error) {
	var s Stream
	if r := dv.d.streamCreate(&s.s, streamNonBlocking); r != 0 {
		return Stream{}, dv.d.error("cuStreamCreate", r)
	}
	return s, nil
}

// FreeStream destroys s once its work is done.
func (dv *Device) FreeStream(s Stream) error {
	if r := dv.d.streamDestroy(s.s); r != 0 {
		return dv.d.error("cuStreamDestroy", r)
	}
	return nil
}

// Done reports whether the work queued on s has ended, and returns the
// error of the work that failed, if any.
func (dv *Device) Done(s Stream) (bool, error) {
	switch r := dv.d.streamQuery(s.s); r {
	case 0:
		return true, nil
	case errorNotReady:
		return false, nil
	default:
		return true, dv.d.error("cuStreamQuery (the kernel's run)", r)
	}
}

// Sync waits for the work queued on s to end.
func (dv *Device) Sync(s Stream) error {
	if r := dv.d.streamSynchronize(s.s); r != 0 {
		return dv.d.error("cuStreamSynchronize", r)
	}
	return nil
}

// WriteOn queues on s a copy of data to the start of b, which must hold
// it; data may be reused once WriteOn returns (the driver stages it).
func (dv *Device) WriteOn(s Stream, b Buffer, data []byte) error {
	if len(data) > b.size {
		return fmt.Errorf("cuMemcpyHtoDAsync: %d bytes into a buffer of %d", len(data), b.size)
	}
	if len(data) == 0 {
		return nil
	}
	if r := dv.d.memcpyHtoDAsync(b.ptr, unsafe.Pointer(&data[0]), uint64(len(data)), s.s); r != 0 {
		return dv.d.error("cuMemcpyHtoDAsync", r)
	}
	return nil
}

// ReadOn copies the start of b into data, which b must fill, on s, and
// returns once the copy is done: on a stream of its own it reads what
// the kernels of other streams have written so far.
func (dv *Device) ReadOn(s Stream, data []byte, b Buffer) error {
	if len(data) > b.size {
		return fmt.Errorf("cuMemcpyDtoHAsync: %d bytes from a buffer of %d", len(data), b.size)
	}
	if len(data) == 0 {
		return nil
	}
	if r := dv.d.memcpyDtoHAsync(unsafe.Pointer(&data[0]), b.ptr, uint64(len(data)), s.s); r != 0 {
		return dv.d.error("cuMemcpyDtoHAsync", r)
	}
	return dv.Sync(s)
}

// FillOn queues on s the setting of the first words 32-bit words of b
// to v.
func (dv *Device) FillOn(s Stream, b Buffer, v uint32, words int) error {
	if 4*words > b.size {
		return fmt.Errorf("cuMemsetD32Async: %d words into a buffer of %d bytes", words, b.size)
	}
	if r := dv.d.memsetD32Async(b.ptr, v, uint64(words), s.s); r != 0 {
		return dv.d.error("cuMemsetD32Async", r)
	}
	return nil
}

// Occupancy returns the blocks of block threads of k that one
// multiprocessor runs at once, as the driver computes it from k's
// registers and shared memory.
func (k *Kernel) Occupancy(block int) (int, error) {
	var n int32
	if r := k.dv.d.occupancy(&n, k.fn, int32(block), 0); r != 0 {
		return 0, k.dv.d.error("cuOccupancyMaxActiveBlocksPerMultiprocessor", r)
	}
	return int(n), nil
}

// Resources returns the registers a thread of k uses and the static
// shared memory of a block, in bytes.
func (k *Kernel) Resources() (registers, shared int, err error) {
	var r, s int32
	if res := k.dv.d.funcGetAttribute(&r, funcNumRegs, k.fn); res != 0 {
		return 0, 0, k.dv.d.error("cuFuncGetAttribute", res)
	}
	if res := k.dv.d.funcGetAttribute(&s, funcSharedSizeBytes, k.fn); res != 0 {
		return 0, 0, k.dv.d.error("cuFuncGetAttribute", res)
	}
	return int(r), int(s), nil
}

// Launch queues k on s, on a grid of grid blocks of block threads, with
// args (each a Buffer, passed as its address, or a uint32) as its
// parameters, and returns without waiting for it (Done, Sync). An error
// names the launch.
func (k *Kernel) Launch(s Stream, grid, block uint32, args ...any) error {
	// The driver reads each parameter through a pointer to its value: an
	// array of pointers into Go memory, pinned for the call, which copies
	// the values.
	if len(args) == 0 {
		return errors.New("cuLaunchKernel: no parameters")
	}
	vals := make([]uint64, len(args))
	params := make([]unsafe.Pointer, len(args))
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&vals[0])
	for i, a := range args {
		switch a := a.(type) {
		case Buffer:
			vals[i] = a.ptr
		case uint32:
			vals[i] = uint64(a) // little-endian: the value's first 4 bytes
		default:
			return fmt.Errorf("cuLaunchKernel: parameter %d is a %T, want a Buffer or a uint32", i, a)
		}
		params[i] = unsafe.Pointer(&vals[i])
	}
	pin.Pin(&params[0])
	if r := k.dv.d.launchKernel(k.fn, grid, 1, 1, block, 1, 1, 0, s.s, unsafe.Pointer(&params[0]), nil); r != 0 {
		return k.dv.d.error("cuLaunchKernel", r)
	}
	return nil
}
