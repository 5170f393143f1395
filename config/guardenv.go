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
// project's agent settings, changes what hookcore's hook process reads or how the guards it
// starts load their code: HOME (the user's policy and trust store), PATH (which program a
// command runs), HOOKCORE_*, the dynamic loader's LD_* and DYLD_*, the shells' BASH_ENV, ENV,
// BASHOPTS and SHELLOPTS, and the interpreters' module paths and startup code: PYTHONPATH,
// PYTHONHOME, PYTHONSTARTUP, PYTHONUSERBASE, PYTHONPLATLIBDIR, PYTHONPYCACHEPREFIX,
// PYTHONWARNINGS (a category names a module to import), PYTHONBREAKPOINT, NODE_PATH,
// NODE_OPTIONS when it holds more than memory, warning and source-map options (--require,
// --import, --loader load code), PERL5OPT, PERL5LIB, PERLLIB, RUBYOPT, RUBYLIB, the Java
// option variables, GCONV_PATH, LUA_INIT, LUA_PATH, LUA_CPATH; git's and gem's code and
// repository variables (GIT_CONFIG*, GIT_SSH_COMMAND, GIT_EXTERNAL_DIFF, GIT_DIR, GEM_PATH,
// ...); and every name that is no shell identifier (bash reads BASH_FUNC_name%% as a
// function definition); PYTHONIOENCODING unless its codec is UTF-8, and LANG, LC_ALL and
// LC_CTYPE unless plainLocale (another codec changes what a guard reads), and where locales
// are loaded from (LOCPATH, PATH_LOCALE, NLSPATH, I18NPATH, NixOS's LOCALE_ARCHIVE*); what
// bash acts on in a script (PS4, CDPATH, GLOBIGNORE, TMOUT); NODE_ICU_DATA; GREP_OPTIONS.
// PYTHONUNBUFFERED, PYTHONDONTWRITEBYTECODE, PYTHONIOENCODING=utf-8, NODE_ENV and the like
// load nothing (stop 25 trial: the whole PYTHON prefix blocked ordinary projects). A list of
// a class: a program may read others (the README says so).
func GuardEnv(name, value string) bool {
	switch name {
	case "HOME", "PATH", "BASH_ENV", "ENV", "BASHOPTS", "SHELLOPTS",
		"PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONUSERBASE", "PYTHONPLATLIBDIR",
		"PYTHONPYCACHEPREFIX", "PYTHONWARNINGS", "PYTHONBREAKPOINT", "PYTHONEXECUTABLE",
		"NODE_PATH", "PERL5OPT", "PERL5LIB", "PERLLIB", "RUBYOPT", "RUBYLIB",
		"JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "GCONV_PATH",
		"LUA_INIT", "LUA_PATH", "LUA_CPATH":
		return true
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
	case "GREP_OPTIONS":
		return true // BSD grep (macOS) still reads it: GREP_OPTIONS=-v inverts a grep guard
	case "LANG", "LC_ALL", "LC_CTYPE":
		return !plainLocale(value)
	case "CURL_HOME", "XDG_CONFIG_HOME", "WGETRC", "RIPGREP_CONFIG_PATH":
		// Where a guard's tools read their own config: a repository's .curlrc (CURL_HOME,
		// or $XDG_CONFIG_HOME/.curlrc since curl 7.73) made a curl guard print "allow"
		// without asking its policy server (red team round 42, with Claude Code); wget's
		// and ripgrep's files the same.
		return true
	case "CLAUDE_CODE_USE_POWERSHELL_TOOL":
		// Claude Code's PowerShell tool, and a skill's `shell: powershell` lines, are no Bash
		// calls: a repository that switches it on takes its shell commands past every Bash
		// guard (red team round 40).
		return true
	case "PS4", "CDPATH", "GLOBIGNORE", "TMOUT", "NODE_ICU_DATA":
		// What bash reads from the environment and acts on in a script: PS4 is expanded
		// (code) under xtrace, CDPATH moves a `cd`, GLOBIGNORE drops files from a glob,
		// TMOUT cuts a `read` of the input short; Node's ICU data changes normalization.
		return true
	case "LOCPATH", "PATH_LOCALE", "NLSPATH", "I18NPATH":
		// Where the C library loads locales from: a repository's own compiled locale,
		// named like a plain one, gave a Python guard a unicode_escape codeset and grep a
		// space that is no space (red team round 31, end to end with the real Claude
		// Code: rm -rf passed every guard).
		return true
	case "GIT_EXTERNAL_DIFF", "GIT_EXEC_PATH", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_ASKPASS",
		"GIT_PROXY_COMMAND", "GIT_DIR", "GIT_WORK_TREE", "GIT_TEMPLATE_DIR", "GEM_PATH", "GEM_HOME":
		return true // code a guard that calls git or gem would run, or the repository it reads
	}
	for _, prefix := range []string{"HOOKCORE_", "LD_", "DYLD_", "BASH_FUNC_", "GIT_CONFIG", "LOCALE_ARCHIVE"} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	// A name that is no shell identifier (BASH_FUNC_grep%%, exported functions by another
	// spelling) is nothing a program reads as a setting; bash reads some as functions.
	return !ShellName(name)
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
