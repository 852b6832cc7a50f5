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
	ctxSynchronize     func() int32
	moduleLoadData     func(module *uintptr, image unsafe.Pointer) int32
	moduleGetFunction  func(fn *uintptr, module uintptr, name *byte) int32
	moduleUnload       func(module uintptr) int32
	memAlloc           func(ptr *uint64, size uint64) int32
	memFree            func(ptr uint64) int32
	memcpyHtoD         func(dst uint64, src unsafe.Pointer, size uint64) int32
	memcpyDtoH         func(dst unsafe.Pointer, src uint64, size uint64) int32
	launchKernel       func(fn uintptr, gx, gy, gz, bx, by, bz, shared uint32, stream uintptr, params unsafe.Pointer, extra unsafe.Pointer) int32
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
		{"cuCtxSetCurrent", &d.ctxSetCurrent}, {"cuCtxSynchronize", &d.ctxSynchronize},
		{"cuModuleLoadData", &d.moduleLoadData}, {"cuModuleGetFunction", &d.moduleGetFunction},
		{"cuModuleUnload", &d.moduleUnload},
		{"cuMemAlloc_v2", &d.memAlloc}, {"cuMemFree_v2", &d.memFree},
		{"cuMemcpyHtoD_v2", &d.memcpyHtoD}, {"cuMemcpyDtoH_v2", &d.memcpyDtoH},
		{"cuLaunchKernel", &d.launchKernel},
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

// Built reports whether this build can reach a driver.
const Built = true

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

// Open loads the driver library, initialises it and makes the primary
// context of the first GPU current on the calling thread, which must be
// locked to its goroutine and make every later call on the Device. It
// returns an error matching ErrNoDriver if no library loads, the driver
// finds no GPU or cannot start, and one naming the call that failed
// otherwise. The caller calls Close.
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
	if r := d.primaryCtxRetain(&dv.ctx, dv.dev); r != 0 {
		return nil, noDriver{d.error("cuDevicePrimaryCtxRetain", r)}
	}
	if r := d.ctxSetCurrent(dv.ctx); r != 0 {
		d.primaryCtxRelease(dv.dev)
		return nil, d.error("cuCtxSetCurrent", r)
	}
	return dv, nil
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

// At returns the part of b from byte off on; off must be within b.
func (b Buffer) At(off int) Buffer {
	if off < 0 || off > b.size {
		panic(fmt.Sprintf("cuda: offset %d outside a buffer of %d bytes", off, b.size))
	}
	return Buffer{ptr: b.ptr + uint64(off), size: b.size - off}
}

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

// Write copies data to the start of b, which must hold it.
func (dv *Device) Write(b Buffer, data []byte) error {
	if len(data) > b.size {
		return fmt.Errorf("cuMemcpyHtoD: %d bytes into a buffer of %d", len(data), b.size)
	}
	if len(data) == 0 {
		return nil
	}
	if r := dv.d.memcpyHtoD(b.ptr, unsafe.Pointer(&data[0]), uint64(len(data))); r != 0 {
		return dv.d.error("cuMemcpyHtoD", r)
	}
	return nil
}

// Read copies the start of b into data, which b must fill.
func (dv *Device) Read(data []byte, b Buffer) error {
	if len(data) > b.size {
		return fmt.Errorf("cuMemcpyDtoH: %d bytes from a buffer of %d", len(data), b.size)
	}
	if len(data) == 0 {
		return nil
	}
	if r := dv.d.memcpyDtoH(unsafe.Pointer(&data[0]), b.ptr, uint64(len(data))); r != 0 {
		return dv.d.error("cuMemcpyDtoH", r)
	}
	return nil
}

// Launch launches k on a grid of grid blocks of block threads, with args
// (each a Buffer, passed as its address, or a uint32) as its parameters,
// and waits for it to finish. An error names the launch or what the
// kernel did wrong.
func (k *Kernel) Launch(grid, block uint32, args ...any) error {
	// The driver reads each parameter through a pointer to its value: an
	// array of pointers into Go memory, pinned for the call.
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
	d := k.dv.d
	if r := d.launchKernel(k.fn, grid, 1, 1, block, 1, 1, 0, 0, unsafe.Pointer(&params[0]), nil); r != 0 {
		return d.error("cuLaunchKernel", r)
	}
	if r := d.ctxSynchronize(); r != 0 {
		return d.error("cuCtxSynchronize (the kernel's run)", r)
	}
	return nil
}
