package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/hook"
)

// topKeys are the top-level keys read in every dialect; disableAllHooks is Claude Code's
// spelling of disable_all_hooks.
var topKeys = []string{"hooks", "disable_all_hooks", "parallel", "allowManagedHooksOnly", "audit"}

// ParseFile reads the file at path with ReadFile (without blocking, a regular file only,
// at most MaxFileSize bytes) and parses it with Parse. A file that cannot be read is one
// problem without a line, and the File is Failed. A file of the Explicit layer that is a
// Gemini CLI extension's hooks file (DIR/hooks/hooks.json beside a DIR/gemini-extension.json
// that Gemini CLI loads) is read as Gemini CLI reads it, for the working directory
// (geminiext.go).
func ParseFile(path string, layer Layer) (*File, ErrorList) {
	return ParseLayerPath(LayerPath{Path: path, Layer: layer})
}

// ParseLayerPath is ParseFile for a file discovery found, as Load reads it: a Refused one is
// its error, a Skip one a warning and no hooks, a Claude one Claude Code's settings, an
// Extension one that Gemini CLI extension's hooks file.
func ParseLayerPath(lp LayerPath) (*File, ErrorList) {
	switch {
	case lp.Refused != "":
		return &File{Path: lp.Path, Layer: lp.Layer, Dialect: dialectByName(lp.Path), Failed: true},
			ErrorList{{Pos: Pos{File: lp.Path}, Msg: lp.Refused}}
	case lp.Skip != "":
		return &File{Path: lp.Path, Layer: lp.Layer, Dialect: dialectByName(lp.Path)},
			ErrorList{{Pos: Pos{File: lp.Path}, Msg: lp.Skip, Warning: true}}
	}
	f, probs, _ := parseFile(lp, nil)
	return f, probs
}

// parseFile is ParseFile that also returns the file's FileInfo (nil when it could not be
// opened), for Load's os.SameFile check. A config file of a repository layer (Project,
// Local; not a skill's or sub-agent's Markdown) is parsed only while its bytes fit in
// budget's (nil: no budget). lp.Claude reads it as Claude Code's settings whatever its name,
// lp.Extension as a Gemini CLI extension's hooks file.
func parseFile(lp LayerPath, budget *repoBudget) (*File, ErrorList, fs.FileInfo) {
	if lp.Layer == Explicit && !lp.Claude && lp.Extension == nil {
		// A file named on the command line (check, convert, --config) is known by the
		// manifest beside it; discovery names the extensions' files itself, and a Claude
		// Code plugin's hooks/hooks.json (LoadPlugins, the User layer) is Claude Code's
		// even in a directory that is a Gemini CLI extension too.
		lp.Extension = geminiExtensionOf(lp.Path)
	}
	path, layer, claude := lp.Path, lp.Layer, lp.Claude
	data, st, err := ReadFile(path)
	if err == nil && budget != nil && repositoryLayer(layer) && FrontmatterKindOf(path) == NotFrontmatter {
		// Skill, command and sub-agent files are mostly prose (their frontmatter alone is
		// parsed), and only `run` and `trust` load them, never the hook command.
		err = budget.spend(len(data))
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		if target, lerr := os.Readlink(path); lerr == nil && errors.Is(err, fs.ErrNotExist) {
			err = fmt.Errorf("it is a symbolic link to %s, which does not exist", target)
		}
		f := &File{Path: path, Layer: layer, Dialect: dialectByName(path), Failed: true}
		if lp.Extension != nil {
			f.Extension = lp.Extension.Name
		}
		return f, ErrorList{{Pos: Pos{File: path}, Msg: "cannot read config: " + err.Error()}}, st
	}
	parse := func() (*File, ErrorList) {
		if lp.Extension != nil {
			return parseAs(path, data, layer, Gemini, false, lp.Extension)
		}
		if claude && agentOfPath(path) == Native && FrontmatterKindOf(path) == NotFrontmatter {
			return parseAs(path, data, layer, Native, true, nil)
		}
		return parseData(path, data, layer)
	}
	if budget != nil && repositoryLayer(layer) {
		f, probs, ok := budget.timed(len(data), parse)
		if !ok {
			msg := fmt.Sprintf("parsing the repository's config files took longer than %v together; this one is not loaded", MaxRepositoryParseTime)
			if len(probs) > 0 {
				msg = probs[0].Msg
			}
			return &File{Path: path, Layer: layer, Dialect: dialectByName(path), Failed: true},
				ErrorList{{Pos: Pos{File: path}, Msg: msg}}, st
		}
		return f, probs, st
	}
	f, probs := parse()
	return f, probs, st
}

