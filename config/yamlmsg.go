package config

import "strings"

// YAMLMessage returns the message of a YAML parser error as hookcore prints it: a tab the
// message quotes is written \t, and a message about a tab gets the hint "(YAML indents with
// spaces, not tabs)" (new-user trial, stop 33: a file indented with a tab printed "found
// character '	' that cannot start any token", the tab itself between the quotes).
func YAMLMessage(msg string) string {
	if !strings.Contains(msg, "\t") && !strings.Contains(msg, "tab character") {
		return msg
	}
	return strings.ReplaceAll(msg, "\t", `\t`) + " (YAML indents with spaces, not tabs)"
}
