// Package match decides which hooks apply to an event: the tool-name Matcher and the `if`
// filters (DESIGN section 5). Both levels must pass, matcher first (codebot).
//
// Everything is compiled once (CompileMatcher, CompileIf) and is then immutable and safe for
// concurrent use. Regexes are RE2 (Go's regexp), so matching is linear in the input and a
// user's pattern can not hang the agent; globs are bounded in the same spirit. Matcher.Match
// does not allocate. The `if` filters read a Subject, built once per event by NewSubject,
// which compacts, decodes and parses the arguments lazily and at most once, whichever
// filters ask.
//
// The package imports no other hookcore package: it takes plain values (event name, tool
// name, arguments JSON).
//
// # Matchers
//
// A matcher tests the event's match value (the tool name on tool events). Its syntax follows
// Claude Code and codebot, chosen by shape:
//
//   - "" or "*": any value.
//   - "/re/" or "/re/i": an unanchored RE2 search (codebot); flags i, m and s.
//   - "Bash", "Edit|Write", "Edit, Write": exact names (letters, digits, '_', '-' and spaces),
//     compared case-insensitively. "Edit|Write" matches neither "WriteFile" nor
//     "NotebookEdit".
//   - anything else ("mcp__github__.*", "Notebook.*"): an RE2 regex that must match the whole
//     name. Claude Code leaves it unanchored, so that "Edit.*" there also matches
//     "NotebookEdit"; here it does not.
//
// A Claude Code settings file's matchers are compiled with CompileClaudeMatcher, which reads
// them as Claude Code does: names case-sensitive, no "/re/" form ("/Write/" is the regex of
// that text, slashes included), only exactly "" and "*" any. Translate writes a matcher's
// regex for an agent that reads JavaScript's or Rust's regexes (hookcore convert).
//
// # If filters
//
// An `if` filter has one of three syntaxes, told apart by shape:
//
//	/rm -rf/i                                          Regex
//	Bash(rm *)   Write(src/**/*.go)   Read(./.env)     Rule
//	tool == "Bash" && args.command =~ /rm\s+-rf\s+\//  Condition
//
// A Regex filter ("/re/flags", flags from "ims") is searched, unanchored, in the tool
// arguments as compact JSON (codebot's argFilter): {"command":"rm -rf /"}.
//
// # Permission rules
//
// A Rule is Claude Code's permission rule syntax "Tool(pattern)", one rule: as in Claude
// Code, "Bash(rm *) || Bash(curl *)" is the rule Bash with the pattern "rm *) || Bash(curl *"
// (If.JoinedRules tells a loader so, whatever joins the two: "||", "or", ';', a space). It
// matches a call when the
// tool name equals Tool, case-insensitively (codebot's "bash" is Claude Code's "Bash"), and
// the pattern matches the tool's main argument. "Tool", "Tool()" and "Tool(*)" match every
// call of the tool. The main argument and the pattern's meaning depend on the tool:
//
//   - Bash: `command`, parsed as bash by package shell (mvdan.cc/sh). The rule matches when any simple command
//     in it matches the pattern: in pipelines, && and || lists, after ';' or a newline, in
//     subshells, blocks, functions, if/for/while/case bodies and in $(...), `...` and <(...).
//     A simple command is its words without leading assignments (FOO=1 rm x is "rm x"),
//     joined by single spaces, each word unquoted where its value is static ('rm', r\m and
//     r""m are rm) and kept as source text where it is not ($DIR). In the pattern '*'
//     matches any run of characters, spaces and slashes included; a trailing ":*" or " *"
//     makes it a prefix at a word boundary ("npm run test:*" matches "npm run test" and
//     "npm run test -v", not "npm run testing"; "rm *" matches "rm -rf out" and "rm", not
//     "rmdir out"). What the command runs is looked through as described under "Bash
//     commands" below. A quoted mention is not a command: echo 'rm -rf /' does not match
//     Bash(rm *).
//   - Read, Write, Edit, MultiEdit, ReadFile, WriteFile, EditFile: `file_path` and `path`;
//     LS: `path`, `dir_path` (Gemini CLI's list_directory) and `file_path`; NotebookEdit,
//     NotebookRead: `notebook_path`. Every one of these the call has is a path of the call
//     (a tool may read any of them: a decoy `path` next to `file_path` chose which one the
//     rule saw): the rule matches when any path matches, and permits the call (AllowedBy)
//     only when it permits every path. The pattern is a doublestar glob
//     ('*' does not cross '/', '**' does) over the cleaned path. "//etc/passwd" is the
//     absolute path /etc/passwd. A pattern relative to the project ("src/**/*.go", "./.env",
//     "/src/**", with the leading "./" or "/" dropped) is anchored at the project root when
//     the Subject knows it (NewSubjectAt): "docs/**" matches <root>/docs/a.md, not
//     <root>/sub/docs/a.md nor /tmp/docs/a.md, as Claude Code 2.1.332 anchors it. Without
//     a root, and for "~/" patterns (the home directory is not known here), the pattern
//     matches the path or any trailing part of it after a '/': "src/**/*.go" matches
//     "/repo/src/a/b.go". That errs on the side of running the hook. As Claude Code
//     2.1.332 reads a rule, the way .gitignore reads a line, a pattern with no '/' but a
//     leading "./" or a trailing one names a file or directory at any depth below the root
//     ("./.env" and ".env" match <root>/sub/.env; "/.env" only <root>/.env), and a path
//     inside a directory the pattern names is matched too ("secrets" matches
//     <root>/lib/secrets/key.txt, "~/.ssh" ~/.ssh/id_rsa). Both widen deny semantics only.
//     The path is matched in every spelling that names the same file (red team: Edit(**/.env)
//     allowed /proc/self/cwd/.env): as written (relative: in the root and in the call's
//     cwd, Subject.WithCwd), with ~/ in the home (WithHome, else $HOME), /proc/self/cwd/X
//     (any pid, thread-self) in the cwd, /proc/self/root/X as /X, /proc/…/fd/N/X and
//     /dev/fd/N/X (directory unknown) as X in the cwd and in the root, and each with the
//     symlinks of its longest existing prefix resolved (`link/..` as the kernel reads it).
//     A rule matches when any spelling matches; `file_path ~= GLOB` does the same; a permit
//     (AllowedBy) needs every spelling permitted. Two cases no spelling shows fail closed
//     (red team round 2): a path that names an existing regular file with more than one
//     hard link (Lstat's link count; not detected on Windows), whose other names are not
//     known, and a path argument (any of the keys the rule reads) that is not a JSON string
//     or holds a NUL byte. Each matches every path rule of its tool and `file_path ~= GLOB`,
//     whatever the pattern, and is permitted by no path rule and no condition clause on
//     file_path. `file_path ==` and `=~` compare the text as written.
//   - A Read rule also reads the calls that read files without the Read tool (Claude Code
//     2.1.332 applies its Read permission rules to Grep and Glob; its `if` did not, see
//     docs/decisions.md, "Read rules and searches (stop 29)"). A search (Grep, Glob, LS;
//     Gemini CLI's grep_search, glob, list_directory) is matched by its root — `path` or
//     `dir_path`, else the Subject's cwd (WithCwd), else its root — as a Read of that path
//     (Claude Code denied a Grep of .env, secrets and secrets/key.txt under
//     Read(./secrets/**)), and by its glob (Grep's `glob`, split at spaces and commas as
//     Claude Code splits it, "!x" skipped; grep_search's `include_pattern`; Glob's
//     `pattern`) when the glob, under the root and at any depth, can match a path the rule
//     matches and spells at least one byte of each name the rule spells, letters in
//     either case: "**/.env", ".e*" and "*.env" are searches of .env for Read(**/.env);
//     "*", "**/*" and "*.go" are not, so a search of the whole project runs (Claude Code
//     runs it and leaves the denied files out of the results, which a hook cannot do); a
//     search with no glob is one of "**", which only a rule that spells no name matches
//     (Read(./**) for a search of the project). A
//     read of many files (Gemini CLI's read_many_files, which the bridge names Read: every
//     entry of `include`, and of `paths` before 0.61.0) is matched by an entry the rule
//     matches as a path, and by a glob that can match a path the pattern names, whatever
//     it spells ("**/*" and "src/**" for Read(**/.env): the entry is the model's), or a
//     path inside a directory the pattern names that it spells; an entry ending in '/' or
//     naming an existing directory also reads the files below it. A glob with a ".."
//     component, an argument or entry that is not a string or holds a NUL byte, and globs
//     too large to compare (their automata's product past 4 Mi states) match. "Read"
//     alone matches every search and read.
//   - Glob, Grep: `pattern`; WebFetch: `url`; any other tool: the first argument, in the order
//     written, whose value is a string. '*' matches any run of characters. The WebFetch
//     pattern "domain:example.com" matches the host of a URL the call fetches, example.com
//     or a subdomain of it, case-insensitively. The host is read as the agents read it, with
//     a WHATWG URL parser (red team round 39: "http://0x7f.1/", "http:\\127.0.0.1",
//     "http://127.0.0.1.:80/" are 127.0.0.1 to Claude Code, and "https://ｅvil%2ecom/" is
//     evil.com), with the standard's IDNA mapping, which has no STD3 rules (red team round
//     40: "https://a\u037Eb.evil.com/" is a;b.evil.com to Node and Claude Code), without one
//     trailing dot or the brackets of an IPv6 address, an IPv4-mapped address as IPv4. Text
//     with no scheme, or whose scheme leaves no host ("evil.com:443/x"), is read once more
//     with "https://" in front; text with a scheme never is. A URL with a scheme that the
//     parser rejects (one with "://", or starting with a scheme) is unread: it matches
//     every domain rule and is permitted by none, since the agent's parser may read a host
//     this one does not (fail closed). The pattern's domain is read the same way
//     ("EXAMPLE.com." is example.com, "bücher.de" xn--bcher-kva.de). The URLs are the `url`
//     argument and those of the `prompt` argument as Gemini CLI's web_fetch finds them
//     (each space-separated token with "://" that is an http or https URL, or that does not
//     parse). With several URLs a rule matches when any URL's host matches; an allow rule
//     (AllowedBy) permits the call only when every host matches, and a call with no host,
//     or with an unread URL, is permitted by none. Each URL is read
//     once, the agents' way, never as "any of several parsers' hosts": that is what keeps
//     both a deny rule and an allow rule right.
//
// Arguments that are not valid JSON match every rule of the tool; a missing main argument
// matches no rule that has a pattern.
//
// # Allow rules
//
// If.Match has deny semantics, right for a guard: a Bash rule matches when any simple
// command of the line matches, and a line that cannot be analysed matches every rule (the
// hook runs and decides). A rule that permits needs the opposite: AllowedBy (and If.Allows)
// permits a call only when the rules, together, cover all of it (issue 10):
//
//   - Arguments that are not valid JSON are permitted by no rule.
//   - A Bash line is permitted when it can be analysed (it parses, is within the bounds,
//     every command name is a fixed word, and no word reaches a context where bash
//     evaluates it as code unless it is provably inert; see below) and each command it
//     runs is matched by one of the Bash(...) rules. A command is matched as written, its
//     name not reduced to a base name (./ls is not ls), and each assignment, leading or
//     bare, is a command of its own (PATH=/tmp/x ls needs a rule for PATH=/tmp/x too), as
//     are a declare/export/local and a statement of redirections alone ("> FILE"). The
//     a redirection that writes a file is a unit of its own: Bash(echo *) does not permit echo x > FILE (Bash(> FILE) does; /dev/null and 2>&1 are no writes). A wrapper, shell, eval, alias, trap or find -exec runs a second command, and
//     both must be matched: Bash(sudo *) alone does not permit sudo rm -rf x. A command
//     run by xargs gets more words, so only a rule ending in " *" or ":*" permits it.
//     Test clauses and arithmetic are not commands (nothing to permit) once analysed.
//   - The bare rule "Bash" (or "Bash(*)") permits every Bash call.
//   - A path rule permits a call when it permits every path argument the call has (see
//     "Permission rules"), and a path only where it can place it: an absolute rule ("//etc/*")
//     the whole path; a relative one ("src/**") the path relative to the directory given
//     to NewSubjectIn, which the path must not leave (with no directory, relative paths
//     only); a "~/" rule nothing (the home directory is not known). The pattern permits
//     the paths its glob matches: neither at any depth nor inside a directory it names.
//     Deny semantics match any trailing part instead, which errs toward running the hook.
//   - A Read rule permits no search (an allow for one is a Grep or Glob rule) and no read
//     of many files, whose globs it does not try to contain; "Read" alone, which permits
//     every Read call, permits a read of many files too.
//   - Any other rule, a Regex and a Condition permit the call when they match it. A Regex
//     or Condition sees the whole command: "/^ls/" permits "ls && rm -rf x"; prefer rules.
//
// # Bash commands
//
// So that a guard is not bypassed, a Bash rule is also tried on what a command runs
// (nested scripts are analysed in turn, each one level deeper):
//
//   - A command path is reduced to its base name: /bin/rm is rm.
//   - Wrappers are stripped along with their options and operands: sudo -iu root rm -rf /
//     is rm -rf /. Short options may be grouped, an option's argument attached (-uroot) or
//     separate, long ones written --opt=ARG or --opt ARG, and "--" ends them. The wrappers
//     and the options that take an argument are listed in a table (wrapperSpec in
//     shell/bashwrap.go): sudo, doas, pkexec, env, nohup, nice, timeout, stdbuf, time, command,
//     builtin, exec, xargs, setsid, ionice, chrt, taskset, unshare, nsenter, chroot, strace,
//     ltrace, flock, busybox. The list is finite; for deny rules a program not known to be
//     inert is assumed to run its arguments: each suffix of its words is a command too, and
//     an operand or the text after an '=' that reads as a command line is parsed
//     (shell/bashtail.go); the value of every assignment is parsed as a command line too
//     (shell/bashenv.go).
//     env -S STRING (--split-string) is split into words as env does and they are the
//     command; sudo and env skip NAME=value words. Some wrappers run a shell script:
//     su/runuser -c SCRIPT (and su USER SHELL-ARGS), script -c, flock -c; watch and GNU
//     parallel join their command words into one (watch -x does not); a command run by
//     xargs can get more words, so a shell script or a missing command behind it matches
//     every rule, as does xargs -I R with R in the command name. su, runuser, sudo -s/-i,
//     doas -s, script, unshare, nsenter and chroot with no command run a shell that reads
//     stdin (below).
//   - A shell (sh, bash, dash, zsh, ksh, ash, mksh, rbash, busybox sh): its options are
//     parsed (-o, +o, -O, +O, --rcfile, --init-file and --emulate take an argument; -ec is
//     -e -c) and its script is the first operand after them when -c is given; with -s or no
//     operand it reads its script from stdin; otherwise the operand is a script file,
//     which is not looked into, except /dev/stdin (stdin) and /dev/fd/N (matches every
//     rule). A shell or wrapper option that is not static (-$X, $FLAGS) matches every
//     rule: it may be -c.
//   - A script read from stdin is analysed when the command's own redirections make stdin
//     a here-document (bash <<'EOF') or here-string (bash <<< 'rm x') with static content;
//     from anything else (a pipe, a file, a process substitution, the agent's stdin, an
//     enclosing block's redirection) the script is unknown and the command matches every
//     Bash rule. source FILE and . FILE read FILE as a shell does its script file.
//   - eval ARGS, trap ACTION SIGNAL..., and find's -exec/-execdir/-ok/-okdir commands;
//     a find -exec script that holds "{}" (replaced by a file name) matches every rule.
//   - Where bash re-reads data as code (shell/basheval.go): arithmetic ($((..)), ((..)), let,
//     for ((..)), subscripts, substring offsets, [[ -eq ]], declare -i, RANDOM=, OPTIND=),
//     names (declare/typeset/local/export/readonly, namerefs, read, mapfile, printf -v,
//     getopts, wait -p, unset, test -v, [[ -v ]], ${!x}, quoted compound arrays to
//     declare -a), startup and prompt code (BASH_ENV, ENV, BASH_FUNC_*, PROMPT_COMMAND,
//     PS0-PS4, --rcfile, --init-file, ${x@P}) and builtins that take code (mapfile -C,
//     complete -C/-F, compgen -C/-W, bind -x, enable -f, fc): a static string is analysed
//     as the script it is, and anything not provably inert (a static text with no '$', '`'
//     or '[') makes the command match every rule. A variable's value is not tracked by
//     name: a line that both may bind a value that is not inert (an assignment, read, a
//     for list, function arguments, a sourced file) and evaluates some variable's value
//     matches every rule. hash -p PATH NAME is like an alias of NAME to PATH. fish, csh,
//     tcsh and other non-POSIX shells match every rule; yash, posh, lksh, oksh, ksh93,
//     hush, bosh and the busybox and toybox applets are analysed as sh.
//   - alias NAME=VALUE: a command whose first word is NAME is also matched with NAME
//     replaced by VALUE (alias x='rm -rf'; x out is rm -rf out), wherever the definition
//     is (a trap action may run after a later definition); after a VALUE ending in a blank
//     the next word is expanded too. An alias whose value is not one static simple command,
//     or that is defined twice with different values, matches every rule where it is used.
//
// A word whose value is not known when the line is read — a parameter expansion ($f, "$@"),
// a command substitution, an unquoted glob (-r?, *) or brace expansion (-r{f,}) — may be
// whatever a deny rule names at its place: the rule matches when it matches the command for
// SOME value of those words (f=-rf; rm $f x matches Bash(rm -rf:*), p=push; git $p matches
// Bash(git push:*)), which shell/hole.go decides on the rule's compiled program. Such a word
// may also vanish, with its blank ("rm $f x" matches Bash(rm x)). An allow rule matches the
// word as written ("ls $f" is permitted by Bash(ls *), not by Bash(ls -la)). $'...' is
// decoded ($'-rf' is -rf, $'\x72m' is rm) and $"..." read as "..." in every position;
// a command run by xargs ends in such a word (the words xargs appends), and find -exec's
// "{}", xargs -I's marker and an unquoted leading tilde (~/x: the home directory is not
// known) are such words too. git's global options before the subcommand (-C DIR, -c K=V, --git-dir[=],
// --work-tree[=], --namespace[=], --config-env[=], --no-pager, -P, -p, --paginate, --bare,
// --no-replace-objects, --literal-pathspecs, ...; gitGlobal in shell/bashwrap.go) are
// skipped: git -C . push origin matches Bash(git push:*). A -c or --config-env key not
// known to run no command (alias.*, core.pager, ...; gitInertConfig) and --exec-path=DIR
// match every rule.
//
// Inside double quotes and unquoted here-documents, bash reads single quotes in ${x:-'...'}
// (and -, =, :=, +, :+, nested ${...}) as literal characters and expands what they hold
// (echo "${x:-'$(rm -rf x)'}" runs rm); mvdan.cc/sh parses them as quotes, so each such
// '...' or $'...' that holds '$' or '`' is analysed again as double-quoted text. A nameref
// declared without a literal target (declare -n r, local -n r, typeset -n r s) gets its
// target from what the line assigns later, and each use evaluates it (subscript included):
// it matches every rule.
//
// A command that does not parse, a command name that is not static ($CMD, $(which rm))
// or holds glob or brace characters (/bin/r?), a script that is not static
// (bash -c "$S", a here-string with $X), and scripts nested more than 4 deep (each of the
// nestings above is a level) match every Bash rule: the hook runs and decides. So does a
// command the parser can not take safely, because it recurses once per nesting level and
// a model-written command of 200 000 nested parentheses would exhaust the stack: one
// longer than 256 KiB or with more than 1000 nesting tokens ( { [ ` if for while ...,
// counted, not nested; see internal/shbound), one whose syntax tree is more than 1000 deep
// (a pipeline or && list of 500 commands), a simple command behind more than 16 wrappers
// (or env -S strings), and one whose texts would exceed 16 MiB (each use of an alias
// copies its value). Every script is parsed at most once per place it appears, so the
// work stays linear in the command.
//
// # Conditions
//
// A Condition is MiniCode's language: clauses "field op value" joined by && or by ||, never
// both (an error: there is no precedence to get wrong).
//
// Fields: tool (alias tool_name); event (alias hook_event_name), the canonical event name
// given to NewSubject; args (alias tool_input), the arguments as compact JSON; args.x,
// args.a.b, args.items.0, an argument at a path of object keys and array indexes; file_path,
// each of the arguments file_path, path and notebook_path that the call has (stop 28): a
// clause on it holds with deny semantics (Match) when it holds for any of them, with permit
// semantics (AllowedBy) when it holds for every one, and reads the empty string when the
// call has none. Any other field, and a missing argument, reads as the empty string. A string argument compares as itself, any other as
// its compact JSON text, so the number 5 equals both 5 and "5".
//
// Operators: == and != compare exactly, except that tool compares case-insensitively (as the
// matcher does) and event ignores case and underscores ("pre_tool_use" equals "PreToolUse");
// =~ searches an RE2 regex, written /re/flags ("\/" is a slash inside) or as a string; ~= is
// a doublestar glob ("vendor/**" matches "vendor/github.com/acme/lib/x.go", "*.py" does not
// match "src/app.py"); names holds when some word of the text, read as bash words, may become
// the file name given once bash, curl or wget has expanded it: quotes dropped, braces
// expanded, any other expansion standing for any text and a glob for file-name text (see
// names.go; `args.command names ".env"` holds for cat .en{u,v}, not for cat .envrc). The
// values a line assigns count as written where it expands the variable (x=X.env; cat
// ${x:1} holds), and a line that decodes text into a variable (printf -v, ${x@P}) waives the
// count (names_line.go).
//
// Values: "double-quoted" (escapes \" \\ \n \t \r; a backslash before any other character is
// kept, so "\d+" is the regex \d+), 'single-quoted' (escapes \' and \\), /regex/ (=~ only),
// or a bare word up to the next space, && or || (5, true, fast).
//
// Errors are *SyntaxError values that give the byte offset of the problem in the expression.
package match