// parseData parses data, the content of the config file at path, in the dialect its path
// says.
func parseData(path string, data []byte, layer Layer) (*File, ErrorList) {
	if FrontmatterKindOf(path) != NotFrontmatter {
		return ParseFrontmatter(path, data, layer, FrontmatterKindOf(path))
	}
	if d := agentOfPath(path); d != Native {
		return ParseDialect(path, data, layer, d)
	}
	return Parse(path, data, layer)
}

// agentOfPath is the dialect of the agent whose file path is by its name (Gemini, Codex,
// Copilot, Cursor), Native for any other: detected from the content. A skill's or
// sub-agent's Markdown is Native too (FrontmatterKindOf tells it).
func agentOfPath(path string) Dialect {
	switch {
	case FrontmatterKindOf(path) != NotFrontmatter:
	case isGeminiSettings(path):
		return Gemini
	case isCodexHooks(path):
		return Codex
	case isCopilotHooks(path):
		return Copilot
	case isCursorHooks(path):
		return Cursor
	}
	return Native
}

// ParseDialect parses a config file written in dialect: Native, Flat and Nested are
// detected from the content as Parse does (any of the three gives Parse's result); Gemini
// reads Gemini CLI's settings.json `hooks` (see geminiMatcher and the Gemini section of
// gemini.go), whose content looks like Claude Code's and cannot be told apart from it, so
// it is chosen by path (ParseFile: .gemini/settings.json) or by the caller. Codex reads
// Codex's hooks.json, which is Claude Code's nested shape with Claude Code's event names and
// output protocol (Codex adopted it on purpose): it is parsed as Nested, its hooks keep
// Dialect Nested (their output is read as Claude Code's), and the File's Dialect is Codex;
// a native `hooks:` sequence or codebot entries in it are errors. A Codex path ending in
// .toml is a config.toml, whose [hooks] tables are read (parseCodexTOML). Cursor reads
// Cursor's hooks.json (cursor.go), Copilot Copilot CLI's .github/hooks/*.json (copilot.go).
// Any other value is one problem, and the File is Failed. Problems and the File are as Parse's.
func ParseDialect(path string, data []byte, layer Layer, dialect Dialect) (*File, ErrorList) {
	switch dialect {
	case Native, Flat, Nested:
		return Parse(path, data, layer)
	case Gemini, Cursor, Copilot:
		return parse(path, data, layer, dialect)
	case Codex:
		if strings.EqualFold(filepath.Ext(path), ".toml") {
			return parseCodexTOML(path, data, layer)
		}
		f, probs := parse(path, data, layer, Codex)
		if !f.Failed && f.Dialect != Nested {
			probs = append(probs, &Problem{Pos: Pos{File: path}, Msg: fmt.Sprintf("a Codex hooks.json has Claude Code's nested shape (event: [{matcher, hooks: [...]}]), not %s entries", f.Dialect)})
			f.Hooks, f.Broken, f.Failed = nil, nil, true
		}
		f.Dialect = Codex
		return f, probs
	}
	sum := sha256.Sum256(data)
	return &File{Path: path, Layer: layer, Dialect: dialect, Hash: hex.EncodeToString(sum[:]), Failed: true},
		ErrorList{{Pos: Pos{File: path}, Msg: fmt.Sprintf("hookcore cannot read %s hook files yet", dialect)}}
}

// Parse parses one config file of any dialect and validates it. path names the file in
// positions. The dialect is detected from the shape of the top-level `hooks` value:
//
//   - a sequence: Native (MiniCode YAML);
//   - a mapping of event names to sequences: per entry, an entry with a `hooks` key is a
//     Claude Code matcher group (Nested) and any other entry a codebot hook (Flat). The
//     File's Dialect is Nested when any entry is a matcher group, else Flat;
//   - absent or null: Nested for a ".json" file, else Native.
//
// Top-level `disable_all_hooks` (or `disableAllHooks`) and `parallel` are read in every
// dialect. Other top-level keys are warned about in the native dialect (with a suggestion),
// and ignored in the JSON dialects, whose settings files hold many other keys (permissions,
// env, model, ...) — unless a key is one edit or so from a known key, which draws a warning.
//
// A file over the caps of CheckLimits (512 KiB, brackets nested 64 deep, a line indented 256
// columns) is one error and is not parsed: the YAML parser's cost grows much faster than the
// file. So is a file with more than MaxHooks hooks, or whose aliases stand for more than
// MaxAliasExpansion bytes; its hooks are not decoded.
//
// All problems are returned at once, sorted, each with the position of the offending node
// and the hook's id. A hook entry with an error is left out of the File's Hooks and kept in
// its Broken list; the valid hooks load (issue 8.2). A file that cannot be parsed as a whole
// (syntax, caps, not a mapping) is Failed, with no hooks. An empty file has no hooks and no
// problems. The returned File is never nil.
func Parse(path string, data []byte, layer Layer) (*File, ErrorList) {
	return parse(path, data, layer, Native)
}

