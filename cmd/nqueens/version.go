package main

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// version returns what is known of the running binary's version, the text
// of nqueens --version and the version a count's state records: its module
// version ("devel" for a build from a checkout), the commit it was built
// from if the build recorded one (by VCS stamping, in a pseudo-version, or
// as commit, which a build may set with -X main.commit=... at link time;
// "" if not), and the Go version:
//
//	v1.2.0 (commit 1a2b3c4d5e6f) go1.26.8
//	devel (commit 1a2b3c4d5e6f, modified) go1.26.8
//	devel (commit unknown) go1.26.8
func version(commit string) string {
	v, rev, modified := "devel", commit, false
	if info, ok := debug.ReadBuildInfo(); ok {
		if mv := info.Main.Version; mv != "" && mv != "(devel)" {
			v = mv
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				if rev == "" {
					rev = s.Value
				}
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if rev == "" {
		// A pseudo-version ends with the commit: v0.0.0-20261123140000-1a2b3c4d5e6f.
		if i := strings.LastIndexByte(v, '-'); i > 0 && len(v)-i-1 == 12 && strings.Count(v, "-") >= 2 {
			rev = v[i+1:]
		}
	}
	desc := "commit unknown"
	if rev != "" {
		desc = "commit " + rev[:min(12, len(rev))]
		if modified {
			desc += ", modified"
		}
	}
	return v + " (" + desc + ") " + runtime.Version()
}
