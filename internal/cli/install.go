//go:build !hookcore_lean

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/internal/install"
	"github.com/hookcore/hookcore/internal/text"
)

type installFlags struct {
	scope   string
	server  string
	forward bool
	command string
	dryRun  bool
}

func (f *installFlags) register(cmd *cobra.Command, server bool) {
	cmd.Flags().StringVar(&f.scope, "scope", "", "settings file to change: user or project, or local (Claude Code only); default project (codex: user)")
	if server {
		cmd.Flags().StringVar(&f.server, "server", "", "have the agent call a hookcore serve at this `URL` (Claude Code: type: http hooks)")
		cmd.Flags().BoolVar(&f.forward, "forward", false, "with --server, give Claude Code the command hook `hookcore hook claude --server URL`, which blocks when serve is unreachable, instead of type: http hooks, which let every action through then")
	}
	cmd.Flags().StringVar(&f.command, "command", "", "the `PROGRAM` the agent runs as its hook command, written as an absolute path (a name is looked up on PATH now; default: this hookcore, or the lean hookcore-hook beside it)")
	cmd.Flags().BoolVar(&f.dryRun, "dry-run", false, "print the change as a diff and write nothing")
}

func installCmd(e *env) *cobra.Command {
	var f installFlags
	cmd := &cobra.Command{
		Use:   "install AGENT",
		Short: "Write hookcore's hook entries into an agent's own settings file",
		Long: `install adds "hookcore hook AGENT" (AGENT: ` + strings.Join(install.Agents(), ", ") + `) to the agent's
settings file for every event hookcore handles: .claude/settings.json (local:
.claude/settings.local.json), ~/.codex/hooks.json, .gemini/settings.json, .cursor/hooks.json,
.github/hooks/hookcore.json; with --scope user, the same under your home directory. The
hook program is written as its absolute path (/home/you/go/bin/hookcore-hook hook claude):
the agent's shell would look a bare name up on the PATH of the hook's environment, which a
project's settings can set (Claude Code's env), and run the repository's program instead.
Claude Code's entries are in exec form ("command": "/…/hookcore-hook", "args": ["hook",
"claude"]), which it runs with no shell, so that a project's env can neither wrap them
(CLAUDE_CODE_SHELL_PREFIX) nor load code into a shell before hookcore (LD_PRELOAD). The
file is merged, never replaced: every other key and hook stays. Installing twice is
installing once. The old file is kept as FILE.hookcore-TIMESTAMP.bak (a file inside the
project in ~/.local/state/hookcore/backups, out of the repository) and the new one is
written atomically; a settings file that is a symbolic link stays one (the file it points
to is written; for the project and local scopes, only inside the project). A
hookcore hook entry you wrote with nothing of your own in it (another spelling or path of
the program, shell form) is replaced with install's, also out of a group with a narrower
matcher (its other hooks stay); an event with one that has something of yours (a flag, a
timeout, a relative path) is left as it is, with a warning when its matcher leaves tools
out. Uninstall removes only the entries install writes. --server takes an http:// or https:// URL (a host other than loopback gets
a warning); Claude Code then gets type: http hooks, which it lets every action through
with while serve is down, or with --forward command hooks that forward to serve and block
when it is unreachable. --dry-run prints the diff instead.`,
		Example: "  hookcore install claude --dry-run\n  hookcore install claude --scope user --server http://127.0.0.1:7878 --forward",
		Args:    cobra.ExactArgs(1),
		RunE:    func(cmd *cobra.Command, args []string) error { return e.install(args[0], &f, true) },
	}
	f.register(cmd, true)
	return cmd
}

func uninstallCmd(e *env) *cobra.Command {
	var f installFlags
	cmd := &cobra.Command{
		Use:   "uninstall AGENT",
		Short: "Remove hookcore's hook entries (and only those) from an agent's settings file",
		Args:  cobra.ExactArgs(1),
		RunE:  func(cmd *cobra.Command, args []string) error { return e.install(args[0], &f, false) },
	}
	f.register(cmd, false)
	return cmd
}

