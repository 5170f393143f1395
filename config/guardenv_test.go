package config

import "testing"

// TestGuardEnvClasses: GuardEnv refuses a variable by its class (stop 29), one case per
// class of its documentation, with the members red team rounds found one by one and the
// ones left open at stop 28 (npm_config_*, PIP_CONFIG_FILE); the names ordinary projects
// set pass (stop 25's trial: refusing the whole PYTHON prefix broke them).
func TestGuardEnvClasses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		class string
		names []string
		want  bool
	}{
		{"no shell identifier", []string{"BASH_FUNC_grep%%", "a-b", "1X", ""}, true},
		{"network (NetworkEnv's)", []string{"HTTPS_PROXY", "SSL_CERT_FILE", "NODE_EXTRA_CA_CERTS",
			"NODE_TLS_REJECT_UNAUTHORIZED", "PYTHONHTTPSVERIFY", "OPENAI_BASE_URL"}, false},
		{"harmless in a refused class", []string{"PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE",
			"PYTHONSAFEPATH", "NODE_ENV", "NODE_NO_WARNINGS", "GOMAXPROCS", "GOGC", "CGO_ENABLED",
			"CARGO_TERM_COLOR", "GIT_AUTHOR_NAME", "GIT_COMMITTER_EMAIL", "GIT_TERMINAL_PROMPT",
			"DOTNET_CLI_TELEMETRY_OPTOUT", "PIP_DISABLE_PIP_VERSION_CHECK"}, false},
		{"single names", []string{"HOME", "PATH", "BASH_ENV", "ENV", "PS4", "CDPATH", "GLOBIGNORE",
			"TMOUT", "ZDOTDIR", "POSIXLY_CORRECT", "VISUAL", "LESSOPEN", "MAGIC", "TERMINFO",
			"MAKEFILES", "VIRTUAL_ENV", "GCONV_PATH", "PATH_LOCALE",
			"CLAUDE_CODE_USE_POWERSHELL_TOOL", "CLAUDE_ENV_FILE"}, true},
		{"namespaces", []string{"HOOKCORE_STATE_DIR", "LD_PRELOAD", "DYLD_INSERT_LIBRARIES",
			"LOCALE_ARCHIVE_2_27", "CLAUDE_CODE_SHELL", "CLAUDE_CODE_SHELL_PREFIX",
			"PYTHONPATH", "PYTHONINSPECT", "PYTHONOPTIMIZE", "PYTHON_KEYRING_BACKEND",
			"PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "UV_INDEX_URL", "POETRY_VIRTUALENVS_PATH",
			"NODE_PATH", "NODE_ICU_DATA", "NODE_REPL_EXTERNAL_MODULE",
			"npm_config_userconfig", "npm_config_node_options", "NPM_CONFIG_SCRIPT_SHELL",
			"YARN_RC_FILENAME", "PNPM_HOME", "BUN_INSTALL", "DENO_DIR", "TS_NODE_COMPILER",
			"PERL5OPT", "PERL5LIB", "PERL5DB", "PERLIO", "RUBYOPT", "RUBYLIB", "RUBYGEMS_GEMDEPS",
			"GEM_PATH", "BUNDLE_GEMFILE", "LUA_INIT", "ERL_LIBS", "JULIA_DEPOT_PATH", "R_PROFILE_USER",
			"COMPOSER", "PHP_INI_SCAN_DIR", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS",
			"MAVEN_ARGS", "GRADLE_USER_HOME", "CARGO_HOME", "CARGO_BUILD_RUSTC_WRAPPER",
			"RUSTUP_TOOLCHAIN", "RUSTC", "RUSTC_WRAPPER", "RUSTDOC", "CGO_LDFLAGS",
			"GOFLAGS", "GOTOOLCHAIN", "GOROOT", "GOPATH", "GOPROXY", "GOENV", "GODEBUG", "GO111MODULE",
			"DOTNET_STARTUP_HOOKS", "COREHOST_TRACE", "CORECLR_PROFILER", "NUGET_PACKAGES",
			"PYENV_ROOT", "NVM_DIR", "VOLTA_HOME", "ASDF_DATA_DIR", "MISE_CONFIG_FILE",
			"GIT_SSH_COMMAND", "GIT_CONFIG_COUNT", "GIT_DIR", "GIT_INDEX_FILE", "GIT_EDITOR",
			"XDG_CONFIG_HOME", "XDG_DATA_DIRS", "XDG_CACHE_HOME"}, true},
		{"shapes", []string{"PIP_CONFIG_FILE", "RIPGREP_CONFIG_PATH", "KUBECONFIG", "DOCKER_CONFIG",
			"AWS_CONFIG_FILE", "MPLCONFIGDIR", "CLAUDE_CONFIG_DIR",
			"WGETRC", "INPUTRC", "PSQLRC", "CONDARC",
			"CURL_HOME", "ANDROID_HOME", "GNUPGHOME", "WORKON_HOME",
			"MAVEN_OPTS", "SBT_OPTS", "GREP_OPTIONS", "MANOPT", "ELIXIR_ERL_OPTIONS",
			"RUSTFLAGS", "CFLAGS", "LDFLAGS", "MAKEFLAGS",
			"CLASSPATH", "AWKPATH", "AWKLIBPATH", "LOCPATH", "NLSPATH", "I18NPATH", "MANPATH",
			"QT_PLUGIN_PATH", "GUILE_LOAD_PATH", "BASH_LOADABLES_PATH", "LIBS",
			"EDITOR", "SUDO_EDITOR", "PAGER", "MANPAGER", "SHELL", "BROWSER", "SSH_ASKPASS",
			"RSYNC_RSH", "PROMPT_COMMAND", "FZF_DEFAULT_COMMAND"}, true},
		{"ordinary", []string{"DEBUG", "LOG_LEVEL", "RUST_LOG", "RUST_BACKTRACE", "TZ", "COLORTERM",
			"FORCE_COLOR", "NO_COLOR", "TERM", "CI", "AWS_REGION", "AWS_PROFILE", "DATABASE_URL",
			"PORT", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_CLOUD_PROJECT", "ANTHROPIC_MODEL",
			"CLAUDE_CODE_MAX_OUTPUT_TOKENS", "CLAUDE_CODE_USE_BEDROCK", "BASH_DEFAULT_TIMEOUT_MS",
			"MCP_TIMEOUT", "DISABLE_TELEMETRY", "NEXT_PUBLIC_API_URL", "FLASK_ENV", "RAILS_ENV",
			"UPLOAD_DIR", "LOG_PATH", "BUILD_DIR", "FEATURE_FLAGS", "IMAGE_SRC", "RELEASE_RC",
			"http_proxy", "TMPDIR", "HISTFILE", "IFS", "JQ_COLORS", "LANGUAGE", "USER"}, false},
	} {
		for _, name := range tc.names {
			if got := GuardEnv(name, "x"); got != tc.want {
				t.Errorf("%s: GuardEnv(%q) = %v, want %v", tc.class, name, got, tc.want)
			}
		}
	}
}

// TestGuardEnvInertProgram: a program variable whose value runs nothing passes (red team
// round 46: create-react-app's BROWSER=none in an application's .env blocked every tool
// call under Gemini CLI); a program, a path or a command line is still refused, and SHELL
// keeps its class whatever its value.
func TestGuardEnvInertProgram(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, value string
		want        bool
	}{
		{"BROWSER", "none", false},
		{"BROWSER", "", false},
		{"PAGER", "cat", false},
		{"GIT_PAGER", "cat", false},
		{"EDITOR", "true", false},
		{"VISUAL", ":", false},
		{"SSH_ASKPASS", "false", false},
		{"BROWSER", "./open.sh", true},
		{"BROWSER", "firefox", true},
		{"PAGER", "less", true},
		{"EDITOR", "vim -c '!sh'", true},
		{"GIT_EDITOR", "bin/edit", true},
		{"SHELL", "none", true},
		{"GIT_SSH_COMMAND", "true", true},
	} {
		if got := GuardEnv(tc.name, tc.value); got != tc.want {
			t.Errorf("GuardEnv(%q, %q) = %v, want %v", tc.name, tc.value, got, tc.want)
		}
	}
}
