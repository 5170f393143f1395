package config

import "strings"

// NetworkEnv reports whether an environment variable, set for every hook by a project's
// agent settings (or a Gemini CLI .env), changes where hookcore's own network clients send
// a hook's input and whom they trust: the proxies (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY,
// NO_PROXY, lower case too), the TLS trust of Go, OpenSSL, Python, Node and curl
// (SSL_CERT_FILE, SSL_CERT_DIR, REQUESTS_CA_BUNDLE, CURL_CA_BUNDLE, NODE_EXTRA_CA_CERTS,
// NODE_TLS_REJECT_UNAUTHORIZED, PYTHONHTTPSVERIFY, AWS_CA_BUNDLE), the model servers of
// hookcore's LLM judge (OPENAI_BASE_URL, ANTHROPIC_BASE_URL: the judge would ask the
// repository's server, sending it the call and the user's API key) and the OpenTelemetry
// exporter's endpoint and headers (OTEL_EXPORTER_OTLP_*). It matters where the config has
// a hook hookcore runs over the network (File.UsesNetwork): an http hook, an LLM judge or
// agent, an mcp_tool or rego hook; it is not part of GuardEnv, because such variables are
// common in an application's .env and change nothing for a command guard that does not
// go on the network (red team, stop 28).
func NetworkEnv(name string) bool {
	switch strings.ToUpper(name) {
	case "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "SSL_CERT_FILE", "SSL_CERT_DIR",
		"REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "NODE_EXTRA_CA_CERTS", "NODE_TLS_REJECT_UNAUTHORIZED",
		"PYTHONHTTPSVERIFY", "AWS_CA_BUNDLE", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL":
		return true
	}
	return strings.HasPrefix(name, "OTEL_EXPORTER_OTLP_")
}

// GuardEnv reports whether an environment variable, set to value for every hook by a
// repository (a project's Claude Code settings env, a Gemini CLI .env), changes how
// hookcore's hook process or the guards it starts run: which code they load, which program
// they run, where they read their config from, or what they read or output. It judges a
// name by its class, not by a list of names (stop 29: red team rounds 26 to 42 kept
// finding members the list this replaced lacked: CURL_HOME, WGETRC, RIPGREP_CONFIG_PATH;
// npm's npm_config_* and pip's PIP_CONFIG_FILE were left open). Names compare in upper
// case. In order:
//
//   - A name that is no shell identifier is refused (bash reads BASH_FUNC_name%% as a
//     function definition; ShellName).
//   - Five names are judged by value: NODE_OPTIONS unless it holds only memory, warning,
//     source-map and trace options (--require, --import, --loader load code);
//     PYTHONIOENCODING unless its codec is UTF-8 (red team round 30); LANG, LC_ALL and
//     LC_CTYPE unless plainLocale (round 31).
//   - The proxy, TLS and model-server variables are NetworkEnv's, not GuardEnv's.
//   - Names known to change nothing a guard decides pass, although a class below takes
//     them (harmlessEnv): PYTHONUNBUFFERED, PYTHONDONTWRITEBYTECODE, NODE_ENV, GOMAXPROCS,
//     CGO_ENABLED, GIT_AUTHOR_NAME, DOTNET_CLI_TELEMETRY_OPTOUT, ...
//   - Single names of the shells, the C library and the agents (guardName): HOME, PATH,
//     BASH_ENV, ENV, PS4, ZDOTDIR, POSIXLY_CORRECT, LESSOPEN, MAGIC, TERMINFO, MAKEFILES,
//     CLAUDE_ENV_FILE, CLAUDE_CODE_USE_POWERSHELL_TOOL, ...
//   - The namespace of a tool or runtime that reads its settings from variables of its
//     own prefix (guardNamespace): HOOKCORE_*, the loader's LD_* and DYLD_*, PYTHON*,
//     NODE_*, npm's npm_config_*, YARN_*, PNPM_*, BUN_*, DENO_*, PIP_*, UV_*, POETRY_*,
//     CONDA_*, PERL*, RUBY*, GEM_*, BUNDLE_*, JAVA_*, MAVEN_*, GRADLE_*, CARGO_*,
//     RUSTUP_*, RUSTC*, Go's GO* without '_' (GOFLAGS, GOTOOLCHAIN, GOROOT, GOPROXY) and
//     CGO_*, DOTNET_*, COMPOSER*, git's GIT_*, XDG_*, the version managers' (PYENV_*,
//     NVM_*, ASDF_*, ...).
//   - The shapes of a tool's own variables (guardShape): a word holding CONFIG
//     (PIP_CONFIG_FILE, KUBECONFIG, RIPGREP_CONFIG_PATH), a word ending in RC but not SRC
//     (WGETRC, INPUTRC, PSQLRC), a last word ending in HOME (JAVA_HOME, CURL_HOME,
//     GNUPGHOME), in OPT, OPTS or OPTIONS (MAVEN_OPTS, GREP_OPTIONS: a tool's options take
//     the ones that load code), in FLAGS but not FLAGS alone (RUSTFLAGS, MAKEFLAGS; not
//     FEATURE_FLAGS), load paths (CLASSPATH, AWKPATH, LOCPATH, QT_PLUGIN_PATH,
//     LD_LIBRARY_PATH, R_LIBS), and the programs a tool runs (EDITOR, MANPAGER, SHELL,
//     SSH_ASKPASS, RSYNC_RSH, RUSTC_WRAPPER, *_COMMAND, *_CMD).
//
// Any other name passes (DEBUG, LOG_LEVEL, RUST_LOG, TZ, FORCE_COLOR, AWS_REGION,
// DATABASE_URL): a repository's env, and above all an application's .env that Gemini CLI
// loads, names variables no list can enumerate (stop 25's trial: refusing a namespace
// without its harmless members, PYTHON* then, broke ordinary projects). A class is wider
// than a list, and still not every variable: a program may read another (the README says
// so).
func GuardEnv(name, value string) bool {
	if !ShellName(name) {
		return true
	}
	u := strings.ToUpper(name)
	switch u {
	case "NODE_OPTIONS":
		return !harmlessNodeOptions(value)
	case "PYTHONIOENCODING":
		// The codec a Python guard reads its input with: unicode_escape turns the `\"` of
		// Claude Code's JSON into quotes, and a command the model writes then carries a
		// second "command" key the guard reads instead (red team round 30: rm -rf passed a
		// guard that exited 0). UTF-8 spellings, and an errors handler alone, are fine.
		enc, _, _ := strings.Cut(value, ":")
		enc = codesetKey(enc)
		return enc != "" && enc != "utf8" && enc != "utf8sig"
	case "LANG", "LC_ALL", "LC_CTYPE":
		return !plainLocale(value)
	}
	if NetworkEnv(u) || harmlessEnv(u) || programEnv(u) && inertProgram(value) {
		return false
	}
	return guardName(u) || guardNamespace(u) || guardShape(u)
}

