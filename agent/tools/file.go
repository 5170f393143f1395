package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookcore/hookcore/hook"
)

// MaxReadBytes caps what ReadFile returns (256 KiB).
const MaxReadBytes = 256 << 10

type pathInput struct {
	Path string `json:"path"`
}

func pathOf(input json.RawMessage) string {
	var in pathInput
	_ = hook.DecodeToolInput(input, &in) // an ambiguous input names no file: the tool refuses it
	return in.Path
}

// ReadFile reads a text file of the workspace. Input: {"path"}. Output: the content as a
// JSON string, cut at MaxReadBytes with a marker.
type ReadFile struct{ W Workspace }

// Name returns "ReadFile".
func (ReadFile) Name() string { return "ReadFile" }

// Description describes the tool to the model.
func (ReadFile) Description() string { return "Read a file of the workspace." }

// Schema returns the input schema.
func (ReadFile) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"path relative to the workspace root"}},"required":["path"]}`)
}

// NeedsApproval returns false: reading in the workspace is harmless.
func (ReadFile) NeedsApproval(json.RawMessage) bool { return false }

// Run reads the file.
func (t ReadFile) Run(_ context.Context, input json.RawMessage) (json.RawMessage, error) {
	p, err := t.W.Resolve(pathOf(input))
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf, err := io.ReadAll(io.LimitReader(f, MaxReadBytes+1))
	if err != nil {
		return nil, err
	}
	s := string(buf[:min(len(buf), MaxReadBytes)])
	if len(buf) > MaxReadBytes {
		s += "\n… [file truncated]"
	}
	return json.Marshal(strings.ToValidUTF8(s, "\uFFFD"))
}

// WriteFile writes a file of the workspace, creating it and its directories. Input:
// {"path", "content"}.
type WriteFile struct{ W Workspace }

// Name returns "WriteFile".
func (WriteFile) Name() string { return "WriteFile" }

// Description describes the tool to the model.
func (WriteFile) Description() string {
	return "Write a file of the workspace (created or replaced whole)."
}

// Schema returns the input schema.
func (WriteFile) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"}},"required":["path","content"]}`)
}

// NeedsApproval returns true.
func (WriteFile) NeedsApproval(json.RawMessage) bool { return true }

// ChangedFile returns the input's path.
func (WriteFile) ChangedFile(input json.RawMessage) string { return pathOf(input) }

// Run writes the file.
func (t WriteFile) Run(_ context.Context, input json.RawMessage) (json.RawMessage, error) {
	var in struct {
		Path    string  `json:"path"`
		Content *string `json:"content"`
	}
	if err := hook.DecodeToolInput(input, &in); err != nil {
		return nil, fmt.Errorf("bad input: %v", err)
	}
	if in.Content == nil {
		return nil, errors.New("no content")
	}
	p, err := t.W.Resolve(in.Path)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(p, []byte(*in.Content), 0o644); err != nil {
		return nil, err
	}
	return json.Marshal(fmt.Sprintf("wrote %d bytes to %s", len(*in.Content), in.Path))
}

// EditFile replaces text in a file of the workspace (Claude Code's Edit). Input: {"path",
// "old_string", "new_string", "replace_all"}. old_string must occur exactly once unless
// replace_all is set.
type EditFile struct{ W Workspace }

// Name returns "EditFile".
func (EditFile) Name() string { return "EditFile" }

// Description describes the tool to the model.
func (EditFile) Description() string {
	return "Replace old_string by new_string in a file of the workspace; old_string must be unique unless replace_all."
}

// Schema returns the input schema.
func (EditFile) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"old_string":{"type":"string"},"new_string":{"type":"string"},"replace_all":{"type":"boolean"}},"required":["path","old_string","new_string"]}`)
}

// NeedsApproval returns true.
func (EditFile) NeedsApproval(json.RawMessage) bool { return true }

// ChangedFile returns the input's path.
func (EditFile) ChangedFile(input json.RawMessage) string { return pathOf(input) }

// Run edits the file.
func (t EditFile) Run(_ context.Context, input json.RawMessage) (json.RawMessage, error) {
	var in struct {
		Path       string `json:"path"`
		Old        string `json:"old_string"`
		New        string `json:"new_string"`
		ReplaceAll bool   `json:"replace_all"`
	}
	if err := hook.DecodeToolInput(input, &in); err != nil {
		return nil, fmt.Errorf("bad input: %v", err)
	}
	if in.Old == "" {
		return nil, errors.New("empty old_string")
	}
	p, err := t.W.Resolve(in.Path)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	s := string(data)
	n := strings.Count(s, in.Old)
	switch {
	case n == 0:
		return nil, fmt.Errorf("old_string not found in %s", in.Path)
	case n > 1 && !in.ReplaceAll:
		return nil, fmt.Errorf("old_string occurs %d times in %s; make it unique or set replace_all", n, in.Path)
	}
	if in.ReplaceAll {
		s = strings.ReplaceAll(s, in.Old, in.New)
	} else {
		s = strings.Replace(s, in.Old, in.New, 1)
	}
	info, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(p, []byte(s), info.Mode().Perm()); err != nil {
		return nil, err
	}
	return json.Marshal(fmt.Sprintf("replaced %d occurrence(s) in %s", map[bool]int{true: n, false: 1}[in.ReplaceAll], in.Path))
}
