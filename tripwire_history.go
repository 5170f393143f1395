package hookcore

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/internal/regularfile"
)

// Bounds of the transcript read when an armed session's baseline is missing (red team round
// 60), by counts: the bytes read from the start of the file, its lines, and the bytes of one
// line that are decoded (a longer line is skipped).
const (
	historyMaxBytes = 32 << 20
	historyMaxLines = 100_000
	historyMaxLine  = 4 << 20
)

// vanished returns why an armed event that found no baseline in the session's state must
// stop, "" when it need not: the session's transcript (in.TranscriptPath) shows a tool
// call of this session other than in's own that had finished before this event (a Claude
// Code tool_result line whose sessionId is in.SessionID, a Codex function_call_output or
// custom_tool_call_output of a rollout whose session_meta id is in.SessionID). Hookcore,
// installed on every event and every tool, saw that call's PreToolUse and PostToolUse;
// armed at them, it kept a baseline, which this event no longer finds: the state file
// was deleted or emptied (`{}`) since (red team round 60), or, with hookcore serve's
// state.Memory, the server restarted. SessionStart never stops: a
// resumed session keeps its id, and SessionEnd dropped its state. A transcript that cannot
// be read, or shows no such call within the bounds, says nothing (the session's first
// event, a transcript written late).
func vanished(event hook.Event, in *hook.Input) string {
	if event == hook.SessionStart || in.TranscriptPath == "" || in.SessionID == "" {
		return ""
	}
	id := earlierToolCall(in.TranscriptPath, in.SessionID, in.ToolUseID)
	if id == "" {
		return ""
	}
	return "the session's tripwire state vanished: hookcore's state holds no baseline for it, yet its transcript shows an earlier tool call " + id +
		" at which hookcore took one (the state file was deleted or emptied, or hookcore serve restarted); if you installed hookcore or added the tripwire during this session, resume"
}

// historyLine holds the fields of a transcript line that earlierToolCall reads: Claude
// Code's type, sessionId and message content, Codex's type and payload.
type historyLine struct {
	Type      string `json:"type"`
	SessionID string `json:"sessionId"`
	Message   struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
	Payload struct {
		Type   string `json:"type"`
		ID     string `json:"id"`
		CallID string `json:"call_id"`
	} `json:"payload"`
}

// historyBlock is one block of a Claude Code message's content.
type historyBlock struct {
	Type      string `json:"type"`
	ToolUseID string `json:"tool_use_id"`
}

// earlierToolCall returns the id of the first finished tool call of session in the
// transcript at path whose id is not self, "" when there is none within the bounds
// (historyMaxBytes, historyMaxLines, historyMaxLine) or the file cannot be read. The file
// must be regular (regularfile.Open: a FIFO does not hang the hook).
func earlierToolCall(path, session, self string) string {
	f, _, err := regularfile.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	br := bufio.NewReaderSize(io.LimitReader(f, historyMaxBytes), 64<<10)
	var long []byte // a line longer than the reader's buffer, read so far
	over := false   // the line being read is over historyMaxLine: skipped
	codex := ""     // the session_meta id of a Codex rollout
	for n := 0; n < historyMaxLines; {
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			over = over || len(long)+len(chunk) > historyMaxLine
			if !over {
				long = append(long, chunk...)
			}
			continue
		}
		line := chunk
		if len(long) > 0 || over {
			line = nil
			if !over && len(long)+len(chunk) <= historyMaxLine {
				line = append(long, chunk...)
			}
			long, over = long[:0], false
		}
		n++
		if id := finishedCall(line, session, self, &codex); id != "" {
			return id
		}
		if err != nil {
			return "" // io.EOF, the bound, or a read error
		}
	}
	return ""
}

// finishedCall returns the id of the tool call whose end the transcript line records, when
// it belongs to session and is not self; codex carries a Codex rollout's session id from
// its session_meta line to the lines after it.
func finishedCall(line []byte, session, self string, codex *string) string {
	if !bytes.Contains(line, []byte("tool_result")) && !bytes.Contains(line, []byte("_call_output")) && !bytes.Contains(line, []byte("session_meta")) {
		return ""
	}
	var l historyLine
	if json.Unmarshal(line, &l) != nil {
		return ""
	}
	switch l.Type {
	case "session_meta":
		*codex = l.Payload.ID
	case "response_item":
		if (l.Payload.Type == "function_call_output" || l.Payload.Type == "custom_tool_call_output") &&
			*codex == session && l.Payload.CallID != "" && l.Payload.CallID != self {
			return l.Payload.CallID
		}
	case "user":
		if l.SessionID != session || !bytes.HasPrefix(bytes.TrimSpace(l.Message.Content), []byte("[")) {
			return ""
		}
		var blocks []historyBlock
		if json.Unmarshal(l.Message.Content, &blocks) != nil {
			return ""
		}
		for _, b := range blocks {
			if b.Type == "tool_result" && b.ToolUseID != "" && b.ToolUseID != self {
				return b.ToolUseID
			}
		}
	}
	return ""
}
