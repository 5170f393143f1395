package config

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/goccy/go-yaml/ast"
)

// maxTimeout is the largest timeout a config may set; more is an "absurd timeout".
const maxTimeout = 24 * time.Hour

// parseTimeout turns a timeout value into a duration. A number is seconds (30, 1.5), as in
// the JSON dialects (codebot, Claude Code); a string is a Go duration ("10s", "1m30s") or a
// number of seconds ("30"). Negative values, values above 24h, NaN and infinities are
// errors.
func parseTimeout(s string) (time.Duration, string) {
	s = strings.TrimSpace(s)
	var dur time.Duration
	num := s
	if t := strings.ToLower(strings.TrimLeft(s, "+-")); t == ".nan" || t == ".inf" {
		num = strings.Replace(s, ".", "", 1) // YAML's spelling of NaN and infinity
	}
	if f, err := strconv.ParseFloat(num, 64); err == nil {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, "timeout must be a number of seconds or a duration, not " + strconv.Quote(s)
		}
		if f < 0 {
			return 0, "negative timeout " + strconv.Quote(s)
		}
		if f > maxTimeout.Seconds() {
			return 0, "absurd timeout " + strconv.Quote(s) + " (more than 24h)"
		}
		dur = time.Duration(f * float64(time.Second))
	} else {
		d, err := time.ParseDuration(s)
		if err != nil {
			return 0, "bad timeout " + strconv.Quote(s) + `: want seconds (30) or a duration ("10s", "1m")`
		}
		if d < 0 {
			return 0, "negative timeout " + strconv.Quote(s)
		}
		if d > maxTimeout {
			return 0, "absurd timeout " + strconv.Quote(s) + " (more than 24h)"
		}
		dur = d
	}
	return dur, ""
}

// timeout decodes a timeout value.
func (d *decoder) timeout(p kv) time.Duration {
	switch p.val.(type) {
	case nil:
		return 0
	case *ast.IntegerNode, *ast.FloatNode, *ast.StringNode, *ast.InfinityNode, *ast.NanNode:
		t, msg := parseTimeout(scalarText(p.val))
		if msg != "" {
			d.errorf(p.rawValue, "%s", msg)
		}
		return t
	}
	d.errorf(p.rawValue, "timeout must be a number of seconds or a duration string, not a %s", kind(p.val))
	return 0
}

// onErrorValues are the accepted `on_error` values; "allow" is stored as "".
var onErrorValues = []string{"allow", "block"}

// onError decodes `on_error`: "allow" (the default, stored as "") or "block".
func (d *decoder) onError(p kv) string {
	s, ok := d.str(p)
	if !ok {
		return ""
	}
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "allow":
		return ""
	case "block":
		return "block"
	}
	d.errorf(p.rawValue, "bad on_error %q: want allow or block%s", s, didYouMean(s, onErrorValues))
	return ""
}

// exitCodeActions are the accepted `exit_codes` values.
var exitCodeActions = []string{"block", "inject", "allow", "error"}

// exitCodeAliases are other accepted spellings of exit_codes values.
var exitCodeAliases = sync.OnceValue(func() map[string]string {
	return map[string]string{"ok": "allow", "continue": "allow", "context": "inject"}
})

// exitCodes decodes `exit_codes`, a mapping of exit status (0-255; a string key "1" in JSON)
// to "block", "inject", "allow" or "error" ("ok" and "continue" mean allow, "context" inject).
func (d *decoder) exitCodes(p kv) map[int]string {
	if p.val == nil {
		return nil
	}
	pairs, ok := d.mapping(p.val)
	if !ok {
		d.errorf(p.rawValue, "exit_codes must be a mapping of exit status to block, inject, allow or error, not a %s", kind(p.val))
		return nil
	}
	out := make(map[int]string, len(pairs))
	for _, q := range pairs {
		code, ok := atoi(q.key)
		if !ok || code < 0 || code > 255 {
			d.errorf(q.keyNode, "bad exit_codes key %q: want an exit status 0-255", q.key)
			continue
		}
		v, isStr := q.val.(*ast.StringNode)
		if !isStr {
			d.errorf(q.rawValue, "bad exit_codes value for %d: want block, inject, allow or error, not a %s", code, kind(q.val))
			continue
		}
		act := strings.ToLower(strings.TrimSpace(v.Value))
		if canon, ok := exitCodeAliases()[act]; ok {
			act = canon
		}
		if !slices.Contains(exitCodeActions, act) {
			d.errorf(q.rawValue, "bad exit_codes value %q for %d: want block, inject, allow or error%s", v.Value, code, didYouMean(v.Value, exitCodeActions))
			continue
		}
		out[code] = act
	}
	return out
}
