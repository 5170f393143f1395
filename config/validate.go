package config

import (
	"errors"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/internal/shbound"
	"github.com/hookcore/hookcore/match"
)

// finish assigns ids, runs the checks that need a whole hook (DESIGN.md sections 3-5) and
// stores the hooks in f: a hook with an error in f.Broken, the others in f.Hooks. It
// returns every problem with its hook id.
func finish(f *File, raws []*rawHook, layer Layer) ErrorList {
	assignIDs(raws)
	var out ErrorList
	seen := map[string]*rawHook{}
	ids := map[string]bool{} // every id, the assigned ones too: a renamed Gemini hook avoids them
	for _, r := range raws {
		ids[r.h.ID] = true
	}
	type key struct {
		pos     Pos
		msg     string
		warning bool
	}
	reported := map[key]bool{} // a matcher group's problem is reported once, not per hook
	for i, r := range raws {
		r.h.Index, r.h.Layer = i, layer
		if p, ok := r.at["id"]; ok && r.explicitID && p.keyNode != nil {
			// A hook with an id is at its id line, whatever key comes first (new-user
			// trial, stop 33: a hook written matcher-first was reported at its matcher);
			// an id on the entry's first line leaves the entry's start ({ of a flow map).
			if at := (&decoder{path: r.h.Pos.File}).pos(p.keyNode); at.Line != r.h.Pos.Line {
				r.h.Pos = at
			}
		}
		if r.h.Dialect == Gemini && r.h.AgentKey == "" {
			r.h.AgentKey = r.h.Action.Command // Gemini CLI's getHookName: name || command
		}
		if r.explicitID && r.h.Dialect == Gemini {
			if _, dup := seen[r.h.ID]; dup {
				// Gemini CLI's name is a label, not an id: several hooks may share it
				// (`hookcore install gemini` names every entry "hookcore"), and Gemini CLI
				// runs them all. The later ones get NAME#2, NAME#3, ... (stop 25 trial: the
				// duplicates were broken entries, and a trusted project with hookcore
				// installed for Gemini CLI blocked every call under `hookcore hook claude`).
				base := r.h.ID
				for n := 2; seen[r.h.ID] != nil || r.h.ID != base && ids[r.h.ID]; n++ {
					r.h.ID = fmt.Sprintf("%s#%d", base, n)
				}
				ids[r.h.ID] = true
			}
			seen[r.h.ID] = r
		} else if r.explicitID {
			if first, dup := seen[r.h.ID]; dup {
				msg := fmt.Sprintf("duplicate id %q (first used at line %d)", r.h.ID, first.h.Pos.Line)
				if posOf(r, "id") == posOf(first, "id") {
					// A YAML alias (*name) repeats the anchored hook, id and all.
					msg = fmt.Sprintf("duplicate id %q: this hook repeats the one at line %d (a YAML alias?); give the copy its own id", r.h.ID, first.h.Pos.Line)
				}
				r.probs = append(r.probs, &Problem{Pos: posOf(r, "id"), Msg: msg})
			} else {
				seen[r.h.ID] = r
			}
		}
		check(r)
		fault := checkShell(r)
		var errs ErrorList
		for _, p := range r.probs {
			p.HookID = r.h.ID
			if !p.Warning && p != fault {
				errs = append(errs, p)
			}
			k := key{p.Pos, p.Msg, p.Warning}
			if reported[k] {
				continue
			}
			reported[k] = true
			out = append(out, p)
		}
		if r.h.Event == "" && len(errs) == 0 {
			// The event key's error went with the first hook under it.
			errs = ErrorList{{Pos: r.h.Pos, HookID: r.h.ID, Msg: fmt.Sprintf("unknown event %q", r.eventRaw)}}
		}
		if len(errs) > 0 {
			f.Broken = append(f.Broken, Broken{Hook: r.h, Errors: errs})
			continue
		}
		if f.Hooks == nil {
			// Room for the hooks left, once there is one: a Hook is large, and growing by
			// doubling was 5 KB of a hook event's allocations (stop 34).
			f.Hooks = make([]Hook, 0, len(raws)-i)
		}
		f.Hooks = append(f.Hooks, r.h)
	}
	return out
}

