package transcript

import (
	"encoding/json"
	"strings"
	"sync"
	"time"
)

// claudeKinds are the line types Claude Code 2.1.332 writes (the shared sessions README),
// plus "summary" from older versions. A line of another type is skipped and counted.
var claudeKinds = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"user": true, "assistant": true, "system": true, "attachment": true,
		"queue-operation": true, "last-prompt": true, "atis-latch": true,
		"api-request-shape": true, "api-request-blob": true, "api-request": true,
		"tools-used": true, "cost-state": true, "file-history-snapshot": true,
		"file-history-delta": true, "summary": true,
	}
})

// line is the part of a Claude Code transcript line the reader uses; everything else is
// skipped by the decoder without being kept.
type line struct {
	Type             string `json:"type"`
	Subtype          string `json:"subtype"`
	SessionID        string `json:"sessionId"`
	Cwd              string `json:"cwd"`
	Timestamp        string `json:"timestamp"`
	IsSidechain      bool   `json:"isSidechain"`
	IsMeta           bool   `json:"isMeta"`
	IsCompactSummary bool   `json:"isCompactSummary"`
	PromptSource     any    `json:"promptSource"`
	PromptID         string `json:"promptId"`
	PermissionMode   string `json:"permissionMode"`
	Operation        string `json:"operation"`
	// Content is a queue-operation's prompt text or a system line's text.
	Content json.RawMessage `json:"content"`

	Message *struct {
		ID         string          `json:"id"`
		Model      string          `json:"model"`
		StopReason string          `json:"stop_reason"`
		Content    json.RawMessage `json:"content"` // a string or a list of blocks
	} `json:"message"`

	ToolUseResult      json.RawMessage `json:"toolUseResult"`
	ToolDenialKind     string          `json:"toolDenialKind"`
	PermissionDecision *struct {
		Decision   string `json:"decision"`
		Source     string `json:"source"`
		ReasonType string `json:"reasonType"`
		ReasonCode string `json:"reasonCode"`
	} `json:"permissionDecision"`

	Attachment *struct {
		Type      string `json:"type"`
		HookName  string `json:"hookName"`
		HookEvent string `json:"hookEvent"`
		ToolUseID string `json:"toolUseID"`
		Stdout    string `json:"stdout"`
	} `json:"attachment"`

	CompactMetadata *struct {
		Trigger string `json:"trigger"`
	} `json:"compactMetadata"`

	// Params is an api-request line's request parameters.
	Params *struct {
		Model        string `json:"model"`
		OutputConfig struct {
			Effort string `json:"effort"`
		} `json:"output_config"`
	} `json:"params"`
}

// block is one content block of a message.
type block struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	Text      string          `json:"text"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

func (l *line) time() time.Time {
	t, _ := time.Parse(time.RFC3339Nano, l.Timestamp)
	return t
}

// text returns the message content when it is a string.
func (l *line) text() (string, bool) {
	if l.Message == nil || len(l.Message.Content) == 0 || l.Message.Content[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(l.Message.Content, &s) != nil {
		return "", false
	}
	return s, true
}

// blocks returns the message content when it is a list of blocks.
func (l *line) blocks() []block {
	if l.Message == nil || len(l.Message.Content) == 0 || l.Message.Content[0] != '[' {
		return nil
	}
	bs, ok := decodeBlocks(l.Message.Content)
	if !ok {
		return nil
	}
	return bs
}

// hasPromptSource reports whether the line carries promptSource, which Claude Code 2.1.332
// writes on real prompts only.
func (l *line) hasPromptSource() bool { return l.PromptSource != nil }

// commandPrefixes start user lines that Claude Code writes for slash commands and shell
// escapes; they are not prompts.
var commandPrefixes = []string{
	"<command-name>", "<command-message>", "<local-command-", "<bash-input>",
	"<bash-stdout>", "<bash-stderr>", "<user-memory-input>",
}

// isPrompt reports whether a user line is a real prompt, for which UserPromptSubmit fired.
// Claude Code 2.1.332 marks those with promptSource; for lines without it (older or
// interactive transcripts) a string (or text-only) content that is not meta, not a compact
// summary, and not a slash-command or shell-escape record counts as a prompt.
func (l *line) isPrompt(bs []block) (string, bool) {
	s, isString := l.text()
	if !isString {
		var parts []string
		for _, b := range bs {
			switch b.Type {
			case "tool_result":
				return "", false
			case "text":
				parts = append(parts, b.Text)
			}
		}
		if len(parts) == 0 {
			return "", false
		}
		s = strings.Join(parts, "\n")
	}
	if l.hasPromptSource() {
		return s, true
	}
	if l.IsMeta || l.IsCompactSummary {
		return "", false
	}
	for _, p := range commandPrefixes {
		if strings.HasPrefix(s, p) {
			return "", false
		}
	}
	return s, true
}

// kind names the line as the shared sessions README counts it.
func (l *line) kind(bs []block) string {
	switch l.Type {
	case "user":
		_, isString := l.text()
		switch {
		case l.hasPromptSource():
			return "user/prompt"
		case l.IsCompactSummary:
			return "user/compact_summary"
		case l.IsMeta:
			return "user/meta"
		case !isString && len(bs) > 0 && bs[0].Type == "tool_result":
			return "user/tool_result"
		}
		return "user/other"
	case "assistant":
		if len(bs) > 0 {
			return "assistant/" + bs[0].Type
		}
	case "system":
		return "system/" + l.Subtype
	case "attachment":
		if l.Attachment != nil {
			return "attachment/" + l.Attachment.Type
		}
	}
	return l.Type
}

// contentText returns a tool_result's content as text: the string itself, or the text
// blocks of a list joined by newlines.
func contentText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	if raw[0] == '"' {
		var s string
		json.Unmarshal(raw, &s) //nolint:errcheck // a bad string reads as ""
		return s
	}
	var bs []block
	if json.Unmarshal(raw, &bs) != nil {
		return ""
	}
	var parts []string
	for _, b := range bs {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}
