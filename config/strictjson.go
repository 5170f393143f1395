package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// strictJSON warns when a ".json" config file parses (the YAML parser is lenient: it takes
// trailing commas, comments and unquoted keys) but is not strict JSON, which the agent that
// reads the file, the one of dialect d, would refuse to read: Claude Code, codebot, Codex,
// Cursor or Copilot CLI (new-user trial, stop 28: a trailing comma in ~/.codex/hooks.json
// named Claude Code and codebot). The warning points at the first offending byte.
func strictJSON(path string, data []byte, d Dialect) ErrorList {
	if !strings.EqualFold(filepath.Ext(path), ".json") {
		return nil
	}
	if IsClaudeSettings(path) {
		return notStrict(path, data, ClaudeIgnoresFile)
	}
	var reader string
	switch d {
	case Native: // hookcore's own shape: no agent reads it
		reader = "a strict JSON reader"
	case Flat:
		reader = "codebot"
	default:
		reader = d.Agent()
	}
	return notStrict(path, data, "hookcore reads it, but "+reader+" would refuse this file")
}

// ClaudeIgnoresFile is what follows when a Claude Code settings file is not strict JSON
// (a comment, a trailing comma): observed with Claude Code 2.1.332, none of its hooks run.
// `hookcore check` makes the warning an error there (new-user trial, stop 26: check passed
// a settings file whose comment switched off hookcore's entries, and every guard with them).
const ClaudeIgnoresFile = "Claude Code ignores this whole file (none of its hooks run, hookcore's own entries included); hookcore reads it"

// geminiStrict is strictJSON for a Gemini CLI settings file, its comments stripped:
// Gemini CLI reads it with JSON.parse, and a file that is not strict JSON (a trailing comma,
// a byte order mark, an unquoted key) stops Gemini CLI with an error (observed: exit 52,
// Gemini CLI 0.61.0). hookcore still runs its hooks (more hooks run, not fewer), but does not
// apply its hooksConfig, which could only switch hooks off (red team round 27).
func geminiStrict(f *File, data []byte, strict bool) ErrorList {
	if strict {
		return nil
	}
	probs := notStrict(f.Path, data, "Gemini CLI refuses this file; hookcore runs its hooks but does not apply its hooksConfig")
	if probs != nil {
		f.HooksEnabled, f.HooksDisabled = nil, nil
	}
	return probs
}

// notStrict is the warning, at the first offending byte, that data is not strict JSON,
// with what follows from it; nil for strict JSON or an empty file.
func notStrict(path string, data []byte, consequence string) ErrorList {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	if json.Valid(data) {
		return nil // what Unmarshal would say, without building the document (issue 9)
	}
	var v any
	err := json.Unmarshal(data, &v)
	var syn *json.SyntaxError
	off := int64(len(data))
	if errors.As(err, &syn) {
		off = syn.Offset - 1
	}
	if off < 0 {
		off = 0
	}
	line, col := 1, 1
	for _, r := range string(data[:off]) {
		if r == '\n' {
			line, col = line+1, 1
		} else if r != utf8.RuneError {
			col++
		}
	}
	return ErrorList{{Pos: Pos{File: path, Line: line, Col: col}, Warning: true,
		Msg: "not strict JSON (" + err.Error() + "): " + consequence}}
}

// stripJSONComments returns data with its `//` and `/* */` comments outside strings blanked
// as Gemini CLI's settings loader does (strip-json-comments 3, with its whitespace option:
// `replace(/\S/g, " ")`): a character that is not white space to JavaScript becomes one
// space, and one that is (a tab, a line break, U+00A0, U+2028, U+FEFF, ...) stays, so lines
// stay, and so does what JSON.parse refuses next (red team round 28: a no-break space
// inside a comment stopped Gemini CLI, and hookcore, which had blanked it, applied the
// file's switches). data itself when it has no comment. A string starts and ends at a `"`
// not escaped by an odd number of backslashes; an unterminated comment runs to the end.
func stripJSONComments(data []byte) []byte {
	if !bytes.Contains(data, []byte("/")) {
		return data
	}
	var out []byte
	last := 0 // data[:last] is in out
	blank := func(from, to int) {
		if out == nil {
			out = make([]byte, 0, len(data))
		}
		out = append(out, data[last:from]...)
		for _, r := range string(data[from:to]) {
			if jsSpace(r) {
				out = utf8.AppendRune(out, r)
			} else {
				out = append(out, ' ')
			}
		}
		last = to
	}
	inString := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if c == '"' {
			n := 0
			for j := i - 1; j >= 0 && data[j] == '\\'; j-- {
				n++
			}
			if n%2 == 0 {
				inString = !inString
			}
		}
		if inString || c != '/' || i+1 >= len(data) {
			continue
		}
		switch data[i+1] {
		case '/':
			end := bytes.IndexByte(data[i:], '\n')
			if end < 0 {
				end = len(data) - i
			}
			if end > 0 && data[i+end-1] == '\r' {
				end--
			}
			blank(i, i+end)
			i += end - 1
		case '*':
			end := bytes.Index(data[i+2:], []byte("*/"))
			if end < 0 {
				blank(i, len(data))
				return out
			}
			blank(i, i+2+end+2)
			i += 2 + end + 1
		}
	}
	if out == nil {
		return data
	}
	return append(out, data[last:]...)
}

// jsSpace reports whether JavaScript's \s matches r.
func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return 0x2000 <= r && r <= 0x200a
}
