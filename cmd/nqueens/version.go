package main

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// release is the version of this source tree, the newest heading of
// CHANGELOG.md: what a binary built from a clone reports, with or without
// VCS stamping, unless the go command recorded a tagged module version.
const release = "v0.9.0"

// version returns what is known of the running binary's version, the text
// of nqueens --version and the version a count's state records: its module
// version if it is a tagged release (go install ...@v1.2.0), else release;
// the commit it was built from if the build recorded one (by VCS stamping,
// in a pseudo-version, or as commit, which a build may set with
// -X main.commit=... at link time; "" if not); and the Go version:
//
//	v1.2.0 (commit 1a2b3c4d5e6f) go1.26.8
//	v0.9.0 (commit 1a2b3c4d5e6f, modified) go1.26.8
//	v0.9.0 (commit unknown) go1.26.8
func version(commit string) string {
	v, rev, modified := release, commit, false
	if info, ok := debug.ReadBuildInfo(); ok {
		if mv := info.Main.Version; tagged(mv) {
			v = mv
		} else if pseudo(mv) && rev == "" {
			// A pseudo-version ends with the commit: v0.0.0-20261123140000-1a2b3c4d5e6f.
			rev = mv[strings.LastIndexByte(mv, '-')+1:]
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
	desc := "commit unknown"
	if rev != "" {
		desc = "commit " + rev[:min(12, len(rev))]
		if modified {
			desc += ", modified"
		}
	}
	return v + " (" + desc + ") " + runtime.Version()
}

// pseudo reports whether a module version is a pseudo-version, which the go
// command makes of an untagged commit: it ends with a 12-digit commit hash
// after at least two dashes (v0.0.0-20261123140000-1a2b3c4d5e6f), and may
// carry "+dirty".
func pseudo(mv string) bool {
	mv = strings.TrimSuffix(mv, "+dirty")
	i := strings.LastIndexByte(mv, '-')
	return i > 0 && len(mv)-i-1 == 12 && strings.Count(mv, "-") >= 2
}

// tagged reports whether a module version names a release: not empty, not
// "(devel)", and not a pseudo-version.
func tagged(mv string) bool {
	return mv != "" && mv != "(devel)" && !pseudo(mv)
}
