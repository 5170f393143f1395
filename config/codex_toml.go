package config

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"

	"github.com/hookcore/hookcore/hook"
)

// tomlHandler matches the header of one Codex handler table, [[hooks.EVENT.hooks]]. It is
// compiled on first use: package initialisation runs in every hook process.
var tomlHandler = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*\[\[\s*hooks\s*\.\s*"?([A-Za-z]+)"?\s*\.\s*hooks\s*\]\]`)
})

// parseCodexTOML reads the [hooks] tables of a Codex config.toml (developers.openai.com/codex
// /hooks): the vocabulary of hooks.json, [[hooks.EVENT]] one {matcher, hooks} group and
// [[hooks.EVENT.hooks]] one handler. [hooks.state] (Codex's own per-hook enablement and
// trust) is not an event and is skipped; every other key of config.toml is ignored.
//
// The TOML is decoded with pelletier/go-toml/v2 (TOML 1.0; BurntSushi/toml before stop 22,
// whose package initialisation reads the local time zone in every hook process) and its
// hooks handed to the Nested loader as JSON,
// so it is checked exactly like a hooks.json. The TOML library keeps no key positions, so a
// hook's position is the line of its [[hooks.EVENT.hooks]] header (the n-th header of an
// event is its n-th handler), and the problems of a hook take that position; a handler
// written as an inline table, and a problem of no hook, have the file only. A TOML syntax
// error has its line and column.
// MaxTOMLEntries caps a Codex config.toml's table headers (lines starting with `[`) and
// its `=` signs (its keys, over-counted by any `=` in a value), each. The TOML library finds
// a table or a key among its siblings by a linear scan, so its time is quadratic in them:
// 88 000 one-line table headers took 10 s, an inline table of 100 000 keys on one line
// 10 s (stop 23, red team rounds 15 and 16); 20 000 take about half a second. Codex adds a
// `[projects."…"]` table for every folder the user trusts, so a real file can hold
// thousands (a 64 KiB cap refused one: the false-positive check of stop 23).
const MaxTOMLEntries = 20000

// MaxTOMLDots caps the dots of one line of a config.toml: a dotted key of 256 000 parts
// took 565 MB (red team round 16).
const MaxTOMLDots = 1000

// codexStates returns the keys of a config.toml's [hooks.state] tables that say enabled =
// false, sorted: the hooks the user switched off in Codex (/hooks writes them; a key is
// "FILE:EVENT_LABEL:GROUP:HANDLER", Hook.AgentKey). Observed with Codex 0.171.0
// (peer-codex, stop 26): such a hook does not run, the others of its group do.
func codexStates(state any) []string {
	m, _ := state.(map[string]any)
	var out []string
	for k, v := range m {
		if s, ok := v.(map[string]any); ok && s["enabled"] == false {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// codexEventLabel is the label of a Codex event in a [hooks.state] key: its name in snake
// case (PreToolUse → pre_tool_use; codex-rs hooks hook_event_key_label).
func codexEventLabel(event string) string {
	var b strings.Builder
	for i, r := range event {
		if 'A' <= r && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

func parseCodexTOML(path string, data []byte, layer Layer) (*File, ErrorList) {
	sum := sha256.Sum256(data)
	fail := func(p *Problem) (*File, ErrorList) {
		return &File{Path: path, Layer: layer, Dialect: Codex, Hash: hex.EncodeToString(sum[:]), Failed: true}, ErrorList{p}
	}
	if err := checkBytes(path, data); err != nil {
		var p *Problem
		if errors.As(err, &p) {
			return fail(p)
		}
		return fail(&Problem{Pos: Pos{File: path}, Msg: err.Error()})
	}
	if p := checkTOMLEntries(path, data); p != nil {
		return fail(p)
	}
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		p := &Problem{Pos: Pos{File: path}, Msg: "syntax error: " + strings.TrimPrefix(err.Error(), "toml: ")}
		var de *toml.DecodeError
		if errors.As(err, &de) {
			p.Pos.Line, p.Pos.Col = de.Position()
		}
		return fail(p)
	}
	hooks, _ := doc["hooks"].(map[string]any)
	if layer == Explicit && len(hooks) == 0 {
		// A file named with --config as a policy whose hooks table is written wrong
		// ([[hook.PreToolUse]], [Hooks]): it ran nothing, silently (red team round 20), as a
		// YAML or JSON file with a near-miss of hooks did. Codex's own config.toml, found by
		// discovery, is read as Codex reads it.
		for _, k := range slices.Sorted(maps.Keys(doc)) {
			if k != "hooks" && Suggest(k, []string{"hooks"}) != "" {
				return fail(&Problem{Pos: Pos{File: path}, Msg: fmt.Sprintf("unknown table %q in config (did you mean \"hooks\"?), and no hooks: as written the file would run nothing", k)})
			}
		}
	}
	disabled := codexStates(hooks["state"])
	delete(hooks, "state")
	js, err := json.Marshal(map[string]any{"hooks": hooks})
	if err != nil {
		return fail(&Problem{Pos: Pos{File: path}, Msg: "cannot read [hooks]: " + err.Error()})
	}
	f, probs := parse(path, js, layer, Codex)
	f.Hash = hex.EncodeToString(sum[:])
	f.HooksDisabled = disabled
	if features, ok := doc["features"].(map[string]any); ok {
		if b, ok := features["hooks"].(bool); ok {
			f.HooksEnabled = &b
		}
		if b, ok := features["codex_hooks"].(bool); ok {
			f.HooksEnabledAlias = &b
		}
	}
	if !f.Failed && len(hooks) > 0 && f.Dialect != Nested {
		probs = append(probs, &Problem{Pos: Pos{File: path}, Msg: "Codex [hooks] tables have hooks.json's shape ([[hooks.EVENT]] groups with [[hooks.EVENT.hooks]] handlers)"})
		f.Hooks, f.Broken, f.Failed = nil, nil, true
	}
	f.Dialect = Codex
	// Positions: the n-th [[hooks.EVENT.hooks]] header line is the n-th handler of EVENT.
	lines := map[string][]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), MaxFileSize)
	for n := 1; sc.Scan(); n++ {
		if m := tomlHandler().FindSubmatch(sc.Bytes()); m != nil {
			lines[string(m[1])] = append(lines[string(m[1])], n)
		}
	}
	seen := map[string]int{}
	at := map[string]Pos{}
	place := func(h *Hook, eventRaw string) {
		k := seen[eventRaw]
		seen[eventRaw]++
		h.Pos = Pos{File: path}
		if l := lines[eventRaw]; k < len(l) {
			h.Pos.Line = l[k]
		}
		at[h.ID] = h.Pos
	}
	// Hooks and Broken together are in file order of the JSON, which is per event (sorted
	// by name) and per handler in order.
	type ref struct {
		h   *Hook
		idx int
	}
	var all []ref
	for i := range f.Hooks {
		all = append(all, ref{&f.Hooks[i], f.Hooks[i].Index})
	}
	for i := range f.Broken {
		all = append(all, ref{&f.Broken[i].Hook, f.Broken[i].Hook.Index})
	}
	slices.SortFunc(all, func(a, b ref) int { return a.idx - b.idx })
	for _, r := range all {
		place(r.h, rawEvent(r.h, hooks))
	}
	for _, p := range probs {
		if pos, ok := at[p.HookID]; ok && p.HookID != "" {
			p.Pos = pos
		} else {
			p.Pos = Pos{File: path}
		}
	}
	for i := range f.Broken {
		for _, p := range f.Broken[i].Errors {
			p.Pos = f.Broken[i].Hook.Pos
		}
	}
	probs.Sort()
	return f, probs
}

// rawEvent returns the event key of hooks under which h was written (h.Event as spelled in
// the file: Codex's names are hookcore's, so the canonical name when it is a key).
func rawEvent(h *Hook, hooks map[string]any) string {
	if _, ok := hooks[string(h.Event)]; ok {
		return string(h.Event)
	}
	for k := range hooks {
		if e, ok := hook.ParseEvent(k); ok && e == h.Event {
			return k
		}
	}
	return string(h.Event)
}

// checkTOMLEntries reports the first line past MaxTOMLEntries table headers or `=` signs,
// or with more than MaxTOMLDots dots, or nil.
func checkTOMLEntries(path string, data []byte) *Problem {
	headers, keys := 0, 0
	for n, line := range bytesLines(data) {
		t := bytes.TrimLeft(line, " \t")
		if len(t) > 0 && t[0] == '[' {
			headers++
		}
		keys += bytes.Count(line, []byte("="))
		switch {
		case headers > MaxTOMLEntries:
			return &Problem{Pos: Pos{File: path, Line: n + 1}, Msg: fmt.Sprintf("more than %d tables in a config.toml; the limit is %d", MaxTOMLEntries, MaxTOMLEntries)}
		case keys > MaxTOMLEntries:
			return &Problem{Pos: Pos{File: path, Line: n + 1}, Msg: fmt.Sprintf("more than %d keys in a config.toml; the limit is %d", MaxTOMLEntries, MaxTOMLEntries)}
		case bytes.Count(line, []byte(".")) > MaxTOMLDots:
			return &Problem{Pos: Pos{File: path, Line: n + 1}, Msg: fmt.Sprintf("more than %d dots in one line of a config.toml; the limit is %d", MaxTOMLDots, MaxTOMLDots)}
		}
	}
	return nil
}
