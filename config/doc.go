// Package config reads hookcore configuration: three dialects, layered discovery, positions
// and validation (DESIGN.md section 4). Configuration is plain data: Parse checks that every
// matcher and `if` filter compiles, and throws the compiled forms away; the Runner compiles
// them again when it is built.
//
// # Dialects
//
// One model, three input shapes, told apart by the shape of the top-level `hooks` value (the
// YAML parser also reads JSON, so both give line and column for every problem):
//
// Native, the MiniCode YAML dialect, extended: `hooks` is a sequence.
//
//	hooks:
//	  - id: block-dangerous-rm
//	    event: pre_tool_use
//	    matcher: Bash
//	    if: 'args.command =~ /rm\s+-rf\s+\//'
//	    action: {type: command, command: "echo 'dangerous rm blocked'", timeout: 10s}
//	    reject: true
//
// Hook keys: id, event, matcher, if, action, reject, blocking, once, async, parallel,
// timeout, on_error, exit_codes, enabled (and description, ignored). Action keys: type,
// command, args, message, url, method, headers, body, allowed_hosts, allowed_env_vars,
// prompt, model, timeout, name. In this dialect `type: prompt` with `message:` is prompt
// injection (canonical type "inject") and `type: prompt` with `prompt:` is the LLM judge.
//
// Flat, the codebot JSON settings: `hooks` maps event names to hook entries that carry
// the action keys directly; an entry without `type` but with `command` is a command hook
// (the s08 teaching harness).
//
//	{"hooks": {"PreToolUse": [{"type": "command", "command": "exit 2", "matcher": "bash",
//	  "if": "/rm -rf/", "blocking": true, "timeout": 30}]}}
//
// Nested, the Claude Code settings: `hooks` maps event names to matcher groups, each with
// its own `hooks` sequence. Claude Code's camelCase keys (allowedEnvVars, statusMessage,
// disableAllHooks) are accepted, and the other keys of a settings file (permissions, env,
// model, ...) are ignored.
//
//	{"hooks": {"PreToolUse": [{"matcher": "Edit|Write",
//	  "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 60}]}]}}
//
// A mapping may mix both JSON shapes: each entry with a `hooks` key is a matcher group, any
// other entry a flat hook. In the JSON dialects `type: prompt` is always the LLM judge.
//
// Other agents' own hook files are dialects too, chosen by path (their content can be
// exactly Claude Code's) or by the caller with ParseDialect: Gemini (.gemini/settings.json,
// gemini.go; a Gemini CLI extension's hooks/hooks.json, found by discovery or named beside
// its gemini-extension.json, geminiext.go), Codex (.codex/hooks.json and the [hooks] tables of .codex/config.toml,
// codex_toml.go), Cursor (.cursor/hooks.json, cursor.go) and Copilot (.github/hooks/*.json,
// copilot.go). Each maps the agent's events and tool names onto hookcore's with that agent's
// semantics. A hookcore bridge entry (`hookcore hook AGENT`, or an http hook to a local
// `hookcore serve`'s /hook/AGENT) loads disabled in such a file and in Claude Code's
// settings: every dialect but the native one.
//
// Event names are matched after normalisation (hook.ParseEvent): `pre_tool_use`,
// `PreToolUse` and the MiniCode alias `turn_start` all work in every dialect.
//
// A timeout is a number of seconds (30, 1.5) or a duration string ("10s", "1m"); negative,
// above 24h, NaN or infinite is an error. In the native dialect a hook may set both `timeout` and
// `action.timeout`; action.timeout wins (Hook.EffectiveTimeout) and a warning says so.
//
// # Hook ids
//
// A hook's id is its `id` key or, when absent, "<Event>#<n>": the canonical event name and
// the hook's 1-based count among that event's hooks in the file ("PreToolUse#1"). Generated
// ids skip names the file uses explicitly; explicit ids must be unique within a file.
//
// # Validation
//
// Parse reports every problem at once, sorted, as an ErrorList of "file:line:col: hook-id:
// message" (go/scanner style), pointing at the offending value: unknown events and action
// types (with a "did you mean" suggestion), missing required fields per action type, reject
// on a non-gate event, async on a gate event, a matcher or `if` that does not compile (a
// condition syntax error points at its column), duplicate ids, bad exit_codes and on_error
// values, values of the wrong type, absurd timeouts, a command hook with both command and
// args, an http url that net/url does not parse or that has no host, an allowed_hosts
// entry the SSRF guard would not load (not a host name, IP address or CIDR prefix).
// Unknown keys, a matcher on an event
// without a match field and fields that the action type ignores are warnings. A hook entry
// with an error is skipped (File.Broken) and the file's valid hooks load, as Claude Code
// skips an invalid entry (issue 8.2); a file that cannot be parsed as a whole is Failed and
// yields no hooks. Lint adds the warnings of `hookcore
// check` that need the file system or the harness's tool list.
//
// # Limits
//
// A project's config file comes from the repository, and the YAML parser's time and memory
// grow with the square of the nesting and far faster than the size (a 200 KB file of
// brackets took 15 GB), so a file is checked before it is parsed (CheckLimits, one linear
// pass) and is one error, unparsed, when it is larger than 512 KiB (MaxFileSize), nests
// brackets ([ and {, counted everywhere, quoted or not) more than 64 deep (MaxFlowDepth), or
// has a line indented more than 256 columns (MaxIndent; the "- ", "? " and ": " that open a
// nested block on the same line count as indentation). After parsing, a file with more than
// 10 000 hooks (MaxHooks) or whose aliases stand for more than 512 KiB (MaxAliasExpansion,
// nested aliases and merge keys expanded) is one error and its hooks are not decoded. Real
// configs are a few KiB, nested under 15 deep. `hookcore replay --expect` files get the
// same pre-parse caps.
//
// # Layers
//
// Discovery finds the user (~/.hookcore/hooks.yaml), project (<root>/.hookcore/hooks.yaml)
// and local (<root>/.hookcore/hooks.local.yaml) files, where root is the git top-level of
// the working directory, else the working directory — and in each of those layers the files
// of Claude Code (.claude/settings.json, settings.local.json), MiniCode
// (.minicode/config.yaml, config.local.yaml) and codebot (.codebot/settings.json), then
// Claude Code's managed settings (Managed) and --settings files (see Discovery.Paths).
// Discovery never fails because of one file: a path it cannot examine is returned and is
// that file's load error. Every file is read with ReadFile (non-blocking open, regular files
// only, size-capped), and a file named twice loads once. Load parses them into a Set whose
// hooks are appended in layer order, never overridden; `disable_all_hooks: true` in any file
// turns all of them off but the managed ones (see Set.Hooks).
package config
