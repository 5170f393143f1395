//go:build !hookcore_lean

package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/hookcore/hookcore/config"
)

// geminiTwice warns when both the user's and the project's Gemini CLI settings run hookcore's
// hook command: Gemini CLI merges the hooks of both files and runs every entry, so hookcore's
// hooks would run twice per event (new-user trial, stop 30: `install gemini` and then
// `install gemini --scope user` left both, and neither install nor check said so). The
// warning is on the project file's first such entry and names the user's file. Claude Code
// runs identical hook commands of several settings files once (research notes, "5.2
// Deduplication"), and install writes the same command into each, so its files draw no
// such warning.
func (e *env) geminiTwice(files []*config.File) config.ErrorList {
	var user, project *config.File
	for _, f := range files {
		if f.Dialect != config.Gemini || selfEntries(f) == 0 {
			continue
		}
		switch f.Layer {
		case config.User:
			user = f
		case config.Project:
			project = f
		}
	}
	if user == nil || project == nil || sameFile(user.Path, project.Path) {
		return nil
	}
	var at config.Pos
	for i := range project.Hooks {
		if callsHookcore(project.Hooks[i].Action) {
			at = project.Hooks[i].Pos
			break
		}
	}
	return config.ErrorList{{Pos: at, Warning: true, Msg: e.geminiTwiceMsg(user.Path, "user")}}
}

// geminiTwiceMsg is geminiTwice's warning: other, the Gemini CLI settings file of the other
// scope (otherScope), runs hookcore too.
func (e *env) geminiTwiceMsg(other, otherScope string) string {
	return fmt.Sprintf("%s runs hookcore's hook command too: Gemini CLI merges the user's and the project's settings and runs the entries of both, so hookcore's hooks run twice per event (a once hook, a Stop block, a PostToolUse hook with side effects); keep one: `hookcore uninstall gemini --scope %s` removes that file's", e.shownPath(other), otherScope)
}

// geminiOtherScope is what install gemini warns after writing the file of one scope: the
// other scope's file runs hookcore too (see geminiTwice); "" when it does not, or is the
// same file.
func (e *env) geminiOtherScope(written string, project bool, projectDir string) string {
	other, scope, layer := filepath.Join(e.home, ".gemini", "settings.json"), "user", config.User
	if !project {
		if projectDir == "" {
			return ""
		}
		other, scope, layer = filepath.Join(projectDir, ".gemini", "settings.json"), "project", config.Project
	}
	if e.home == "" || sameFile(written, other) {
		return ""
	}
	if _, err := os.Stat(other); err != nil {
		return ""
	}
	f, _ := config.ParseFile(other, layer)
	if f == nil || f.Failed || selfEntries(f) == 0 {
		return ""
	}
	return "hookcore: warning: " + e.geminiTwiceMsg(other, scope)
}

// sameFile reports whether a and b are one file (os.SameFile); false when either is missing.
func sameFile(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}
