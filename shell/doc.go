// Package shell is hookcore's bash command-semantics engine: it reads one Bash tool call's
// command line the way bash would run it and says which commands it runs.
//
// Parse parses the line with mvdan.cc/sh/v3/syntax (LangBash, bounded first by
// internal/shbound) and walks every simple command it runs: behind list operators, pipes,
// subshells and substitutions; behind wrappers (sudo, env, nice, timeout, xargs, find
// -exec, ...; bashwrap.go); inside the scripts of shells (bash -c, here-documents, stdin;
// bashshell.go), eval, trap, aliases and the other contexts where bash re-reads data as
// code (basheval.go); and, for allow rules, write redirections (bashallow.go). Any line
// may run in zsh (Claude Code and Codex run it there), so zsh's shapes that run code or
// change the command, and that bash reads as inert, are read as zsh runs them or make the
// line opaque, whatever the shell (zsh.go). The result,
// Commands, has two views:
//
//   - Texts, for deny rules (Match): each simple command with wrappers stripped and the
//     command name reduced to its base name. A guard asks "may this line run rm?"; when the
//     line can not be analysed (Opaque) the answer is yes.
//     For deny rules only, a program that is not known to be inert also counts as running
//     each suffix of its words and each operand that reads as a command line
//     (bashtail.go), the text the line feeds it on any stream is read as code
//     (bashstdin.go, bashstream.go), Vim's Ex commands are read by an allow list
//     (bashex.go), and the value of every assignment is read as a command line
//     (bashenv.go); what can not be analysed there makes every deny rule match
//     (MatchesAll) without changing allow rules. A text read as code that does not parse
//     makes every deny rule match too, except one read on a guess (an operand, a value, a
//     non-shell's stdin), which is cut at its operators instead (denyCode, bashtail.go).
//   - Units, for allow rules (Allows): each command as written, with its assignments, plus
//     every write redirection. A permission asks "is everything this line runs permitted?";
//     when the line is Opaque the answer is no.
//
// A line that is only plain words (letters, digits, - _ . / , : + =) separated by single
// spaces and the operators &&, ||, ; and | — what agents send most — is split by a small
// lexer instead (fastline.go) and its simple commands go through the same walk; any other
// byte or shape goes to the parser. The two give the same Commands (TestFastLineEqualsParser,
// FuzzFastLine).
//
// A word whose value is not known when the line is read ($f, "$@", $(...), a glob, {a,b})
// is a hole in its text: MatchRule (and Match) answer whether a deny rule matches for some
// value of the holes (hole.go); allow rules match the word as written.
//
// The rule syntax (Bash(rm *), the `if` language, the index of rules) is package match's;
// match compiles a rule to a regular expression and hands it to Match or Allows. The cases
// each construct must hold are in match's package doc ("Permission rules", "Allow rules")
// and in this package's tests, which check them through match's rules as hooks see them.
//
// Source: Claude Code's Bash permission rules (each subcommand of a compound command is
// checked; docs/security.md counts the bypasses covered per surface).
package shell