func (e *env) install(agent string, f *installFlags, add bool) (err error) {
	if f.forward && f.server == "" {
		return &exitError{code: ExitFailure, msg: "--forward needs --server URL: it makes Claude Code's hooks forward to that hookcore serve"}
	}
	if f.server != "" {
		loopback, err := install.CheckServer(f.server)
		if err != nil {
			return &exitError{code: ExitFailure, msg: err.Error()}
		}
		if !loopback {
			// Not an error: a serve on another host is possible, but only when asked for.
			fmt.Fprintf(e.stderr, "hookcore: warning: --server %s is not a loopback address (127.0.0.0/8, ::1, localhost): hookcore serve listens on loopback by default; a serve on another host must run with --allow-remote, and every request to it needs that serve's token (hookcore hook sends only --token to another host: the serve.token of its own state directory goes to a loopback --server alone; the http hooks install writes for Claude Code send none)\n", f.server)
		}
		if agent == "claude" && add && !f.forward {
			// Claude Code lets an action through when an http hook's server is down (README,
			// serve): said at install, not found out when a guard lets rm -rf through
			// (new-user trial, stop 33); --forward writes the command form (stop 34).
			fmt.Fprintf(e.stderr, "hookcore: warning: --server writes type: http hooks for Claude Code's PreToolUse and its other gate events, and Claude Code lets the action through when an http hook's server is down or does not answer: while hookcore serve is not running, your guards block nothing. The command hook `hookcore hook claude --server %s` blocks when serve is unreachable: add --forward to install it instead\n", install.ShellQuote(f.server))
		}
	}
	o := install.Options{
		Agent: agent, Scope: install.Scope(f.scope), Server: f.server, Forward: f.forward, Command: f.command,
		Home: e.home, ProjectDir: rootOf(e.cwd),
	}
	if agent == "claude" && add {
		if v, ok := claudeVersion(); ok && olderThan(v, skillShellSince) {
			// Claude Code 2.1.88 ran none of the file's hooks, every guard of hookcore's
			// included, because one entry named an event it did not know (observed, stop 29).
			o.Omit = []string{"PreSkillShellCommand"}
			fmt.Fprintf(e.stderr, "hookcore: warning: Claude Code %s on PATH is older than %s: it runs none of a settings file's hooks when one names an event it does not know, so install leaves out PreSkillShellCommand (a skill's !`cmd` lines then run past your Bash guards); update Claude Code and run install again\n", text.Printable(v), skillShellSince)
		}
	}
	// The lean hook binary beside hookcore (the fast cold start) where it can answer alone:
	// with --server the full binary forwards. Claude Code with --server still runs the
	// command on SessionStart, where it takes no http hook.
	prog, err := hookProgram(f.command, e.cwd, f.server == "")
	switch {
	case err == nil:
		o.Command = prog
	case add:
		return &exitError{code: ExitFailure, msg: err.Error()}
	case f.command == "":
		// uninstall recognises install's entries by the program's name: any hookcore will do
		o.Command = "hookcore"
	}
	plan := install.Install
	if !add {
		plan = install.Uninstall
	}
	p, err := plan(o)
	if err != nil {
		return &exitError{code: ExitFailure, msg: err.Error()}
	}
	if p.Changed && !f.dryRun && p.ReadOnly() {
		// Refused, not rewritten unasked (new-user trial, stop 30). No --force: making the
		// file writable is one command, and says that the user changed their mind.
		file := p.Path
		if p.Target != "" {
			file = p.Target
		}
		return &exitError{code: ExitFailure, msg: fmt.Sprintf("%s is read-only (mode %04o): hookcore changed nothing. To let %s change it, make it writable (chmod u+w %s) and run it again; or make the change yourself: --dry-run prints it",
			e.shownPath(file), uint32(p.Perm()), cmdName(add), shellWord(e.shownPath(file)))}
	}
	if add && agent == "gemini" {
		if warn := e.geminiOtherScope(p.Path, p.Project, o.ProjectDir); warn != "" {
			defer func() {
				if err == nil {
					fmt.Fprintln(e.stderr, warn)
				}
			}()
		}
	}
	if add {
		files, target := e.installedFiles(agent, p, o.ProjectDir)
		if note := e.agentOffNote(files, target); note != "" {
			defer func() {
				if err == nil {
					fmt.Fprintln(e.stdout, note)
				}
			}()
		}
		if target != nil {
			// Red team round 59: a repository's own hookcore entry that fails open was kept,
			// credited to the user, and nothing warned.
			for _, q := range failOpen(target) {
				fmt.Fprintf(e.stderr, "hookcore: %s\n", relativize(q.Error(), e.cwd))
			}
		}
	}
	for _, ev := range p.Kept {
		// Red team 11: install rewrote a hookcore entry the user wrote (its flags and timeout
		// lost), and uninstall removed it.
		what := "install adds no second hookcore entry there"
		if !add {
			what = "uninstall removes only the entries install writes"
		}
		if p.Project {
			// A project's file comes with the repository: the entry need not be the user's
			// (red team round 59: a repository's fail-open entry was "one you wrote").
			fmt.Fprintf(e.stdout, "hooks.%s: a hookcore hook entry already in %s, not one install writes: left as it is (%s)\n", ev, e.shownPath(p.Path), what)
			continue
		}
		fmt.Fprintf(e.stdout, "%s: hooks.%s has a hookcore hook entry you wrote: left as it is (%s)\n", e.shownPath(p.Path), ev, what)
	}
	for _, ev := range p.Narrow {
		// New-user trial, stop 30: a hand-written entry under matcher Bash left Write and
		// Edit unguarded, and nothing said so.
		yours, it := "the hookcore entry you wrote", "your entry"
		if p.Project {
			yours, it = "the hookcore entry already there", "that entry" // not the user's, perhaps
		}
		fmt.Fprintf(e.stderr, "hookcore: warning: %s: hooks.%s: %s runs only for the tools that matcher names: no other tool call (Write, Edit, ...) reaches hookcore, so none of their guards run; set that group's matcher to \"*\", or take %s out and run install again (it writes one for every tool)\n", e.shownPath(p.Path), ev, yours, it)
	}
	if len(p.ReplacedHand) > 0 {
		// New-user trial, stop 30: `hookcore-hook claude` under matcher Bash was "left as
		// it is", and the advice to run install again changed nothing.
		fmt.Fprintf(e.stdout, "%s: replaced the hookcore entry you wrote in %s with the one install writes (uninstall removes it; the backup below holds yours)\n", e.shownPath(p.Path), strings.Join(p.ReplacedHand, ", "))
		for _, ev := range p.Widened {
			fmt.Fprintf(e.stdout, "%s: hooks.%s: yours ran only for the tools that matcher names, so no other tool call (Write, Edit, ...) reached hookcore and none of their guards ran; install's runs for every tool (the group keeps its other hooks)\n", e.shownPath(p.Path), ev)
		}
	}
	if len(p.Replaced) > 0 {
		// New-user trial, stop 28: a hand-written `hookcore hook claude` became
		// `hookcore-hook hook claude` without a word (and uninstall then removed it).
		fmt.Fprintf(e.stdout, "%s: replaced the hookcore entry of %s with the one install writes now (uninstall removes it too)\n", e.shownPath(p.Path), strings.Join(p.Replaced, ", "))
	}
	if len(p.ReplacedBare) > 0 {
		// Red team round 45: the agent's shell looked the bare name up on a PATH the
		// project's settings set, and ran the repository's hookcore-hook.
		fmt.Fprintf(e.stdout, "%s: the entries replaced ran hookcore by a bare name, which the agent's shell looks up on the PATH of the hook's environment (a project's settings can set it); they now name %s\n", e.shownPath(p.Path), text.Printable(o.Command))
	}
	if len(p.ReplacedShell) > 0 {
		// Red team round 45: a project's env set CLAUDE_CODE_SHELL_PREFIX, Claude Code ran
		// every shell-form hook command through the repository's program, which swallowed
		// hookcore's, and rm -rf ran; its LD_PRELOAD ran the repository's code in the shell.
		fmt.Fprintf(e.stdout, "%s: the entries replaced were command lines Claude Code runs with sh -c, which a project's settings env can wrap in its own program (CLAUDE_CODE_SHELL_PREFIX) or load its own code into (LD_PRELOAD) before hookcore starts; they now run %s with no shell (exec form: \"args\")\n", e.shownPath(p.Path), text.Printable(o.Command))
	}
	abs, _ := filepath.Abs(p.Path)
	created := e.home != "" && add && p.Old == nil
	restore := restoreSet{}
	rec := createdSet{}
	if e.home != "" {
		restore = restoreRecord(e.home)
		rec = createdFiles(e.home)
	}
	// own: the record that install created the file is of this very file, the bytes install
	// last wrote, unchanged since (red team round 65: install created the file, the user
	// removed it and committed one of their own, install and uninstall then deleted theirs).
	// A record of another file is stale: it goes, with those of the directories it names.
	own := rec.holds(abs, p.Old)
	if _, had := rec[abs]; had && !own && !f.dryRun {
		rec.forget(abs)
		if err := rec.save(e.home); err != nil {
			fmt.Fprintf(e.stderr, "hookcore: warning: cannot update the record of the settings files install created (%v)\n", err)
		}
	}
	switch {
	case e.home == "" || add:
	case p.Changed && p.Leftover() && own:
		// Nothing is left but what install wrote into the file it created: the file goes,
		// as it was before install (new-user trials, stop 26: a `{}` stayed behind, a new
		// file of the repository that made a trust grant stale). A file the user had, even
		// an empty one, is given back as it was.
		p.Delete = true
	default:
		if found, ok := restore.given(abs, p.Old); ok {
			// The file is what install wrote, nothing else changed it since: it gets back the
			// bytes install found (new-user trial, stop 29: an empty file came back "{}").
			p.New, p.Changed = found, !bytes.Equal(found, p.Old)
		}
	}
	if !p.Changed {
		if add {
			fmt.Fprintf(e.stdout, "%s: already up to date\n", e.shownPath(p.Path))
		} else {
			// Said as it is (new-user trial, stop 27: "already up to date" after uninstall;
			// stop 30: a file that is not there).
			if p.Old == nil {
				fmt.Fprintf(e.stdout, "%s does not exist: there is no hookcore entry to remove\n", e.shownPath(p.Path))
			} else {
				fmt.Fprintf(e.stdout, "%s: no hookcore entry to remove\n", e.shownPath(p.Path))
			}
		}
		return nil
	}
	if f.dryRun && p.Delete {
		fmt.Fprintf(e.stdout, "%s: would be removed (install created it, and nothing else is left in it)\n", e.shownPath(p.Path))
		return nil
	}
	if f.dryRun {
		// A patch `git apply -p0` takes: paths relative to the directory it applies in,
		// which a first line names (git apply and patch skip text before the diff). From a
		// subdirectory, or for the user scope, the paths were absolute or above the
		// working directory, which git apply refuses or skips (new-user trial, stop 28).
		rel, err := filepath.Rel(p.Base, p.Path)
		if err != nil || strings.HasPrefix(rel, "..") {
			rel = p.Path
		}
		cmd := "uninstall " + o.Agent
		if add {
			cmd = "install " + o.Agent
		}
		if o.Scope != "" {
			cmd += " --scope " + string(o.Scope)
		}
		if f.server != "" { // the command that writes this diff (new-user trial, stop 30)
			cmd += " --server " + install.ShellQuote(f.server)
		}
		if f.forward {
			cmd += " --forward"
		}
		if f.command != "" {
			cmd += " --command " + install.ShellQuote(f.command)
		}
		fmt.Fprintf(e.stdout, "# hookcore %s --dry-run: apply with `git apply -p0` in %s\n", cmd, text.Printable(p.Base))
		fmt.Fprint(e.stdout, install.Diff(filepath.ToSlash(rel), p.Old, p.New))
		return nil
	}
	ws := e.projectRoot()
	trusted := e.trustHolds(ws)
	switch {
	case e.home == "":
	case p.Project && inProject(p.Path, o.ProjectDir):
		// A user-scope file stays backed up beside it, also when the working directory is
		// the home directory (new-user trial, stop 27: where it went depended on that).
		p.BackupDir = backupDir(e.home)
	case own:
		// A file install created is install's: its backups beside it were files of
		// install's left in the user's directory, which kept the directory install created
		// for it from going (new-user trial, stop 29: ~/.gemini/ stayed after install,
		// install --server and uninstall, with two .bak files of hookcore's entries).
		p.BackupDir = backupDir(e.home)
	}
	var newDirs []string // the directories install is about to create, deepest first
	if created {
		for d := filepath.Dir(abs); d != filepath.Dir(d) && strings.HasPrefix(d, filepath.Clean(p.Base)+string(filepath.Separator)); d = filepath.Dir(d) {
			if _, err := os.Lstat(d); err == nil {
				break
			}
			newDirs = append(newDirs, d)
		}
	}
	backup, err := p.Apply(time.Now())
	if err != nil {
		return &exitError{code: ExitFailure, msg: err.Error()}
	}
	if created || p.Delete || own {
		switch {
		case created:
			rec.wrote(abs)
			// A directory that was there is not install's, whatever an old record says.
			for d := filepath.Dir(abs); rec.has(d+string(filepath.Separator)) && !slices.Contains(newDirs, d); d = filepath.Dir(d) {
				rec.remove(d + string(filepath.Separator))
			}
			for _, d := range newDirs {
				rec.add(d + string(filepath.Separator)) // a directory: its path ends in the separator
			}
		case add:
			rec.wrote(abs) // install's file, rewritten by install: the record follows it
		case !p.Delete:
			rec.remove(abs) // uninstall left keys of the user's in it: the file is theirs
		default:
			rec.remove(abs)
			// The directories install created for the file go with it, when nothing else
			// is in them (new-user trial, stop 28: an empty .gemini/ stayed behind).
			for d := filepath.Dir(abs); rec.has(d + string(filepath.Separator)); d = filepath.Dir(d) {
				rec.remove(d + string(filepath.Separator))
				if os.Remove(d) != nil {
					break // not empty: something of the user's is in it, and it is theirs now
				}
			}
		}
		if err := rec.save(e.home); err != nil {
			fmt.Fprintf(e.stderr, "hookcore: warning: cannot record which settings files install created (%v): uninstall will leave an empty one\n", err)
		}
	}
	if e.home != "" {
		recorded := false
		if add && !created {
			recorded = restore.installed(o, abs, p)
		} else if _, ok := restore[abs]; ok {
			delete(restore, abs) // given back, created anew, or removed: nothing left to give back
			recorded = true
		}
		if recorded {
			if err := restore.save(e.home); err != nil {
				fmt.Fprintf(e.stderr, "hookcore: warning: cannot record what uninstall gives back (%v): uninstall will take out hookcore's entries, and may not give back the file byte for byte\n", err)
			}
		}
	}
	defer func() {
		// The file written may be one of the workspace's project config files, which its
		// trust grant binds (new-user trial, stop 21: install after trust grant switched the
		// project's hooks off without a word).
		if trusted && !e.trustHolds(ws) {
			fmt.Fprintf(e.stderr, "hookcore: %s is part of the workspace's project config, so its trust grant no longer matches and its project hooks are pending: run `hookcore trust grant` again\n", e.shownPath(p.Path))
		}
	}()
	verb := "installed hookcore in"
	if !add {
		verb = "removed hookcore from"
	}
	if p.Delete {
		verb = "removed hookcore, and the file it had created,"
	}
	fmt.Fprintf(e.stdout, "%s %s\n", verb, e.shownPath(p.Path))
	if add {
		e.warnPolicyErrors()
	}
	if p.Target != "" {
		fmt.Fprintf(e.stdout, "%s is a symbolic link: the file written is %s, and the link is kept\n", e.shownPath(p.Path), e.shownPath(p.Target))
	}
	if backup != "" {
		fmt.Fprintf(e.stdout, "the old file is kept as %s\n", e.shownPath(backup))
	}
	return nil
}

