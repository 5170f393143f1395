package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/audit"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/trust"
)

// configFlags are the config options shared by fire, list, replay and run (DESIGN.md 9).
type configFlags struct {
	files   []string
	trust   bool
	dir     string
	approve approveFlags // fire, replay and run only: see registerRun
	// allowHosts is --allow-host (fire, replay and run): the global allowlist of the SSRF
	// guard of http hooks (hookcore.Options.AllowedHosts).
	allowHosts []string
	// audit is --audit FILE (fire, replay and run): the tamper-evident decision log
	// (package audit), keyed by HOOKCORE_AUDIT_KEY when set.
	audit string
}

func (f *configFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringArrayVarP(&f.files, "config", "c", nil, "load this config file (repeatable); only named files are loaded, trusted because you named them")
	cmd.Flags().BoolVar(&f.trust, "trust", false, "trust this workspace's current project config before running")
	cmd.Flags().StringVar(&f.dir, "config-dir", ".hookcore", "name of the per-user and per-project config directory")
}

// loaded is a config set ready for a Runner, with the trust store that gates it.
type loaded struct {
	set        *config.Set
	store      *trust.Store // nil when only explicit files were named
	projectDir string
	warnings   config.ErrorList
}

// load finds and validates the config: the named files, or else the discovered layers
// (user, project, local). With --trust it records trust of the project layers first.
// Every problem goes to stderr as file:line:col: hook-id: message; an error returns exit 1,
// except errors only in the project and local layers of an untrusted workspace (without
// --trust), which are reported and ignored.
func (e *env) load(f *configFlags) (*loaded, error) {
	root := config.ProjectRoot(e.cwd)
	var paths []config.LayerPath
	explicit := len(f.files) > 0
	if explicit {
		for _, p := range f.files {
			if !filepath.IsAbs(p) {
				p = filepath.Join(e.cwd, p)
			}
			paths = append(paths, config.LayerPath{Path: p, Layer: config.Explicit})
		}
	} else {
		var err error
		paths, err = config.Discovery{Cwd: e.cwd, Home: e.home, Dir: f.dir, ProjectRoot: root}.Paths()
		if err != nil {
			return nil, fmt.Errorf("discover config: %w", err)
		}
	}
	set, problems := config.Load(paths)
	problems.Sort()
	l := &loaded{set: set, projectDir: root}
	if !explicit && e.home != "" {
		l.store = trust.DefaultStore(e.home)
	}
	// Errors only in the project and local layers of an untrusted workspace do not stop the
	// user's own hooks: those layers would not run anyway, and otherwise a repository could
	// switch off the user's guards by shipping a broken config (fire would exit 1, which
	// harnesses treat as a non-blocking error). With --trust they count: nothing broken is
	// trusted.
	ignored := !f.trust && hookcore.UntrustedErrorsOnly(set, problems, l.store, root)
	for _, p := range problems {
		fmt.Fprintln(e.stderr, relativize(p.Error(), e.cwd))
	}
	if ignored {
		fmt.Fprintln(e.stderr, "hookcore: workspace not trusted: the errors in its project config are ignored and its hooks do not run")
	} else if err := problems.Err(); err != nil {
		return nil, exitWith(ExitFailure)
	}
	if l.store != nil && f.trust {
		if err := hookcore.GrantTrust(l.store, set, root, time.Now()); err != nil {
			return nil, fmt.Errorf("trust workspace: %w", err)
		}
	}
	return l, nil
}

// registerRun registers the config flags and those of commands that run hooks (--approve,
// --allow-host).
func (f *configFlags) registerRun(cmd *cobra.Command) {
	f.register(cmd)
	f.approve.register(cmd)
	cmd.Flags().StringArrayVar(&f.allowHosts, "allow-host", nil,
		"let http hooks reach this host name, IP address or CIDR prefix although the SSRF guard refuses loopback, private and link-local destinations (repeatable; added to each hook's allowed_hosts)")
	cmd.Flags().StringVar(&f.audit, "audit", os.Getenv("HOOKCORE_AUDIT"),
		"append every decision to this tamper-evident log (hash-chained JSON lines; HMAC-keyed by $HOOKCORE_AUDIT_KEY; check with 'hookcore audit verify'); default $HOOKCORE_AUDIT")
}

// runner builds the Runner of a loaded config with the CLI's logger, trust store, approval
// gate (--approve), SSRF allowlist (--allow-host) and model resolver (for prompt hooks: a
// hook's `model:` plus the OPENAI_/ANTHROPIC_ environment).
func (e *env) runner(l *loaded, f *configFlags, opts hookcore.Options) (*hookcore.Runner, error) {
	ap, err := e.approver(&f.approve)
	if err != nil {
		return nil, err
	}
	if opts.Approver == nil {
		opts.Approver = ap
	}
	if opts.Models == nil {
		opts.Models = e.models()
	}
	opts.AllowedHosts = append(opts.AllowedHosts, f.allowHosts...)
	if f.audit != "" && opts.AuditLog == nil {
		path := f.audit
		if !filepath.IsAbs(path) {
			path = filepath.Join(e.cwd, path)
		}
		w, err := audit.Open(path, audit.KeyFromEnv())
		if err != nil {
			return nil, err
		}
		opts.AuditLog = w // closed at process exit: every append is its own write(2)
	}
	opts.Logger = e.logger()
	opts.ProjectDir = l.projectDir
	opts.Trust = l.store
	r, err := hookcore.New(l.set, opts)
	if err != nil {
		return nil, err
	}
	return r, nil
}