// assignIDs gives every hook without an `id` the id "<Event>#<n>", n counting from 1 the
// hooks of that event in the file, skipping ids that the file uses explicitly. The event is
// the canonical name, or the text as written when it is unknown ("hook" when missing).
func assignIDs(raws []*rawHook) {
	taken := map[string]bool{}
	for _, r := range raws {
		if r.explicitID {
			taken[r.h.ID] = true
		}
	}
	count := map[string]int{}
	for _, r := range raws {
		if r.explicitID {
			continue
		}
		name := string(r.h.Event)
		if name == "" {
			name = strings.TrimSpace(r.eventRaw)
		}
		if name == "" {
			name = "hook"
		}
		for {
			count[name]++
			id := fmt.Sprintf("%s#%d", name, count[name])
			if !taken[id] {
				r.h.ID, taken[id] = id, true
				break
			}
		}
	}
}

// posOf returns the position of key's value in r, or of the entry when the key is absent.
func posOf(r *rawHook, key string) Pos {
	if p, ok := r.at[key]; ok {
		return posOfNode(r, p)
	}
	return r.h.Pos
}

func posOfNode(r *rawHook, p kv) Pos {
	n := p.rawValue
	if n == nil {
		n = p.keyNode
	}
	d := decoder{path: r.h.Pos.File}
	return d.pos(n)
}

// checkShell adds an error when the shell-form command of r does not parse (mvdan.cc/sh,
// bash syntax, the most lenient of the shells /bin/sh may be) and returns it, or nil. It is
// an error for `hookcore check` but does not make the hook Broken: the hook loads, and when
// it runs the shell's own verdict counts — a command that /bin/sh cannot parse is an error
// of that hook, never a block (issue 10.7; the executor confirms with `sh -n`). A command
// past the parser's bounds (internal/shbound) is not checked.
func checkShell(r *rawHook) *Problem {
	a := &r.h.Action
	if a.Type != TypeCommand || strings.TrimSpace(a.Command) == "" || shbound.Check(a.Command) != nil {
		return nil
	}
	_, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(a.Command), "")
	var pe syntax.ParseError
	if !errors.As(err, &pe) {
		return nil
	}
	pos := posOf(r, "action.command")
	msg := fmt.Sprintf("command does not parse as a shell line (it fails each time it runs): %s", pe.Text)
	if p, ok := r.at["action.command"]; ok && pe.Pos.Line() == 1 {
		d := decoder{path: r.h.Pos.File, src: r.src}
		pos = d.contentPos(p.rawValue, a.Command, int(pe.Pos.Offset()))
	} else {
		msg = fmt.Sprintf("command does not parse as a shell line (it fails each time it runs): line %d:%d: %s", pe.Pos.Line(), pe.Pos.Col(), pe.Text)
	}
	p := &Problem{Pos: pos, Msg: msg}
	r.probs = append(r.probs, p)
	return p
}