// shownPath is path (absolute) as install and uninstall print a file: relative to the
// working directory when it lies inside it, except a file of the home directory when the
// working directory is the home directory or above it; else as ~/... when it lies in the
// home directory; else absolute
// (new-user trial, stop 30: run from the home directory, install --scope user printed
// ~/.claude/settings.json as .claude/settings.json, a project's path, and from / as
// home/me/.claude/settings.json).
func (e *env) shownPath(path string) string {
	inside := func(p, dir string) (string, bool) {
		rel, err := filepath.Rel(dir, p)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
			return "", false
		}
		return rel, true
	}
	if !filepath.IsAbs(path) || e.cwd == "" {
		return path
	}
	homeRel, inHome := "", false
	aboveHome := false
	if e.home != "" {
		homeRel, inHome = inside(path, e.home)
		_, in := inside(e.home, e.cwd)
		aboveHome = in || filepath.Clean(e.home) == filepath.Clean(e.cwd)
	}
	if rel, ok := inside(path, e.cwd); ok && !(inHome && aboveHome) {
		return rel
	}
	if inHome {
		return "~" + string(filepath.Separator) + homeRel
	}
	return path
}

// shellWord is shownPath's result as one word of a shell command line: quoted where it needs
// to be, with a leading ~/ left out of the quotes, so that the shell still expands it.
func shellWord(shown string) string {
	if rest, ok := strings.CutPrefix(shown, "~"+string(filepath.Separator)); ok {
		return "~" + string(filepath.Separator) + install.ShellQuote(rest)
	}
	return install.ShellQuote(shown)
}