// parse is Parse; agent is Gemini for a Gemini CLI settings file, else Native (detect).
func parse(path string, data []byte, layer Layer, agent Dialect) (*File, ErrorList) {
	return parseAs(path, data, layer, agent, false, nil)
}

// parseAs is parse; claude reads the file as Claude Code's settings whatever its name (a
// --settings file): its event names exactly. ext, with agent Gemini, reads it as the hooks
// file of that Gemini CLI extension: strict JSON, its `hooks` key only, the extension's
// variables replaced in its string values (geminiext.go).
func parseAs(path string, data []byte, layer Layer, agent Dialect, claude bool, ext *GeminiExtension) (*File, ErrorList) {
	sum := sha256.Sum256(data)
	f := &File{Path: path, Layer: layer, Hash: hex.EncodeToString(sum[:]), Dialect: dialectByName(path)}
	if agent == Gemini || agent == Cursor || agent == Copilot {
		f.Dialect = agent
	}
	if ext != nil {
		f.Extension = ext.Name // set on a file that fails too: Load's callers skip it (stop 31)
	}
	if agent == Gemini && ext == nil {
		// Gemini CLI reads its settings through strip-json-comments (red team round 27: a
		// `//` comment failed the file, and every tool call under hookcore hook claude).
		data = stripJSONComments(data)
	}
	if (layer == Project || layer == Local) && (agent == Gemini || IsClaudeSettings(path)) {
		boundMembers(f, data) // only these layers' files enter a trust digest
	}
	// Whether the file is one JSON object is checked once, here, for the skim, the strict
	// check and enabledPlugins (issue 9: a 6 KB ~/.claude/settings.json was validated four
	// times per hook event, and read twice).
	trimmed := bytes.TrimPrefix(data, []byte("\ufeff"))
	obj := isJSONObject(trimmed)
	if obj && strings.EqualFold(filepath.Ext(path), ".json") {
		f.enabledPlugins, f.hasEnabledPlugins = topJSONValue(trimmed, "enabledPlugins")
	}
	strict := obj && len(trimmed) == len(data) // no byte order mark: strict JSON
	body, probs := parseYAMLObj(path, data, obj)
	if probs != nil || body == nil {
		f.Failed = probs.Errors() > 0
		return f, probs
	}
	d := newDecoder(path, data, body)
	d.claude = claude
	if line, col, b, bad := firstInvalidUTF8(data); bad {
		// New-user trial, stop 28: a policy saved in Latin-1 checked clean, and its block
		// reason reached the agent with U+FFFD in place of "é".
		d.probs = append(d.probs, &Problem{Pos: Pos{File: path, Line: line, Col: col}, Warning: true,
			Msg: fmt.Sprintf("the file is not UTF-8 here (byte 0x%02X): its text reaches the agent with U+FFFD in place of such bytes; save it as UTF-8", b)})
	}
	if agent == Codex {
		d.codexKeys, _ = filepath.Abs(path)
	}
	if !d.checkAliases(body) {
		f.Failed = true
		return f, d.take()
	}
	top, ok := d.mapping(body)
	if !ok {
		d.errorf(body, "config must be a mapping with a hooks key, not a %s", kind(d.resolve(body)))
		f.Failed = true
		return f, d.take()
	}
	if ext != nil {
		// Gemini CLI reads an extension's `hooks` and nothing else of the file.
		top = slices.DeleteFunc(top, func(p kv) bool { return p.key != "hooks" })
		d.extension = true
		extensionProblems(d, f, ext, top)
	}
	var hooksKV *kv
	for i, p := range top {
		switch p.key {
		case "hooks":
			hooksKV = &top[i]
		case "disable_all_hooks", "disableAllHooks":
			if agent != Native {
				// Gemini CLI, Codex, Cursor and Copilot CLI have no such switch (Gemini CLI
				// 0.61.0 and Codex 0.171.0 do not read it): honoured, a repository's
				// .codex/hooks.json turned the user's Codex hooks off, and no review named
				// them (red team round 28).
				d.warnf(p.keyNode, "%s has no %s (hookcore ignores it, as %s does)%s", agent.Agent(), p.key, agent.Agent(), agentOffHint(agent))
				continue
			}
			f.DisableAll, _ = d.boolean(p)
		case "parallel":
			f.Parallel, _ = d.boolean(p)
		case "allowManagedHooksOnly":
			f.ManagedOnly, _ = d.boolean(p)
		case "hooksConfig":
			if f.Dialect == Gemini {
				d.geminiHooksConfig(f, p)
			}
		case "audit":
			if a, ok := d.str(p); ok && strings.TrimSpace(a) != "" {
				f.Audit = strings.TrimSpace(a)
				if !filepath.IsAbs(f.Audit) {
					f.Audit = filepath.Join(filepath.Dir(path), f.Audit)
				}
			}
		}
	}
	fileProbs := d.take()
	var raws []*rawHook
	if hooksKV != nil {
		switch v := hooksKV.val.(type) {
		case nil:
		case *ast.SequenceNode:
			if agent != Native && agent != Codex {
				d.errorf(hooksKV.rawValue, "%s hooks must be a mapping of event names, not a sequence", agent)
				f.Failed = true
				return f, d.take()
			}
			f.Dialect = Native
			if len(v.Values) > MaxHooks {
				d.errorf(hooksKV.rawValue, "%d hooks in one file; the limit is %d", len(v.Values), MaxHooks)
				f.Failed = true
				return f, d.take()
			}
			for _, e := range v.Values {
				raws = append(raws, d.native(e))
			}
		case *ast.MappingNode, *ast.MappingValueNode:
			var rest ErrorList
			var tooMany bool
			raws, rest, tooMany = d.settings(f, *hooksKV)
			fileProbs = append(fileProbs, rest...)
			if tooMany {
				f.Failed = true
				return f, fileProbs
			}
		default:
			d.errorf(hooksKV.rawValue, "hooks must be a sequence of hooks or a mapping of event names, not a %s", kind(v))
			f.Failed = true
		}
	}
	for _, p := range top {
		switch p.key {
		case "hooks", "disable_all_hooks", "disableAllHooks", "parallel", "allowManagedHooksOnly", "audit", "$schema":
			continue // $schema names the JSON Schema for editors (hookcore schema config)
		}
		if f.Dialect == Native && isHookField(p.key) {
			// A hook written at the top level (its lines not indented under hooks:, or no
			// hooks: at all): what the file meant to run is not known, so it runs nothing
			// and fails to load (stop 21 attack on the shape fix).
			d.errorf(p.keyNode, "%s is a hook's key, not a config key: a hook written outside hooks:? hooks: holds a list of hooks, each starting with - and indented under it", p.key)
			d.shapeless = true
			continue
		}
		// No hooks (no hooks key, or an empty one) and a key hookcore does not know
		// ("hook:", "Hooks:", a key behind a byte order mark), in a hookcore file or in a
		// file named with --config whose key is a near-miss of hooks: the hooks the file
		// meant to declare are that key's, and it would run nothing while it loads, with a
		// warning no agent shows. So it does not load, and a gate event fails closed. In
		// another agent's settings file the other keys are that agent's, which ignores
		// them too.
		own := dialectByName(path) == Native && !isMiniCodeConfig(path)
		named := layer == Explicit && Suggest(p.key, []string{"hooks"}) != ""
		if hookless(hooksKV) && (own || named) {
			d.errorf(p.keyNode, "unknown key %q in config%s, and no hooks: the file's hooks go under hooks:, and as written it would run nothing", p.key, didYouMean(p.key, topKeys))
			d.shapeless = true
		} else if f.Dialect == Native && !isMiniCodeConfig(path) {
			d.unknownKey(p, "config", topKeys)
		} else if s := Suggest(p.key, slices.Concat(topKeys, []string{"disableAllHooks"})); s != "" {
			d.warnf(p.keyNode, "unknown key %q in config (did you mean %q?)", p.key, s)
		}
	}
	probs = append(fileProbs, d.take()...)
	if agent == Gemini {
		probs = append(probs, geminiStrict(f, data, strict)...)
	} else if !strict {
		reader := f.Dialect // the agent that reads the file: Codex's hooks.json is Nested
		if agent != Native {
			reader = agent
		}
		probs = append(probs, strictJSON(path, data, reader)...)
	}
	probs = append(probs, finish(f, raws, layer)...)
	probs.Sort()
	if d.shapeless { // every problem is reported, and the file runs nothing: it cannot be loaded
		f.Failed, f.Hooks, f.Broken = true, nil, nil
	}
	f.Entries = len(f.Hooks) + len(f.Broken)
	if f.Dialect != Native {
		offBridge(f)
	}
	return f, probs
}

