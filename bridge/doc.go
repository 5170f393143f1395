// Package bridge speaks the hook protocols of the coding agents hookcore sits under: it reads
// an agent's hook input (JSON on stdin), normalises it to a hook.Input and a hook.Event, and
// writes a hook.Result back in that agent's own output protocol (stdout JSON, stderr text and
// an exit status). `hookcore hook AGENT` and `hookcore serve` are built on it.
//
// One file per agent: claude.go (Claude Code), codex.go (OpenAI Codex CLI), gemini.go
// (Gemini CLI), cursor.go (Cursor), copilot.go (GitHub Copilot CLI). Each Protocol's doc
// names the source of its mapping: the real CLI as observed through ../shared/peer-* (Claude
// Code 2.1.332, Codex 0.171.0, Gemini CLI 0.61.0), or the agent's documentation.
//
// The package depends on hook only: it knows no Runner and no config.
package bridge
