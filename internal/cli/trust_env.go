//go:build !hookcore_lean

package cli

import (
	"fmt"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/internal/text"
	"github.com/hookcore/hookcore/trust"
)

// envTrust is one project env file of a workspace as trust show lists it: the variables an
// agent gives every hook from it, and whether the workspace's grant accepts those that
// hookcore refuses (stop 29).
type envTrust struct {
	File  string `json:"file"`
	Agent string `json:"agent"` // "Claude Code" or "Gemini CLI"
	// State is "accepted" (the grant holds and bound the file as it is), "changed" (the
	// grant accepted another env of the file, or no longer holds), "not accepted", or
	// "refused" (a variable no grant accepts); "" when no variable of the file needs a
	// grant.
	State     string        `json:"state,omitempty"`
	Variables []envVarTrust `json:"variables"`
}

// envVarTrust is one variable of an envTrust. Value is shown for the variables hookcore
// refuses only (a .env holds secrets, and the others need no review).
type envVarTrust struct {
	Name  string  `json:"name"`
	Value *string `json:"value,omitempty"`
	// Refused is "until granted" (config.GuardEnv), "network, until granted"
	// (config.NetworkEnv: refused while a hook of the user's goes on the network), or
	// "always: WHY" (config.GrantKeeps, config.EnvNamesPathIn); "" when hookcore gives it
	// to the guards whatever the trust.
	Refused string `json:"refused,omitempty"`
}

// projectEnvs reads the project env files the workspace ws holds (config.ProjectEnvPaths),
// those that give a variable; problems say which cannot be read (under an agent, hookcore
// blocks tool calls while it cannot read one). The user's own ~/.env and ~/.gemini/.env
// are no project's.
func (e *env) projectEnvs(ws string) (envs []config.ProjectEnv, problems []string) {
	for _, p := range config.ProjectEnvPaths(ws) {
		if !config.IsClaudeSettings(p) && e.home != "" && sameDir(config.EnvHolder(p), e.home) {
			continue // ~/.env or ~/.gemini/.env (geminiEnvFiles)
		}
		pe, err := config.ReadProjectEnv(p, 16<<20)
		switch {
		case noFile(err):
			continue
		case err != nil:
			problems = append(problems, fmt.Sprintf("%s cannot be read for its env (%v)", text.Printable(relativize(p, e.cwd)), err))
		case len(pe.Vars) > 0:
			envs = append(envs, pe)
		}
	}
	return envs, problems
}

// envTrusts lists envs for trust show, with the state of each under the grant entry (ok:
// there is one; holds: it holds for the workspace's config as it is).
func (e *env) envTrusts(ws string, envs []config.ProjectEnv, entry trust.Entry, ok, holds bool) []envTrust {
	out := []envTrust{}
	dirs := []string{ws, e.cwd}
	for _, pe := range envs {
		et := envTrust{File: relativize(pe.Path, e.cwd), Agent: "Gemini CLI", Variables: []envVarTrust{}}
		if config.IsClaudeSettings(pe.Path) {
			et.Agent = "Claude Code"
		}
		grantable, kept := false, false
		for _, v := range pe.Vars {
			vt := envVarTrust{Name: v.Name}
			guard, net := config.EnvMayRefuse(v.Name), config.NetworkEnv(v.Name)
			if v.Valued {
				guard = config.GuardEnv(v.Name, v.Value)
			}
			if guard || net {
				if v.Valued {
					vt.Value = &v.Value
				}
				switch why := config.GrantKeeps(v.Name); {
				case why != "":
					vt.Refused, kept = "always: "+why, true
				case v.Valued && config.EnvNamesPathIn(v.Name, v.Value, dirs):
					vt.Refused, kept = "always: it names a path inside the workspace, which the agent can write", true
				case guard:
					vt.Refused, grantable = "until granted", true
				default:
					vt.Refused, grantable = "network, until granted", true
				}
			}
			et.Variables = append(et.Variables, vt)
		}
		if grantable || kept {
			_, bound := entry.Env[config.EnvKey(pe.Path)]
			switch {
			case kept:
				et.State = "refused"
			case ok && holds && hookcore.EnvAccepted(entry, pe):
				et.State = "accepted"
			case ok && bound:
				et.State = "changed"
			default:
				et.State = "not accepted"
			}
		}
		out = append(out, et)
	}
	return out
}

// printEnvTrust prints envTrusts: each file with what its agent does with it and its
// state, then each variable, those hookcore refuses with their value and why.
func (e *env) printEnvTrust(ets []envTrust) {
	for _, et := range ets {
		state := ""
		switch et.State {
		case "accepted":
			state = "; accepted by the grant"
		case "changed":
			state = "; changed since the grant accepted it: `hookcore trust grant` accepts it as it is now"
		case "refused":
			state = `; hookcore refuses them, granted or not, while they hold one marked "even by a grant"`
		case "not accepted":
			state = "; hookcore refuses some of them until `hookcore trust grant` accepts them"
		}
		how := "gives every hook these variables"
		if et.Agent == "Gemini CLI" {
			how = "gives every hook those of these variables it does not have already"
		}
		fmt.Fprintf(e.stdout, "  env      %s: %s %s%s\n", text.Printable(et.File), et.Agent, how, state)
		for _, v := range et.Variables {
			line := envName(v.Name)
			if v.Value != nil {
				line += "=" + reviewLine(*v.Value)
			}
			switch {
			case v.Refused == "until granted":
				line += "  (a guard's tools may read it: refused unless a grant accepts it)"
			case v.Refused == "network, until granted":
				line += "  (redirects hookcore's network clients: refused where a hook of yours goes on the network, unless a grant accepts it)"
			case v.Refused != "":
				line += "  (refused, even by a grant: " + v.Refused[len("always: "):] + ")"
			}
			fmt.Fprintf(e.stdout, "           %s\n", line)
		}
	}
}

// printEnvProblems says which project env files could not be read, on stderr.
func (e *env) printEnvProblems(problems []string) {
	for _, p := range problems {
		fmt.Fprintf(e.stderr, "hookcore: %s: under an agent, hookcore blocks tool calls while it cannot check it\n", p)
	}
}