// programEnv reports whether u, a name in upper case, names a program a tool runs for the
// user: an editor, a pager, a password prompt or a browser (VISUAL, EDITOR, GIT_EDITOR,
// PAGER, MANPAGER, SSH_ASKPASS, BROWSER). Not SHELL, which picks the shell an agent runs
// its Bash tool in, nor *_COMMAND, whose value is a command line.
func programEnv(u string) bool {
	if u == "VISUAL" {
		return true
	}
	words := strings.FieldsFunc(u, func(r rune) bool { return r == '_' })
	return len(words) > 0 && endsIn(words[len(words)-1], programSuffixes)
}

// programSuffixes end the last word of a variable naming a program a tool runs for the user
// (programEnv); guardShape refuses them, and SHELL.
var programSuffixes = []string{"EDITOR", "PAGER", "ASKPASS", "BROWSER"}

// endsIn reports whether w ends in one of suffixes.
func endsIn(w string, suffixes []string) bool {
	for _, suffix := range suffixes {
		if strings.HasSuffix(w, suffix) {
			return true
		}
	}
	return false
}

// inertProgram reports whether value, the program of a programEnv variable, runs nothing
// a repository wrote: empty, or a value that tools read as "none" or that names a program
// of the system's that does nothing or copies its input (none, false, true, :, cat).
// create-react-app documents BROWSER=none for an application's .env, which Gemini CLI
// loads for every hook (red team round 46: it blocked every tool call).
func inertProgram(value string) bool {
	switch strings.TrimSpace(value) {
	case "", "none", "false", "true", ":", "cat":
		return true
	}
	return false
}

