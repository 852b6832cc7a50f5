package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// availableMemory returns the bytes of memory this machine can give a
// new process without swapping (MemAvailable of /proc/meminfo), or -1
// where the system does not say.
func availableMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return -1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:")
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
