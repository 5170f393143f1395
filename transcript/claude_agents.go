package transcript

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookcore/hookcore/hook"
)

// agentRef names the sub-agent a reader replays.
type agentRef struct {
	id, typ string
}

// agentMeta is what a sub-agent's agent-<agentId>.meta.json tells.
type agentMeta struct {
	id  string // from the file name
	typ string
}

// isAgentTool reports whether a tool call starts a sub-agent ("Task" before Claude Code 2.x).
func isAgentTool(name string) bool { return name == "Agent" || name == "Task" }

// subagentDir returns the folder of the session's sub-agent transcripts.
func (r *claudeReader) subagentDir() string {
	if d := r.sh.opts.SubagentDir; d != "" {
		return d
	}
	if r.sh.opts.Path == "" {
		return ""
	}
	return filepath.Join(strings.TrimSuffix(r.sh.opts.Path, ".jsonl"), "subagents")
}

// meta returns the meta file of the sub-agent that a call started, by the call's tool_use
// id; the folder is read once, on first use.
func (r *claudeReader) meta(toolUseID string) (agentMeta, bool) {
	if r.sh.metas == nil {
		r.sh.metas = map[string]agentMeta{}
		dir := r.subagentDir()
		names, _ := filepath.Glob(filepath.Join(dir, "agent-*.meta.json"))
		for _, name := range names {
			data, err := os.ReadFile(name)
			if err != nil {
				continue
			}
			var m struct {
				AgentType string `json:"agentType"`
				ToolUseID string `json:"toolUseId"`
			}
			if json.Unmarshal(data, &m) != nil || m.ToolUseID == "" {
				continue
			}
			id := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(name), "agent-"), ".meta.json")
			r.sh.metas[m.ToolUseID] = agentMeta{id: id, typ: m.AgentType}
		}
	}
	m, ok := r.sh.metas[toolUseID]
	return m, ok
}

// subagent derives the sub-agent of an Agent call, at its result line (the call runs alone,
// so nothing else fires between its PreToolUse and its Post event): SubagentStart, then the
// sub-agent transcript's own events (its tool calls tagged with agent_id and agent_type,
// SubagentStop at each end of its turn), in place. The agent id comes from the result's
// toolUseResult.agentId or from the meta file whose toolUseId is the call's id; the type
// from the meta file, toolUseResult.agentType, or the call's subagent_type. Without an id
// nothing is derived; without a transcript file one SubagentStop follows SubagentStart.
func (r *claudeReader) subagent(c *call, l *line, tur json.RawMessage, n int) {
	var res struct {
		AgentID   string `json:"agentId"`
		AgentType string `json:"agentType"`
	}
	if len(tur) > 0 && tur[0] == '{' {
		json.Unmarshal(tur, &res) //nolint:errcheck // a result of another shape has no id
	}
	m, _ := r.meta(c.id)
	a := &agentRef{id: res.AgentID, typ: m.typ}
	if a.id == "" {
		a.id = m.id
	}
	if a.id == "" {
		return
	}
	if a.typ == "" {
		a.typ = res.AgentType
	}
	if a.typ == "" {
		var args struct {
			SubagentType string `json:"subagent_type"`
		}
		json.Unmarshal(c.input, &args) //nolint:errcheck // absent means the default type
		a.typ = args.SubagentType
	}
	if a.typ == "" {
		a.typ = "general-purpose"
	}
	start := r.input(hook.SubagentStart)
	start.AgentID, start.AgentType = a.id, a.typ
	r.emit(start, c.line, c.time) // located at the Agent call, so times stay in order

	path := filepath.Join(r.subagentDir(), "agent-"+a.id+".jsonl")
	f, err := os.Open(path)
	if err != nil {
		r.sh.stats.MissingSubagents++
		r.sh.stats.MissingSubagentPaths = append(r.sh.stats.MissingSubagentPaths, path)
		r.emit(r.stopInput(a), n, l.time())
		return
	}
	r.sh.stats.Files++
	sub := &claudeReader{
		sh: r.sh, lr: newLineReader(f), file: path, closer: f, agent: a,
		started: true, cwd: r.cwd, promptID: r.promptID, effort: r.effort, model: r.model,
		calls: map[string]*call{},
	}
	r.out = append(r.out, item{sub: sub})
}

// agentInput is input for the events of sub-agent a: agent_id and agent_type are set.
func (r *claudeReader) agentInput(e hook.Event, a *agentRef) *hook.Input {
	in := r.input(e)
	in.AgentID, in.AgentType = a.id, a.typ
	return in
}

// stopInput is the input of Stop (a nil) or of sub-agent a's SubagentStop, without
// stop_hook_active and last_assistant_message.
func (r *claudeReader) stopInput(a *agentRef) *hook.Input {
	var in *hook.Input
	if a != nil {
		in = r.agentInput(hook.SubagentStop, a)
		setExtra(in, "agent_transcript_path", r.agentTranscriptPath(a.id))
	} else {
		in = r.input(hook.Stop)
	}
	in.PermissionMode = r.sh.permissionMode
	r.setEffort(in)
	return in
}

// agentTranscriptPath is SubagentStop's agent_transcript_path: the sub-agent file next to
// the transcript_path reported, where Claude Code keeps it.
func (r *claudeReader) agentTranscriptPath(id string) string {
	base := r.sh.opts.TranscriptPath
	if base == "" {
		return filepath.Join(r.subagentDir(), "agent-"+id+".jsonl")
	}
	return strings.TrimSuffix(base, ".jsonl") + "/subagents/agent-" + id + ".jsonl"
}