// settings decodes the JSON dialects: `hooks` maps event names to sequences. Problems of an
// event key or a matcher group go with the first hook under it; rest holds those of keys
// with no hooks.
func (d *decoder) settings(f *File, hooks kv) (raws []*rawHook, rest ErrorList, tooMany bool) {
	events, _ := d.mapping(hooks.val)
	if n := d.entries(events); n > MaxHooks {
		d.errorf(hooks.rawValue, "%d hooks in one file; the limit is %d", n, MaxHooks)
		return nil, d.take(), true
	}
	nested, flat := false, false
	gemini, cursor, copilot := f.Dialect == Gemini, f.Dialect == Cursor, f.Dialect == Copilot
	for _, ev := range events {
		var e hook.Event
		if copilot && strings.TrimSpace(ev.key) != "" {
			if ce, ok := bridge.EventNames("copilot")[ev.key]; ok {
				e = ce
			} else {
				d.errorf(ev.keyNode, "unknown Copilot CLI event %q%s", ev.key, didYouMean(ev.key, copilotEventNames()))
			}
		} else if cursor && strings.TrimSpace(ev.key) != "" {
			if ce, ok := bridge.EventNames("cursor")[ev.key]; ok {
				e = ce
			} else {
				d.errorf(ev.keyNode, "unknown Cursor event %q%s", ev.key, didYouMean(ev.key, cursorEventNames()))
			}
		} else if gemini && strings.TrimSpace(ev.key) != "" {
			ge, skip, ok := geminiEvent(ev.key)
			switch {
			case slices.Contains(geminiConfigFields, ev.key):
				d.warnf(ev.keyNode, "Gemini CLI skips hooks.%s (it reads hooksConfig.%s): it has no effect", ev.key, ev.key)
				rest = append(rest, d.take()...)
				continue
			case skip:
				d.warnf(ev.keyNode, "Gemini event %s has no hookcore event (it narrows the tool set); its hooks are not loaded", ev.key)
				f.Unloaded = append(f.Unloaded, Unloaded{Pos: d.pos(ev.keyNode), Event: ev.key, Hooks: d.definitionHooks(ev.val)})
				rest = append(rest, d.take()...)
				continue
			case ok:
				e = ge
			default:
				d.errorf(ev.keyNode, "unknown Gemini CLI event %q%s", ev.key, didYouMean(ev.key, geminiEventNames()))
			}
		} else if strings.TrimSpace(ev.key) == "" {
			d.errorf(ev.keyNode, "empty event name")
		} else if pe, ok := hook.ParseEvent(ev.key); ok && (d.claude || IsClaudeSettings(f.Path)) && ev.key != string(pe) {
			// Claude Code reads its event names exactly: "preToolUse" or "Pre_Tool_Use" in
			// its settings runs nothing (observed, 2.1.332, peer-claude), and hookcore, which
			// takes any spelling, ran them, and `check` said nothing (new-user trial, stop 24).
			d.warnf(ev.keyNode, "Claude Code does not know the event %q (its names are case-sensitive; did you mean %q?): it runs none of these hooks, and neither does hookcore", ev.key, pe)
			rest = append(rest, d.take()...)
			continue
		} else if ok {
			e = pe
		} else {
			d.errorf(ev.keyNode, "unknown event %q%s", ev.key, didYouMean(ev.key, hook.EventNames()))
		}
		seq, ok := ev.val.(*ast.SequenceNode)
		if !ok && ev.val != nil {
			hint := ""
			if isHookField(ev.key) {
				hint = " (a hook written without its leading \"- \"? hooks: holds a list of hooks, each starting with -)"
			}
			d.errorf(ev.rawValue, "hooks for %s must be a sequence, not a %s%s", ev.key, kind(ev.val), hint)
			d.shapeless = !d.extension
		}
		first := len(raws)
		evProbs := d.take()
		if !ok {
			rest = append(rest, evProbs...)
			continue
		}
		for gi, entry := range seq.Values {
			pairs, _ := d.mapping(entry)
			var inner *kv
			var matcher *kv
			for i, p := range pairs {
				switch p.key {
				case "hooks":
					inner = &pairs[i]
				case "matcher":
					matcher = &pairs[i]
				}
			}
			if copilot {
				raws = append(raws, d.copilotEntry(entry, ev.key, e))
				continue
			}
			if cursor {
				if inner != nil {
					d.errorf(entry, "a Cursor hook is {command, matcher, timeout, ...}, not a matcher group with hooks")
					rest = append(rest, d.take()...)
					continue
				}
				raws = append(raws, d.cursorEntry(entry, ev.key, e))
				continue
			}
			if inner == nil && gemini {
				d.errorf(entry, "a Gemini CLI hook definition needs hooks: [...]")
				rest = append(rest, d.take()...)
				continue
			}
			if inner == nil {
				flat = true
				raws = append(raws, d.jsonEntry(entry, ev.key, e, Flat, nil))
				continue
			}
			nested = true
			raws = append(raws, d.group(entry, gi, ev.key, e, pairs, *inner, matcher, f.Dialect)...)
			rest = append(rest, d.take()...)
		}
		if len(raws) > first {
			raws[first].probs = append(evProbs, raws[first].probs...)
		} else {
			rest = append(rest, evProbs...)
		}
	}
	switch {
	case gemini, cursor, copilot:
	case nested:
		f.Dialect = Nested
	case flat:
		f.Dialect = Flat
	}
	return raws, rest, false
}