// cmdName is "install" or "uninstall".
func cmdName(add bool) string {
	if add {
		return "install"
	}
	return "uninstall"
}

// createdSet is the record of the settings files install created, and of the directories
// it created for them (absolute paths; a directory's ends in the separator), in
// $XDG_STATE_HOME/hookcore/created.json: uninstall removes such a file when nothing else is
// left in it, and only while it is the very file install wrote (holds).
type createdSet map[string]createdEntry

// createdEntry is what the record knows of one file: the SHA-256 (hex) of the bytes install
// last wrote into it, and the file's modification time (Unix ns) right after. A directory's,
// and a file's of the record before red team round 65 (a list of paths), is empty: such a
// file is never taken for install's.
type createdEntry struct {
	Wrote string `json:"wrote,omitempty"`
	Mtime int64  `json:"mtime,omitempty"`
}

func createdPath(home string) string {
	return filepath.Join(filepath.Dir(backupDir(home)), "created.json")
}

// createdFiles reads the record; a missing or unreadable one is empty.
func createdFiles(home string) createdSet {
	s := createdSet{}
	data, err := os.ReadFile(createdPath(home))
	if err != nil {
		return s
	}
	var list []string
	if json.Unmarshal(data, &list) == nil {
		for _, p := range list {
			s[p] = createdEntry{}
		}
		return s
	}
	if json.Unmarshal(data, &s) != nil {
		return createdSet{}
	}
	return s
}

