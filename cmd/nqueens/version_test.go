package main

import (
	"bytes"
	"context"
	"os"
	"runtime"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestVersionHasTheStampedCommit checks that --version shows the commit a
// build stamps with -ldflags "-X main.commit=...", which version words.
func TestVersionHasTheStampedCommit(t *testing.T) {
	defer func(c string) { commit = c }(commit)
	commit = "0123456789abcdef0123"
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"--version"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if got := stdout.String(); !strings.HasPrefix(got, "nqueens ") || !strings.Contains(got, "(commit 0123456789ab") {
		t.Errorf("--version = %q; want the stamped commit", got)
	}
}

// TestVersionNamesWhatIsKnown checks the text of nqueens --version with and
// without a commit stamped at link time: a test binary has no module
// version, so it is the release of the source tree.
func TestVersionNamesWhatIsKnown(t *testing.T) {
	t.Parallel()
	if v := version(""); !strings.HasSuffix(v, ") "+runtime.Version()) || !strings.Contains(v, "(commit ") {
		t.Errorf("version(%q) = %q", "", v)
	}
	if v, want := version("0123456789abcdef0123"), release+" (commit 0123456789ab) "+runtime.Version(); v != want {
		t.Errorf("with a stamped commit, version = %q, want %q", v, want)
	}
}

// TestVersionKinds checks which module versions are releases: a tag is, a
// pseudo-version (whose commit version shows) and a build without one are
// not.
func TestVersionKinds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		mv             string
		tagged, pseudo bool
	}{
		{"v1.2.0", true, false},
		{"v0.9.1-rc.1", true, false},
		{"(devel)", false, false},
		{"", false, false},
		{"v0.0.0-20261123140000-1a2b3c4d5e6f", false, true},
		{"v0.0.0-20261123140000-1a2b3c4d5e6f+dirty", false, true},
		{"v0.9.1-0.20261123140000-1a2b3c4d5e6f", false, true},
	} {
		if got := tagged(tc.mv); got != tc.tagged {
			t.Errorf("tagged(%q) = %v, want %v", tc.mv, got, tc.tagged)
		}
		if got := pseudo(tc.mv); got != tc.pseudo {
			t.Errorf("pseudo(%q) = %v, want %v", tc.mv, got, tc.pseudo)
		}
	}
}

// TestReleaseIsTheChangelogs checks that the release a clone's binary
// reports is the newest version CHANGELOG.md describes.
func TestReleaseIsTheChangelogs(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(line, "## "); ok {
			if got := strings.Fields(v)[0]; got != release {
				t.Errorf("CHANGELOG.md's newest version is %s; version.go's release is %s", got, release)
			}
			return
		}
	}
	t.Error("CHANGELOG.md names no version (a line \"## vX.Y.Z ...\")")
}

// TestCitation checks that CITATION.cff is a citation file of the form
// its readers (GitHub, Zenodo) take, for this release, repository and
// license.
func TestCitation(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../CITATION.cff")
	if err != nil {
		t.Fatal(err)
	}
	var cff struct {
		CFFVersion string `yaml:"cff-version"`
		Message    string
		Title      string
		Version    string
		Repository string `yaml:"repository-code"`
		License    string
		Authors    []map[string]string
	}
	if err := yaml.Unmarshal(data, &cff); err != nil {
		t.Fatalf("CITATION.cff: %v", err)
	}
	license, err := os.ReadFile("../../LICENSE")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ field, got, want string }{
		{"cff-version", cff.CFFVersion, "1.2.0"},
		{"version", "v" + cff.Version, release},
		{"repository-code", cff.Repository, "https://github.com/nqueens/nqueens"},
		{"license", cff.License + " License", strings.TrimSpace(strings.SplitN(string(license), "\n", 2)[0])},
	} {
		if c.got != c.want {
			t.Errorf("CITATION.cff: %s %q, want %q", c.field, c.got, c.want)
		}
	}
	if cff.Message == "" || cff.Title == "" || len(cff.Authors) == 0 || cff.Authors[0]["name"] == "" && cff.Authors[0]["family-names"] == "" {
		t.Errorf("CITATION.cff lacks a message, title or author: %+v", cff)
	}
}