// group decodes a Claude Code matcher group {matcher, hooks: [...]}, the gi-th (0-based) of
// its event.
func (d *decoder) group(entry ast.Node, gi int, eventRaw string, e hook.Event, pairs []kv, inner kv, matcher *kv, dialect Dialect) []*rawHook {
	sequential := false
	for _, p := range pairs {
		switch {
		case p.key == "sequential" && dialect == Gemini:
			sequential, _ = d.boolean(p)
		case p.key == "hooks" || p.key == "matcher":
		case dialect == Gemini:
			d.claudeUnknownKey(p, "hook definition", geminiDefinitionKeys)
		default:
			d.claudeUnknownKey(p, "matcher group", groupKeys)
		}
	}
	if matcher == nil {
		matcher = &kv{key: "matcher", keyNode: entry, rawValue: entry}
	}
	seq, ok := inner.val.(*ast.SequenceNode)
	if !ok {
		if inner.val != nil {
			d.errorf(inner.rawValue, "hooks of a matcher group must be a sequence, not a %s", kind(inner.val))
			d.shapeless = !d.extension
		}
		return nil // the group's problems stay with the decoder for the caller
	}
	groupProbs := d.take()
	var raws []*rawHook
	inner2 := Nested
	if dialect == Gemini {
		inner2 = Gemini
	}
	for hi, h := range seq.Values {
		r := d.jsonEntry(h, eventRaw, e, inner2, matcher)
		if d.codexKeys != "" {
			r.h.AgentKey = fmt.Sprintf("%s:%s:%d:%d", d.codexKeys, codexEventLabel(eventRaw), gi, hi)
		}
		if dialect == Gemini {
			r.h.NativeEvent = eventRaw
			r.h.Parallel = r.h.Parallel || (!sequential && e != "" && e.Kind() != hook.Gate)
			m, warn, err := geminiMatcher(e, r.h.Matcher)
			switch {
			case err != nil:
				d.errorf(matcher.rawValue, "%v", err)
			case warn != "":
				d.warnf(matcher.rawValue, "%s", warn)
			}
			r.h.Matcher = m
			r.probs = append(r.probs, d.take()...)
		}
		raws = append(raws, r)
	}
	if sequential && len(raws) > 1 {
		for _, r := range raws {
			r.h.Sequential = true
		}
	}
	if len(raws) > 0 {
		raws[0].probs = append(groupProbs, raws[0].probs...)
	} else {
		d.probs = append(d.probs, groupProbs...)
	}
	return raws
}