func (s createdSet) has(p string) bool { _, ok := s[p]; return ok }
func (s createdSet) add(p string)      { s[p] = createdEntry{} }
func (s createdSet) remove(p string)   { delete(s, p) }

// wrote records the file abs as install's, as it is now: just written by install.
func (s createdSet) wrote(abs string) {
	data, err1 := os.ReadFile(abs)
	fi, err2 := os.Stat(abs)
	if err1 != nil || err2 != nil {
		delete(s, abs) // cannot tell the file again: not install's
		return
	}
	s[abs] = createdEntry{Wrote: sum(data), Mtime: fi.ModTime().UnixNano()}
}

// holds reports whether the record's file abs, whose content is cur (nil: none), is the
// very file install created and last wrote: the same bytes and modification time. A file
// the user removed and wrote again, even with the same bytes, or one anything else changed,
// is not: it is the user's (red team round 65).
func (s createdSet) holds(abs string, cur []byte) bool {
	r, ok := s[abs]
	if !ok || r.Wrote == "" || cur == nil || r.Wrote != sum(cur) {
		return false
	}
	fi, err := os.Stat(abs)
	return err == nil && fi.ModTime().UnixNano() == r.Mtime
}

// forget drops the record of the file abs and of the directories above it: install did not
// create the file there now, and its directories may be the user's too.
func (s createdSet) forget(abs string) {
	delete(s, abs)
	for d := filepath.Dir(abs); s.has(d + string(filepath.Separator)); d = filepath.Dir(d) {
		delete(s, d+string(filepath.Separator))
	}
}

