package config

import "path/filepath"

// KillScope is the agent whose hooks a file's kill switch (disable_all_hooks,
// disableAllHooks) turns off, by where the file is: "" for every hook hookcore runs — its
// own files, a file named on the command line, Claude Code's settings (whose switch Claude
// Code applies to every hook it runs, hookcore's command included) and managed files —
// else the file's own agent ("minicode", "codebot", "gemini", "codex", "cursor",
// "copilot"), a plugin ("plugin NAME@MARKETPLACE") or the file itself for a skill's or
// sub-agent's ("file PATH"), whose switch stops those hooks only. A `{"disableAllHooks": true}` written into
// ~/.cursor/hooks.json switched off the user's own ~/.hookcore guards (new-user trial, stop
// 24), and Cursor has no such key.
func KillScope(f *File) string {
	switch {
	case f.Layer == Managed || f.Layer == Explicit || IsClaudeSettings(f.Path):
		return ""
	case f.Plugin != "":
		// A plugin's hooks file: a switch there is the plugin's (red team round 23: a
		// plugin's hooks.json with disableAllHooks turned every guard off).
		return "plugin " + f.Plugin
	case f.Skill != "" || f.Agent != "":
		return "file " + f.Path
	}
	dir := filepath.Base(filepath.Dir(f.Path))
	if dir == "hooks" {
		dir = filepath.Base(filepath.Dir(filepath.Dir(f.Path))) // .github/hooks, .copilot/hooks
	}
	switch dir {
	case ".minicode":
		return "minicode"
	case ".codebot":
		return "codebot"
	case ".gemini":
		return "gemini"
	case ".codex":
		return "codex"
	case ".cursor":
		return "cursor"
	case ".github", ".copilot":
		return "copilot"
	}
	return ""
}
