package shell

import "strings"

// longOption reports whether arg, a long option as written without its "=value" ("--pag"),
// names the long option known ("--pager"): equal to it, or a prefix of it with at least one
// byte after "--". GNU getopt_long, argp and git's parse-options accept any unambiguous
// prefix of a long option (red team 2: env --sp='rm -rf x', sort --compress-prog=bash, git
// grep --open=CMD, man --pag=CMD); an ambiguous prefix is refused by the tool, so reading
// it as the known option errs toward matching. Every table of long options in this
// package is compared through it, except bash's own (--rcfile), which bash compares whole.
func longOption(arg, known string) bool {
	return len(arg) > 2 && strings.HasPrefix(arg, "--") && strings.HasPrefix(known, arg)
}

// longName returns the option of known that arg (a long option as written, without
// "=value") names, by longOption: an exact match first, then the first option arg is a
// prefix of; arg itself when none.
func longName(arg string, known ...[]string) string {
	for _, list := range known {
		for _, k := range list {
			if arg == k {
				return k
			}
		}
	}
	for _, list := range known {
		for _, k := range list {
			if longOption(arg, k) {
				return k
			}
		}
	}
	return arg
}
