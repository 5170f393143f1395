package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/internal/text"
	"github.com/hookcore/hookcore/trust"
)

// envVerdict is what the user's trust grants make of the variables a project env file
// gives every hook that hookcore refuses (config.GuardEnv; config.NetworkEnv where a hook
// goes on the network): stop 29, "A trusted workspace's project env".
type envVerdict struct {
	// kept are the variables no grant accepts, each "NAME (why)" (config.GrantKeeps,
	// config.EnvNamesPathIn, a value the project's files do not give).
	kept []string
	// accepted: none is kept, and a trust grant of the directory holding the file, which
	// holds for that workspace's config as it is now, bound the file's env as it is now.
	accepted bool
	// stale: that directory has a grant that accepted the file's env, and does not accept
	// it as it is now (its env changed since, or the grant no longer holds for the
	// project config).
	stale bool
}

// judgeEnv judges the variables refused (names of pe's, which hookcore refuses) of the
// project env file pe. given is the value a variable has in this process (nil: not under
// an agent, as in check); pool, when not nil, the values the project's env files give
// each variable (Claude Code's settings: a value in this process that none of them gives
// is not the one reviewed). dirs are the workspace's directories, for
// config.EnvNamesPathIn. l, when not nil, is the loaded config, whose grant state spares
// loading the workspace's config again when the file is the workspace's own.
func (e *env) judgeEnv(l *loaded, pe config.ProjectEnv, refused []string, given func(string) (string, bool), pool map[string][]string, dirs []string) envVerdict {
	var v envVerdict
	for _, n := range refused {
		name := envName(n)
		if why := config.GrantKeeps(n); why != "" {
			v.kept = append(v.kept, name+" ("+why+")")
			continue
		}
		var values []string
		if fv, ok := pe.Value(n); ok {
			values = append(values, fv)
		}
		if given != nil {
			if pv, ok := given(n); ok {
				if pool != nil && !slices.Contains(pool[n], pv) {
					v.kept = append(v.kept, name+" (its value here is not the one the project's settings give)")
					continue
				}
				values = append(values, pv)
			}
		}
		for _, val := range values {
			if config.EnvNamesPathIn(n, val, dirs) {
				v.kept = append(v.kept, name+" (its value names a path inside the workspace, which the agent can write)")
				break
			}
		}
	}
	if len(v.kept) > 0 || e.home == "" {
		return v
	}
	holder := config.EnvHolder(pe.Path)
	store := trust.DefaultStore(e.home)
	if l != nil && l.store != nil {
		store = l.store // the load's, pinned: its read
	}
	entry, ok, err := store.Lookup(holder)
	if err != nil || !ok {
		return v
	}
	if _, bound := entry.Env[config.EnvKey(pe.Path)]; !hookcore.EnvAccepted(entry, pe) {
		v.stale = bound // a grant accepted another env of the file
		return v
	}
	// The grant must hold for the workspace's config as it is: known from loading it when
	// the file is the workspace's own, else loaded again.
	v.accepted = l != nil && l.granted && sameDir(holder, l.projectDir) || e.trustHolds(holder)
	v.stale = !v.accepted
	return v
}

// grantAdvice is what a refusal of the variables of the project env file at path says
// about trust grants, after the rest of the message: which variables no grant accepts, or
// that the grant of the directory holding the file is out of date, or how a user who
// trusts the repository accepts them.
func (e *env) grantAdvice(v envVerdict, path string) string {
	if len(v.kept) > 0 {
		return "; a trust grant does not accept " + strings.Join(v.kept, ", ")
	}
	w := ""
	if holder := config.EnvHolder(path); !sameDir(holder, e.projectRoot()) {
		w = " -w " + text.Printable(relativize(holder, e.cwd))
	}
	if v.stale {
		return fmt.Sprintf("; the trust grant of its workspace does not accept it as it is now (its env, or the project config, changed since the grant): review the change with `hookcore trust show%s`, and run `hookcore trust grant%s` again if you trust it", w, w)
	}
	return fmt.Sprintf(", or, if you trust this repository, review its env with `hookcore trust show%s` and accept it with `hookcore trust grant%s`", w, w)
}

// sameDir reports whether a and b are the same directory, their links resolved.
func sameDir(a, b string) bool {
	ca, errA := trust.Canonical(a)
	cb, errB := trust.Canonical(b)
	return errA == nil && errB == nil && ca == cb
}

// workspaceDirs are the directories whose files the agent can write, for
// config.EnvNamesPathIn: the workspace root, the working directory, the directory holding
// the env file, and Claude Code's project directory.
func (e *env) workspaceDirs(root, path string) []string {
	dirs := []string{root, e.cwd, config.EnvHolder(path)}
	if d := os.Getenv("CLAUDE_PROJECT_DIR"); d != "" && filepath.IsAbs(d) {
		dirs = append(dirs, d)
	}
	return dirs
}

// workspaceConfig loads what a trust grant of workspace ws binds (its layers as discovered
// with the config directory dir, and the project's .mcp.json) and returns it with its load
// problems, sorted. The skills' and sub-agents' hooks are granted too
// (hookcore run runs them); they are not part of the config digest, so fire and hook, which
// leave them out, see the same trust.
func (e *env) workspaceConfig(ws, dir string, system systemFlags) (*config.Set, config.ErrorList, error) {
	paths, err := system.apply(config.Discovery{Cwd: ws, Home: e.home, Dir: dir, ProjectRoot: ws}).Paths()
	if err != nil {
		return nil, nil, err
	}
	paths = append(paths, config.FrontmatterPaths(ws, e.home)...)
	set, problems := config.Load(paths)
	set.MCP = config.MCPSources(ws, e.home, nil) // the project's .mcp.json is in the digest
	problems.Sort()
	return set, problems, nil
}

// trustHolds reports whether workspace ws has a trust grant that matches its config as it
// is now (default config directory and managed settings).
func (e *env) trustHolds(ws string) bool {
	if e.home == "" {
		return false
	}
	entry, ok, err := trust.DefaultStore(e.home).Lookup(ws)
	if err != nil || !ok {
		return false
	}
	set, _, err := e.workspaceConfig(ws, ".hookcore", systemFlags{})
	return err == nil && entry.Digest == hookcore.TrustDigestOf(entry, set)
}