// definitionHooks counts the hooks of a Gemini event's definitions ({matcher, hooks: [...]}).
func (d *decoder) definitionHooks(defs ast.Node) int {
	seq, ok := defs.(*ast.SequenceNode)
	if !ok {
		return 0
	}
	n := 0
	for _, def := range seq.Values {
		pairs, _ := d.mapping(def)
		for _, p := range pairs {
			if hs, ok := p.val.(*ast.SequenceNode); ok && p.key == "hooks" {
				n += len(hs.Values)
			}
		}
	}
	return n
}

// parseYAMLObj parses data (YAML or JSON) and returns the body of its only document, nil for
// an empty file, or the parser's error with its position; obj says whether data (past a byte
// order mark) is one JSON object (isJSONObject). A file over MaxFileSize, or whose parsed
// part (skimObject: all of it, but for the values a JSON file holds that hookcore does not
// read) is over the caps of CheckLimits, is not parsed: its problem is the error. A JSON
// object's tree is built by jsonTree, the YAML parser's own, without the parser (issue 9),
// unless it holds what the parser reads its own way.
func parseYAMLObj(path string, data []byte, obj bool) (ast.Node, ErrorList) {
	err := checkSize(path, data)
	if err == nil && EncodingHint(data) == "UTF-16" {
		err = &Problem{Pos: Pos{File: path, Line: 1, Col: 1}, Msg: "the file is UTF-16 (what Notepad saves as \"Unicode\"): save it as UTF-8"}
	} else if i := bytes.IndexByte(data, 0); err == nil && i >= 0 {
		// No text config holds a NUL byte: the file is binary, or another program's.
		line := 1 + bytes.Count(data[:i], []byte("\n"))
		col := i - (bytes.LastIndexByte(data[:i], '\n') + 1) + 1
		err = &Problem{Pos: Pos{File: path, Line: line, Col: col}, Msg: "the file holds a NUL byte: it is not a text file"}
	}
	src := data
	if err == nil {
		// A byte order mark opens the stream, as YAML allows (Windows editors write one): the
		// parser took it for the first key's first character, "\ufeffhooks", and the file's
		// hooks were an unknown key's value, so none ran, without an error. Columns of line 1
		// are then counted as an editor shows them, from the first visible character.
		src = skim(bytes.TrimPrefix(data, []byte("\ufeff")), obj)
		err = CheckLimits(path, src)
	}
	if err != nil {
		var p *Problem
		if errors.As(err, &p) {
			return nil, ErrorList{p}
		}
		return nil, ErrorList{{Pos: Pos{File: path}, Msg: err.Error()}}
	}
	if obj {
		if body, ok := jsonAST(src); ok {
			return body, nil
		}
	}
	file, err := parseBytes(src)
	if err != nil && !obj && strings.EqualFold(filepath.Ext(path), ".json") {
		if p := jsonSyntaxProblem(path, src); p != nil {
			return nil, ErrorList{p}
		}
	}
	if err != nil {
		p := &Problem{Pos: Pos{File: path}}
		var ye yaml.Error
		if errors.As(err, &ye) {
			// The message and the position only: the parser's Error() prints the source
			// around the error, in time quadratic in a long line (red team round 16: a
			// 512 KiB line took 6 s and 850 MB to report).
			p.Msg = "syntax error: " + YAMLMessage(ye.GetMessage())
			if t := ye.GetToken(); t != nil && t.Position != nil {
				p.Pos.Line, p.Pos.Col = t.Position.Line, t.Position.Column
			}
		} else {
			p.Msg = "syntax error: " + err.Error()
		}
		return nil, ErrorList{p}
	}
	var body ast.Node
	for _, doc := range file.Docs {
		if doc == nil || doc.Body == nil {
			continue
		}
		if body != nil {
			t := doc.Body.GetToken()
			p := &Problem{Pos: Pos{File: path}, Msg: "more than one YAML document; put all hooks in one"}
			if t != nil && t.Position != nil {
				p.Pos.Line, p.Pos.Col = t.Position.Line, t.Position.Column
			}
			return nil, ErrorList{p}
		}
		body = doc.Body
	}
	if body == nil {
		if line := contentLine(src); line > 0 {
			// The YAML parser returns one empty document for "---\n---\n<the hooks>" and
			// drops the rest: the file loaded with no hooks and no warning (stop 24, red team).
			return nil, ErrorList{{Pos: Pos{File: path, Line: line, Col: 1},
				Msg: "the YAML parser read no document, yet the file has content here (an empty document before it? a --- line with nothing under it): write the file as one document"}}
		}
	}
	return body, nil
}

