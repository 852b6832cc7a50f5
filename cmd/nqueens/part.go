package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// errOtherVersion is wrapped by parsePart's error for a key this version's
// count --shard does not write, as parts of older versions carry.
var errOtherVersion = errors.New("unknown field")

// partKeys lists the keys of a part, as count --shard writes them, and
// where parsePart stores each.
func partKeys(p *partJSON) []struct {
	name string
	to   any // *int, *uint64, *float64 or *string
} {
	return []struct {
		name string
		to   any
	}{
		{"n", &p.N}, {"shards", &p.Shards}, {"shard", &p.Shard}, {"units_total", &p.UnitsTotal},
		{"units", &p.Units}, {"units_digest", &p.UnitsDigest}, {"total", &p.Total},
		{"seconds", &p.Seconds}, {"search_seconds", &p.SearchSeconds},
	}
}

// parsePart decodes one part written by count --shard from the start of
// dec, strictly: a JSON object with every key of partJSON exactly once,
// spelled exactly, and no other; whole numbers in range for the counts
// (no 1e3, no -1, no 1.5); a string for the digest; numbers of seconds of
// 0 or more. The error names the key at fault; one for a key it does not
// know wraps errOtherVersion.
func parsePart(dec *json.Decoder) (partJSON, error) {
	var p partJSON
	keys := partKeys(&p)
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil {
		return p, jsonError(err)
	} else if tok != json.Delim('{') {
		return p, fmt.Errorf("want a JSON object, got %s", tokenText(tok))
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return p, jsonError(err)
		}
		name := tok.(string) // an object's keys are strings
		i := -1
		for j, k := range keys {
			if k.name == name {
				i = j
			}
		}
		if i < 0 {
			for _, k := range keys {
				if strings.EqualFold(k.name, name) {
					return p, fmt.Errorf("unknown key %s (did you mean %q?)", quote(name), k.name)
				}
			}
			return p, fmt.Errorf("%w %s", errOtherVersion, quote(name))
		}
		if seen[name] {
			return p, fmt.Errorf("key %q given twice", name)
		}
		seen[name] = true
		tok, err = dec.Token()
		if err != nil {
			return p, jsonError(err)
		}
		if err := setPartValue(keys[i].to, tok); err != nil {
			return p, fmt.Errorf("%q: %s: %w", name, tokenText(tok), err)
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return p, jsonError(err)
	}
	for _, k := range keys {
		if !seen[k.name] {
			return p, fmt.Errorf("key %q missing", k.name)
		}
	}
	return p, nil
}

// setPartValue stores the JSON value tok into to.
func setPartValue(to any, tok json.Token) error {
	num, isNum := tok.(json.Number)
	switch to := to.(type) {
	case *string:
		s, ok := tok.(string)
		if !ok {
			return errors.New("want a string")
		}
		*to = s
	case *int:
		n, err := strconv.ParseInt(string(num), 10, 0)
		if !isNum || err != nil || n < 0 {
			return fmt.Errorf("want a whole number from 0 to %d", math.MaxInt)
		}
		*to = int(n)
	case *uint64:
		n, err := strconv.ParseUint(string(num), 10, 64)
		if !isNum || err != nil {
			return fmt.Errorf("want a whole number from 0 to %d", uint64(math.MaxUint64))
		}
		*to = n
	case *float64:
		f, err := strconv.ParseFloat(string(num), 64)
		if !isNum || err != nil || f < 0 || math.IsInf(f, 0) {
			return errors.New("want a number of seconds, 0 or more")
		}
		*to = f
	}
	return nil
}

// tokenText writes a JSON token for a message.
func tokenText(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			return "an object"
		}
		return "a list"
	case string:
		return quote(t)
	case json.Number:
		if len(t) > 40 {
			return string(t[:40]) + "..."
		}
		return string(t)
	case nil:
		return "null"
	}
	return fmt.Sprint(tok)
}

// jsonError words an error of json.Decoder.Token.
func jsonError(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// readPart reads and parses the part in data, which must hold exactly one.
func readPart(data []byte) (partJSON, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	p, err := parsePart(dec)
	if err != nil {
		return p, err
	}
	if dec.More() || len(bytes.TrimSpace(data[dec.InputOffset():])) > 0 {
		return p, errMoreThanOne
	}
	return p, nil
}

// errMoreThanOne is readPart's error for data that holds more than a part.
var errMoreThanOne = errors.New("more than one part")