// harmlessEnv reports whether u, a name in upper case that a class of GuardEnv takes, is
// known to change nothing a guard decides: output buffering, bytecode files, hash seeds,
// debug output on stderr, colours, telemetry, a runtime's memory and CPU limits, git's
// author and committer. A guard that fails for one (PYTHONINTMAXSTRDIGITS=1) fails closed
// while a project env is set (hookcore.Options.GuardsFailClosed).
func harmlessEnv(u string) bool {
	switch u {
	case "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "PYTHONHASHSEED", "PYTHONNOUSERSITE",
		"PYTHONSAFEPATH", "PYTHONUTF8", "PYTHONCOERCECLOCALE", "PYTHONDEVMODE", "PYTHONFAULTHANDLER",
		"PYTHONTRACEMALLOC", "PYTHONASYNCIODEBUG", "PYTHONPROFILEIMPORTTIME", "PYTHONNODEBUGRANGES",
		"PYTHONWARNDEFAULTENCODING", "PYTHONINTMAXSTRDIGITS", "PYTHON_COLORS", "PYTHON_CPU_COUNT",
		"NODE_ENV", "NODE_NO_WARNINGS", "NODE_DISABLE_COLORS", "NODE_PENDING_DEPRECATION", "NODE_DEBUG",
		"GOMAXPROCS", "GOGC", "GOMEMLIMIT", "GOTRACEBACK", "GOOS", "GOARCH", "CGO_ENABLED",
		"CARGO_TERM_COLOR", "CARGO_INCREMENTAL",
		"PIP_DISABLE_PIP_VERSION_CHECK", "PIP_NO_CACHE_DIR",
		"DOTNET_CLI_TELEMETRY_OPTOUT", "DOTNET_NOLOGO", "DOTNET_SKIP_FIRST_TIME_EXPERIENCE",
		"GIT_TERMINAL_PROMPT":
		return true
	}
	return strings.HasPrefix(u, "GIT_AUTHOR_") || strings.HasPrefix(u, "GIT_COMMITTER_")
}

// guardName reports whether u is one of the single names GuardEnv refuses: what hookcore
// reads (HOME: the user's policy and trust store; PATH: which program a command runs), what
// a shell reads from the environment and acts on in a script (BASH_ENV and ENV are
// sourced, PS4 is expanded under xtrace, CDPATH moves a `cd`, GLOBIGNORE, GLOBSORT and
// EXECIGNORE change a glob or a command lookup, TMOUT cuts a `read` of the input short,
// zsh sources $ZDOTDIR/.zshenv even for `zsh -c`; not IFS, which bash, dash and zsh
// reset at start), POSIXLY_CORRECT (grep and GNU tools stop taking options after an
// operand: `grep x file -v` reads a file named -v), programs and files tools load
// (VISUAL, LESSOPEN, file's MAGIC, the terminfo of tput, make's MAKEFILES, a
// virtualenv's python), where the C library loads converters and locales (GCONV_PATH,
// PATH_LOCALE; red team round 31), and the agents' own switches for the shell they run a
// tool's command in: Claude Code's PowerShell tool, which no Bash guard sees (red team
// round 40), and the file it sources before each Bash command (CLAUDE_ENV_FILE).
func guardName(u string) bool {
	switch u {
	case "HOME", "PATH", "BASH_ENV", "ENV", "BASHOPTS", "SHELLOPTS", "BASH_COMPAT", "BASH_XTRACEFD",
		"PS4", "CDPATH", "GLOBIGNORE", "GLOBSORT", "EXECIGNORE", "FUNCNEST", "TMOUT",
		"ZDOTDIR", "POSIXLY_CORRECT", "VISUAL", "LESSOPEN", "LESSCLOSE", "MAGIC", "TERMINFO",
		"TERMINFO_DIRS", "MAKEFILES", "VIRTUAL_ENV", "GCONV_PATH", "PATH_LOCALE",
		"CLAUDE_CODE_USE_POWERSHELL_TOOL", "CLAUDE_ENV_FILE":
		return true
	}
	return false
}

// guardNamespace reports whether u is in the namespace of a tool or runtime that reads its
// settings from variables of its own prefix, so that one of them may name a config file,
// code to load, a program to run or where packages come from (npm reads npm_config_* as
// its config, node-options and script-shell included; pip any PIP_<option>; Go's GOFLAGS
// takes -toolexec, GOTOOLCHAIN another compiler). Go's own variables are GO and capitals
// or digits without '_', so GOOGLE_API_KEY is not one.
func guardNamespace(u string) bool {
	for _, p := range []string{
		"HOOKCORE_", "LD_", "DYLD_", "BASH_FUNC_", "LOCALE_ARCHIVE", "CLAUDE_CODE_SHELL",
		"PYTHON", "PIP_", "UV_", "POETRY_", "PIPENV_", "PIPX_", "PDM_", "HATCH_", "CONDA_",
		"NODE_", "NPM_CONFIG_", "YARN_", "PNPM_", "BUN_", "DENO_", "TS_NODE_",
		"PERL", "RUBY", "GEM_", "BUNDLE_", "BUNDLER_", "LUA_", "ERL_", "JULIA_",
		"R_LIBS", "R_PROFILE", "R_ENVIRON", "COMPOSER", "PHP_INI_",
		"JAVA_", "_JAVA_", "JDK_", "MAVEN_", "GRADLE_",
		"CARGO_", "RUSTUP_", "RUSTC", "RUSTDOC", "CGO_",
		"DOTNET_", "COREHOST_", "CORECLR_", "COMPLUS_", "NUGET_",
		"PYENV_", "RBENV_", "NODENV_", "GOENV_", "JENV_", "NVM_", "VOLTA_", "ASDF_", "MISE_",
		"SDKMAN_", "FNM_", "GIT_", "XDG_",
	} {
		if strings.HasPrefix(u, p) {
			return true
		}
	}
	return strings.HasPrefix(u, "GO") && !strings.Contains(u, "_")
}