// hookless reports whether a config's hooks key is absent, null or an empty list or mapping.
func hookless(hooks *kv) bool {
	if hooks == nil {
		return true
	}
	switch v := hooks.val.(type) {
	case nil, *ast.NullNode:
		return true
	case *ast.SequenceNode:
		return len(v.Values) == 0
	case *ast.MappingNode:
		return len(v.Values) == 0
	}
	return false
}

// contentLine returns the number of the first line of data that is not blank, a comment, a
// document marker (---, ..., with at most a comment after it) or a directive (%...); 0 when
// there is none.
func contentLine(data []byte) int {
	for n, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		for _, marker := range []string{"---", "..."} {
			if rest, ok := strings.CutPrefix(t, marker); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
				t = strings.TrimSpace(rest)
			}
		}
		if t != "" && t[0] != '#' && t[0] != '%' {
			return n + 1
		}
	}
	return 0
}

// parseBytes calls the YAML parser, turning a panic inside it into an error: a config file
// must never crash the agent.
func parseBytes(data []byte) (f *ast.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, errors.New("unparsable document")
		}
	}()
	return parser.ParseBytes(data, 0)
}

// jsonSyntaxProblem is the syntax error of a .json file that is not JSON, as a JSON parser
// words and places it (the offending character; the end of the file when it ends too
// soon), or nil when encoding/json reads it: the YAML parser's word for a missing last "}"
// was "could not find flow mapping end token", at the "{" that opens the file (new-user
// trial, stop 27).
func jsonSyntaxProblem(path string, src []byte) *Problem {
	var syn *json.SyntaxError
	if err := json.Unmarshal(src, new(any)); !errors.As(err, &syn) {
		return nil
	}
	off := int(syn.Offset) - 1
	if strings.HasPrefix(syn.Error(), "unexpected end") || off > len(src) {
		off = len(src)
	}
	off = max(off, 0)
	line := 1 + bytes.Count(src[:off], []byte("\n"))
	col := off - (bytes.LastIndexByte(src[:off], '\n') + 1) + 1
	return &Problem{Pos: Pos{File: path, Line: line, Col: col}, Msg: "syntax error: " + syn.Error()}
}

// isMiniCodeConfig reports whether path is MiniCode's .minicode/config.yaml or
// config.local.yaml, which hold MiniCode's other settings beside `hooks`: their other
// top-level keys are not warned about.
func isMiniCodeConfig(path string) bool {
	base := filepath.Base(path)
	return (base == "config.yaml" || base == "config.local.yaml") && filepath.Base(filepath.Dir(path)) == ".minicode"
}

