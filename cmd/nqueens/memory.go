package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// availableMemory returns the bytes of memory a new process can take
// without swapping or meeting its container's limit: the least of
// MemAvailable in /proc/meminfo and, where this process runs under a
// cgroup memory limit (version 2, or 1), what the limit leaves; -1 where
// the system says neither.
func availableMemory() int64 {
	avail := meminfo("MemAvailable:")
	for _, f := range [][2]string{
		{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"},
		{"/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"},
	} {
		limit, used := readBytes(f[0]), readBytes(f[1])
		if limit < 0 || used < 0 {
			continue
		}
		if left := max(limit-used, 0); avail < 0 || left < avail {
			avail = left
		}
		break
	}
	return avail
}

// meminfo returns the size /proc/meminfo gives on the line that starts
// with key, in bytes, or -1.
func meminfo(key string) int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return -1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), key)
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil {
			return -1
		}
		return kb << 10
	}
	return -1
}

// readBytes returns the number a cgroup file holds, or -1 if it holds
// none ("max": no limit) or cannot be read.
func readBytes(path string) int64 {
	data, err := os.ReadFile(path)
	if err != nil {
		return -1
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	if err != nil || v < 0 {
		return -1
	}
	return v
}