// save writes the record atomically (a temporary file renamed over it).
func (s createdSet) save(home string) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return writeState(createdPath(home), append(data, '\n'))
}

// writeState writes one of install's records atomically: a temporary file (0600) in its
// directory (made 0700 if missing), renamed over it.
func writeState(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// backupDir is where install keeps the backup of a file inside a project:
// $XDG_STATE_HOME/hookcore/backups, ~/.local/state/hookcore/backups by default. Not under
// ~/.hookcore, which is often a link into a dotfiles repository (red team round 30: a
// project's settings.local.json, tokens and all, was backed up into one).
func backupDir(home string) string {
	state := os.Getenv("XDG_STATE_HOME")
	if state == "" || !filepath.IsAbs(state) {
		state = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(state, "hookcore", "backups")
}

// inProject reports whether path lies in the project directory dir, as written or with the
// links of dir resolved.
func inProject(path, dir string) bool {
	abs, err := filepath.Abs(path)
	if err != nil || dir == "" {
		return false
	}
	if rel, err := filepath.Rel(dir, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return true
	}
	_, ok := under(abs, dir)
	return ok
}

// under returns path relative to dir when path lies in dir, comparing both with symbolic
// links resolved (os.TempDir() is a link on macOS).
func under(path, dir string) (string, bool) {
	if !filepath.IsAbs(dir) {
		return "", false
	}
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	rel, err := filepath.Rel(dir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return rel, true
}

// warnPolicyErrors warns, after install, when the config of the user's own layers (the
// user's, the managed ones) that the hook command will find from here does not load
// cleanly: the hook command blocks the gate events it cannot decide while an entry of those
// files is broken, so a typo in ~/.hookcore/hooks.yaml would block every tool call of the
// agent just wired to it (new-user trial, stop 29: install said nothing). The project's
// files are left to `hookcore check`: an untrusted workspace's are not run. Only errors
// count; the first is named.
func (e *env) warnPolicyErrors() {
	d := e.discovery(&configFlags{}, e.projectRoot())
	d.Agents = nil
	looked, err := d.Look()
	if err != nil {
		return
	}
	var paths []config.LayerPath
	for _, c := range looked {
		if c.Loads() && (c.Layer == config.User || c.Layer == config.Managed) {
			paths = append(paths, c.LayerPath)
		}
	}
	set, problems := config.Load(paths)
	// A broken extension's hooks file, or entry in it, blocks nothing (stops 31 and 32).
	skipped := map[string]bool{}
	for _, f := range set.Files {
		skipped[f.Path] = hookcore.ExtensionFile(f)
	}
	var errs config.ErrorList
	for _, p := range problems {
		if !p.Warning && !skipped[p.Pos.File] {
			errs = append(errs, p)
		}
	}
	if len(errs) == 0 {
		return
	}
	errs.Sort()
	fmt.Fprintf(e.stderr, "hookcore: warning: your config has %d error(s), the first %s: until it loads, the hook command blocks the tool calls it cannot decide (`hookcore check` lists them)\n", len(errs), errs[0].Error())
}

// skillShellSince is the oldest Claude Code observed to accept a settings file that names
// PreSkillShellCommand (2.1.197 did, 2.1.88 ran none of the file's hooks; stop 29).
const skillShellSince = "2.1.197"

// claudeVersion runs `claude --version` (the Claude Code on PATH, 10 s at most) and returns
// its version, "2.1.332" of "2.1.332 (Claude Code)"; ok is false when there is none or it
// says something else.
func claudeVersion() (string, bool) {
	path, err := exec.LookPath("claude")
	if err != nil {
		return "", false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return "", false
	}
	v, _, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	if _, ok := versionParts(v); !ok {
		return "", false
	}
	return v, true
}

// versionParts reads "MAJOR.MINOR.PATCH" of decimal numbers.
func versionParts(v string) ([3]int, bool) {
	var n [3]int
	parts := strings.Split(v, ".")
	if len(parts) != 3 {
		return n, false
	}
	for i, p := range parts {
		x, err := strconv.Atoi(p)
		if err != nil || x < 0 {
			return n, false
		}
		n[i] = x
	}
	return n, true
}

// olderThan reports whether version v is older than w (both MAJOR.MINOR.PATCH).
func olderThan(v, w string) bool {
	a, _ := versionParts(v)
	b, _ := versionParts(w)
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}