// offBridge turns off (Enabled false, so `hookcore list` still shows them) the hooks of an
// agent's settings file — Claude Code's, Codex's, Gemini CLI's, Cursor's, Copilot CLI's,
// codebot's: every dialect but hookcore's own — that are hookcore itself: a command
// "hookcore hook AGENT ..." (what `hookcore install` writes; the program named by any path
// whose base is hookcore), or an http hook to a `hookcore serve` on this machine
// (isServeURL: what `hookcore install claude --server URL` writes). Run as a hook, it would
// apply hookcore's whole configuration a second time: `hookcore hook codex` loads
// .claude/settings.json, where `hookcore install claude` wrote `hookcore hook claude`.
func offBridge(f *File) {
	for i := range f.Hooks {
		h := &f.Hooks[i]
		switch h.Action.Type {
		case TypeCommand:
			if isHookcoreBridge(h.Action.Command) || isHookcoreArgv(h.Action.Args) {
				h.Enabled = false
			}
		case TypeHTTP:
			if isServeURL(h.Action.URL) {
				h.Enabled = false
			}
		}
	}
}

// isHookcoreBridge reports whether cmd runs `hookcore hook ...`: a program named hookcore or
// hookcore-hook (the lean hook binary; any path, .exe or not), the path bare or in one
// pair of quotes, as `hookcore install` writes a path with a space ('/opt/my bin/hookcore'
// hook claude: red team 11).
func isHookcoreBridge(cmd string) bool {
	cmd = strings.TrimSpace(cmd)
	var bin, rest string
	if cmd != "" && (cmd[0] == '\'' || cmd[0] == '"') {
		end := strings.IndexByte(cmd[1:], cmd[0])
		if end < 0 {
			return false
		}
		bin, rest = cmd[1:1+end], cmd[2+end:]
		if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			return false
		}
	} else {
		bin, rest, _ = strings.Cut(cmd, " ")
	}
	w := strings.Fields(rest)
	if len(w) < 1 || w[0] != "hook" {
		return false
	}
	base := strings.TrimSuffix(filepath.Base(bin), ".exe")
	return base == "hookcore" || base == "hookcore-hook"
}

// isHookcoreArgv is isHookcoreBridge for an exec-form argv (Claude Code's `command` +
// `args`, what `hookcore install claude` writes since stop 29): the program, a path taken as
// it is (no shell splits it: "/opt/my bin/hookcore-hook"), then the word hook.
func isHookcoreArgv(args []string) bool {
	if len(args) < 2 || args[1] != "hook" {
		return false
	}
	base := strings.TrimSuffix(filepath.Base(args[0]), ".exe")
	return base == "hookcore" || base == "hookcore-hook"
}

// isServeURL reports whether u is an endpoint of `hookcore serve` on this machine: http or
// https to a loopback address or localhost, path /hook/AGENT or /hook/AGENT/EVENT for an
// agent the bridge speaks (bridge.Names). A URL of another host is the user's own service,
// whatever its path, and is left alone.
func isServeURL(u string) bool {
	p, err := url.Parse(strings.TrimSpace(u))
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") {
		return false
	}
	host := p.Hostname()
	// netip, not net: the net package's initialisation is a hook process's to pay at every
	// start. Same addresses as net.ParseIP's IsLoopback: no zone, IPv4-mapped unmapped.
	if ip, err := netip.ParseAddr(host); !strings.EqualFold(host, "localhost") && (err != nil || ip.Zone() != "" || !ip.Unmap().IsLoopback()) {
		return false
	}
	parts := strings.Split(strings.Trim(p.Path, "/"), "/")
	if len(parts) < 2 || len(parts) > 3 || parts[0] != "hook" {
		return false
	}
	return slices.Contains(bridge.Names(), parts[1])
}

// isCodexHooks reports whether path is a Codex hook file: hooks.json or config.toml in a
// directory named .codex (~/.codex/hooks.json, <project>/.codex/config.toml, ...).
func isCodexHooks(path string) bool {
	base := filepath.Base(path)
	return (base == "hooks.json" || base == "config.toml") && filepath.Base(filepath.Dir(path)) == ".codex"
}

// dialectByName guesses the dialect of a file without hooks: Nested for .json, else Native.
func dialectByName(path string) Dialect {
	if strings.EqualFold(filepath.Ext(path), ".json") {
		return Nested
	}
	return Native
}

// IsClaudeSettings reports whether path is one of Claude Code's settings files:
// .claude/settings.json or settings.local.json, managed-settings.json or a
// managed-settings.d/*.json drop-in.
func IsClaudeSettings(path string) bool {
	base, dir := filepath.Base(path), filepath.Base(filepath.Dir(path))
	return dir == ".claude" && (base == "settings.json" || base == "settings.local.json") ||
		base == "managed-settings.json" || dir == "managed-settings.d" && strings.HasSuffix(base, ".json")
}

// isHookField reports whether key is a key of a hook entry that is never an event name nor
// a config key, so a mapping keyed by it is a hook written in the wrong place.
func isHookField(key string) bool {
	switch key {
	case "id", "event", "matcher", "if", "action", "type", "command", "timeout", "on_error":
		return true
	}
	return false
}
