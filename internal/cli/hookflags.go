package cli

import (
	"os"
	"strconv"
	"strings"

	"github.com/hookcore/hookcore/config"
)

// The hook command's flags as the lean hook binary (-tags hookcore_lean, no cobra) reads
// them. hookcmd.go registers the same flags with cobra for the full binary, with the same
// defaults (the constants below); TestLeanFlagsMatchCobra compares the two.

const (
	defaultConfigDir = ".hookcore" // --config-dir
	defaultOnError   = "block"     // --on-error
)

// flagKind is how a flag takes its value.
type flagKind int

const (
	flagString flagKind = iota // --name value, --name=value; the last one counts
	flagArray                  // repeatable: every value, in order
	flagBool                   // --name, --name=true|false
)

// flagSpec is one flag of the hook command: its long name, shorthand ("" for none), kind and
// where its value goes (str, arr or b by kind).
type flagSpec struct {
	name, short string
	kind        flagKind
	str         *string
	arr         *[]string
	b           *bool
}

// hookFlagSpecs sets the hook command's flags to their defaults and returns them: the
// config flags (registerRun), the hook flags and the global --verbose.
func hookFlagSpecs(e *env, cf *configFlags, hf *hookFlags) []flagSpec {
	cf.dir, cf.audit = defaultConfigDir, os.Getenv("HOOKCORE_AUDIT")
	cf.system = systemFlags{config.DefaultManagedDir, config.DefaultGeminiSystemSettings()}
	cf.approve.mode, hf.onError = approveOff, defaultOnError
	return []flagSpec{
		{name: "config", short: "c", kind: flagArray, arr: &cf.files},
		{name: "trust", kind: flagBool, b: &cf.trust},
		{name: "config-dir", kind: flagString, str: &cf.dir},
		{name: "settings", kind: flagArray, arr: &cf.settings},
		{name: "managed-settings-dir", kind: flagString, str: &cf.system.managedDir},
		{name: "gemini-system-settings", kind: flagString, str: &cf.system.geminiSystem},
		{name: "approve", kind: flagString, str: &cf.approve.mode},
		{name: "allow-host", kind: flagArray, arr: &cf.allowHosts},
		{name: "audit", kind: flagString, str: &cf.audit},
		{name: "otel", kind: flagString, str: &cf.otel},
		{name: "on-error", kind: flagString, str: &hf.onError},
		{name: "server", kind: flagString, str: &hf.server},
		{name: "token", kind: flagString, str: &hf.token},
		{name: "state-dir", kind: flagString, str: &hf.stateDir},
		{name: "verbose", short: "v", kind: flagBool, b: &e.verbose},
		{name: handedOverFlag[2:], kind: flagBool, b: &hf.handedOver},
	}
}

// parseHookArgs parses args (after the word "hook") into specs' values and returns the
// positional arguments. ok is false for anything it does not read exactly as cobra (pflag)
// would: help, an unknown flag, a missing value, shorthands run together, a bool value that
// is not true or false, or not one or two positional arguments. The lean binary then hands
// the command over to the full hookcore, whose answer (help, or the usage error) is the
// reference. The forms it reads: --name value, --name=value, -c value, -cvalue, -c=value,
// --bool, --bool=true|false, -v, positional arguments anywhere, and -- before the rest.
func parseHookArgs(args []string, specs []flagSpec) (pos []string, ok bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			pos = append(pos, a)
			continue
		}
		var s *flagSpec
		name, value, hasValue := "", "", false
		if strings.HasPrefix(a, "--") {
			name, value, hasValue = strings.Cut(a[2:], "=")
			s = lookupFlag(specs, name, false)
		} else {
			name = a[1:2]
			s = lookupFlag(specs, name, true)
			if rest := a[2:]; rest != "" {
				if s == nil || s.kind == flagBool {
					return nil, false // -vc and the like: pflag reads them as several flags
				}
				value, hasValue = rest, true
				if len(rest) > 1 && rest[0] == '=' {
					value = rest[1:] // -c=x is x, and -c= is "=" (pflag)
				}
			}
		}
		if s == nil {
			return nil, false
		}
		if s.kind == flagBool {
			v := true
			if hasValue {
				var err error
				if v, err = strconv.ParseBool(value); err != nil {
					return nil, false
				}
			}
			*s.b = v
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				return nil, false
			}
			i++
			value = args[i]
		}
		if s.kind == flagArray {
			*s.arr = append(*s.arr, value)
		} else {
			*s.str = value
		}
	}
	if len(pos) < 1 || len(pos) > 2 {
		return nil, false
	}
	return pos, true
}

// lookupFlag is the spec of a long name, or of a shorthand when short is set; nil if none.
func lookupFlag(specs []flagSpec, name string, short bool) *flagSpec {
	for i := range specs {
		if (!short && specs[i].name == name) || (short && specs[i].short != "" && specs[i].short == name) {
			return &specs[i]
		}
	}
	return nil
}