// guardShape reports whether u, split into words at '_', has the shape of a variable by
// which a tool finds its config, its code or a program to run (GuardEnv lists them).
func guardShape(u string) bool {
	words := strings.FieldsFunc(u, func(r rune) bool { return r == '_' })
	if len(words) == 0 {
		return false
	}
	for _, w := range words {
		if strings.Contains(w, "CONFIG") || len(w) > 2 && strings.HasSuffix(w, "RC") && !strings.HasSuffix(w, "SRC") {
			return true
		}
	}
	last := words[len(words)-1]
	if endsIn(last, []string{"HOME", "OPT", "OPTS", "OPTIONS", "SHELL"}) || endsIn(last, programSuffixes) {
		return true
	}
	switch {
	case strings.HasSuffix(last, "FLAGS") && last != "FLAGS", // RUSTFLAGS, CFLAGS, MAKEFLAGS
		strings.HasSuffix(last, "PATH") && last != "PATH": // CLASSPATH, AWKPATH, NLSPATH
		return true
	}
	switch last {
	case "COMMAND", "CMD", "WRAPPER", "RSH", "LIB", "LIBS":
		return true
	case "PATH", "PATHS", "DIR", "DIRS":
		if len(words) > 1 {
			switch words[len(words)-2] {
			case "LIB", "LIBRARY", "LOAD", "LOADABLES", "MODULE", "MODULES", "PLUGIN", "PLUGINS",
				"EXTENSION", "EXTENSIONS", "INCLUDE", "INIT", "STARTUP":
				return true
			}
		}
	}
	return false
}

// ShellName reports whether name is a shell identifier (a letter or '_', then letters,
// digits and '_'): a name an environment variable can have for a shell to read it.
func ShellName(name string) bool {
	for i, c := range name {
		if !(c == '_' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return name != ""
}

// plainLocale reports whether a locale leaves a guard reading its input as it is: empty, C
// or POSIX, a UTF-8 codeset, or none named for a language whose default codeset keeps every
// ASCII byte a character of its own. A codeset such as GBK, Big5 or Shift_JIS takes an ASCII
// byte as the second byte of a character: a Python guard decodes its input with it (the
// `\` before a quote of Claude Code's JSON swallowed, the quote freed: PYTHONIOENCODING's
// attack by another name), and grep matches `rm -rf` after such a lead byte no more
// (macOS has these locales).
func plainLocale(value string) bool {
	v, _, _ := strings.Cut(strings.TrimSpace(value), "@")
	if v == "" || v == "C" || v == "POSIX" {
		return true
	}
	lang, codeset, ok := strings.Cut(v, ".")
	if !ok {
		l, _, _ := strings.Cut(strings.ToLower(lang), "_")
		return l != "zh" && l != "ja" && l != "ko"
	}
	return codesetKey(codeset) == "utf8"
}

// codesetKey folds a codec or codeset name for comparison: lower case, without blanks
// around it, '-' or '_' ("UTF-8", "utf_8", "utf8" are "utf8").
func codesetKey(name string) string {
	return strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(strings.TrimSpace(name)))
}

// harmlessNodeOptions reports whether every word of a NODE_OPTIONS value is an option that
// loads no code: memory limits, warnings, source maps, stack traces, DNS order.
func harmlessNodeOptions(value string) bool {
	for _, w := range strings.Fields(value) {
		name, v, _ := strings.Cut(w, "=")
		switch name {
		case "--max-old-space-size", "--max-semi-space-size", "--no-warnings", "--no-deprecation",
			"--trace-warnings", "--trace-deprecation", "--enable-source-maps",
			"--stack-trace-limit", "--dns-result-order",
			"--trace-uncaught", "--use-openssl-ca", "--use-system-ca":
		case "--unhandled-rejections":
			// none or warn turns a guard's crash in an async function into exit 0, an allow
			// (red team round 36); strict and throw keep it a failure.
			if v != "strict" && v != "throw" {
				return false
			}
		default:
			return false
		}
	}
	return true
}