// check runs the whole-hook rules: reject and async against the event's kind, matcher and
// `if` compilation, a matcher on an event without a match field.
func check(r *rawHook) {
	h := &r.h
	add := func(key string, warning bool, format string, args ...any) {
		r.probs = append(r.probs, &Problem{Pos: posOf(r, key), Msg: fmt.Sprintf(format, args...), Warning: warning})
	}
	if h.Event != "" {
		kind := h.Event.Kind()
		if h.Reject && kind != hook.Gate {
			add("reject", false, "reject is only allowed on gate events; %s is a %s event", h.Event, kind)
		}
		switch {
		case h.Async && kind == hook.Gate && h.Dialect == Nested:
			// Claude Code runs it in the background and ignores its decision (observed with
			// Claude Code 2.1.332: an async PreToolUse hook that exits 2 does not block).
			add(asyncKey(r), true, "async hook on gate event %s cannot decide: it runs in the background", h.Event)
		case h.Async && kind == hook.Gate:
			add("async", false, "async is not allowed on gate event %s: its decision must be waited for", h.Event)
		}
		if h.Parallel && kind == hook.Gate {
			add("parallel", true, "parallel is ignored on gate event %s: gate hooks run in order", h.Event)
		}
		if m := strings.TrimSpace(h.Matcher); m != "" && m != "*" && h.Event.MatchField() == "" {
			add("matcher", true, "matcher is ignored on %s", h.Event)
		}
	}
	if h.Reject && !h.Blocking {
		add("reject", true, "reject has no effect with blocking: false")
	}
	if h.Timeout != 0 && h.Action.Timeout != 0 && h.Timeout != h.Action.Timeout {
		add("timeout", true, "both timeout and action.timeout are set; action.timeout (%s) wins", h.Action.Timeout)
	}
	if _, err := h.CompileMatcher(); err != nil {
		add("matcher", false, "%v", err)
	}
	if f, err := match.CompileIf(h.If); err == nil {
		if j, ok := f.JoinedRules(); ok {
			joinedRules(r, f, j)
		}
		for _, name := range f.UnknownFields() {
			add("if", true, "if reads the field %q, which conditions do not have: it reads as empty, so its clause holds only against an empty value (the fields are tool, event, args.NAME and file_path)", name)
		}
		if h.Event != "" && h.Event.MatchField() == "tool_name" {
			argKeyTypos(h, f, func(format string, args ...any) { add("if", true, format, args...) })
		}
	} else {
		var se *match.SyntaxError
		if errors.As(err, &se) {
			pos := posOf(r, "if")
			if p, ok := r.at["if"]; ok {
				d := decoder{path: h.Pos.File, src: r.src}
				pos = d.contentPos(p.rawValue, h.If, se.Offset)
			}
			r.probs = append(r.probs, &Problem{Pos: pos, Msg: "bad if condition: " + se.Msg})
		} else {
			add("if", false, "bad if condition: %v", err)
		}
	}
}

// joinedRules reports an `if` that reads as two permission rules joined by j.Op (any text:
// "||", "or", ';', or white space only, see match.If.JoinedRules), which is one rule
// matching almost nothing (red team round 39, F5: `if: 'Bash(rm -rf *) || Bash(curl *)'`
// let rm -rf through, and check said nothing; round 40, F4: the same with "or", ';', a
// space). In hookcore's own YAML, whose `if` only hookcore reads, it is an error, so that
// the hook is broken and, under an agent, a broken guard fails closed. In another agent's file it is a warning: the agent reads the
// one rule (Claude Code's `if` holds exactly one), and hookcore matches it as the agent does.
func joinedRules(r *rawHook, f *match.If, j match.Join) {
	h := &r.h
	src := strings.TrimSpace(h.If)
	pat := src[strings.IndexByte(src, '(')+1 : len(src)-1]
	joined := "joined by " + j.Op
	if j.Op == " " {
		joined = "written one after the other"
	}
	what := fmt.Sprintf("%q looks like two rules %s, but a permission rule is one tool and one pattern: this is the rule %s with the pattern %q, which matches almost nothing",
		src, joined, f.RuleTool(), pat)
	p := &Problem{Pos: posOf(r, "if")}
	if kv, ok := r.at["if"]; ok {
		d := decoder{path: h.Pos.File, src: r.src}
		p.Pos = d.contentPos(kv.rawValue, h.If, j.Offset)
	}
	switch h.Dialect {
	case Native:
		p.Msg = "bad if condition: " + what + "; write one hook for each rule, or a condition of field op value clauses"
	case Nested:
		p.Warning = true
		p.Msg = "if " + what + " (Claude Code's if holds exactly one rule, and hookcore matches it the same way); write one hook for each rule"
	default:
		p.Warning = true
		p.Msg = "if " + what + " (if holds exactly one rule, as in Claude Code); write one hook for each rule"
	}
	r.probs = append(r.probs, p)
}

// asyncKey is the key that made r async, for the position of a message about it.
func asyncKey(r *rawHook) string {
	if _, ok := r.at["async"]; ok {
		return "async"
	}
	return "async_rewake"
}
