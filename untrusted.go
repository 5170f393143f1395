package hookcore

import (
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/trust"
)

// UntrustedErrorsOnly reports whether every error in problems (warnings aside) lies in a
// project or local layer file of set, and store does not trust workspace with set's
// digest. Such errors may be ignored: those layers would not run anyway, and otherwise a
// repository could switch off the user's own hooks by shipping a broken config. Load
// applies this rule; `hookcore fire` and `replay` do too (but not with --trust, which
// trusts the workspace first). A nil store, or no error, reports false.
func UntrustedErrorsOnly(set *config.Set, problems config.ErrorList, store *trust.Store, workspace string) bool {
	if store == nil || set == nil || problems.Err() == nil {
		return false
	}
	layer := map[string]config.Layer{}
	for _, f := range set.Files {
		layer[f.Path] = f.Layer
	}
	for _, p := range problems {
		if p.Warning {
			continue
		}
		if l, ok := layer[p.Pos.File]; !ok || (l != config.Project && l != config.Local) {
			return false
		}
	}
	trusted, _ := TrustedSet(store, workspace, set)
	return !trusted
}

// FatalProblems returns the errors in problems that stop set from running: those of a file
// that could not be loaded as a whole (config.File.Failed: unreadable, not a regular file,
// too large, a syntax error) in a layer that runs — any layer but the project and local
// layers of a workspace that store does not trust (see UntrustedErrorsOnly). The error of a
// single hook entry is never fatal: that hook is skipped (config.File.Broken) and the
// file's other hooks run (issue 8.2). Nor is the failure of a discovered Gemini CLI
// extension's hooks file (config.File.Extension, a layer other than Explicit): Gemini CLI
// warns and runs the other hooks (BrokenExtension; docs/decisions.md, "Broken files: what
// each command does (stop 31)"). A problem whose file is not in set counts as fatal.
// Load and `hookcore fire` apply this rule.
func FatalProblems(set *config.Set, problems config.ErrorList, store *trust.Store, workspace string) config.ErrorList {
	if problems.Err() == nil {
		return nil
	}
	files := map[string]*config.File{}
	project := false
	for _, f := range set.Files {
		files[f.Path] = f
		project = project || f.Layer == config.Project || f.Layer == config.Local
	}
	untrusted := false
	if store != nil && project {
		ok, _ := TrustedSet(store, workspace, set)
		untrusted = !ok
	}
	var out config.ErrorList
	for _, p := range problems {
		if p.Warning {
			continue
		}
		f, ok := files[p.Pos.File]
		switch {
		case !ok:
			out = append(out, p)
		case !f.Failed, BrokenExtension(f):
		case untrusted && (f.Layer == config.Project || f.Layer == config.Local):
		default:
			out = append(out, p)
		}
	}
	return out
}

// BrokenExtension reports whether f is a discovered Gemini CLI extension's hooks file that
// could not be loaded as a whole (a JSON syntax error, unreadable, over a cap). Such a file
// is skipped with a warning and the other files run, as Gemini CLI 0.61.0 skips it ("Failed
// to load extension hooks from ...", docs/decisions.md "Gemini CLI extensions' hooks (stop
// 31)"): under its own agent its hooks never run, so no guard of it is lost by skipping it.
// A file named on the command line (the Explicit layer) is not: it is being written.
func BrokenExtension(f *config.File) bool {
	return f.Failed && ExtensionFile(f)
}

// ExtensionFile reports whether f is a discovered Gemini CLI extension's hooks file
// (config.File.Extension, a layer other than Explicit): third-party code the user installed
// for Gemini CLI, whose problems Gemini CLI skips with a warning. A broken file is skipped
// whole (BrokenExtension); a broken hook entry in it (an unknown type or event, a command
// hook without a command, a wrong-typed field) is skipped with a warning and the file's
// other hooks run, without the hook command failing closed on gate events, since Gemini CLI
// 0.61.0 discards such an entry and registers the others (HookRegistry.processHookDefinition,
// validateHookConfig; docs/decisions.md, "Small fixes (stop 32)"). A file named on the command
// line is not: it is being written.
func ExtensionFile(f *config.File) bool {
	return f.Extension != "" && f.Layer != config.Explicit
}
