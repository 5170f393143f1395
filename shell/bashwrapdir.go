package shell

import "strings"

// WrapperDir reports whether the simple command words (a text of Texts: the command's base
// name first) is a wrapper that runs its command in another directory, and which: env -C
// DIR (--chdir), sudo -D DIR (--chdir), unshare -w DIR (--wd), parallel --workdir DIR. dir
// is "" when the directory is not known: a chroot (chroot NEWROOT, sudo -R, unshare -R,
// nsenter -r, where every path of the command is taken under the new root), nsenter -w (the
// target's directory), a login shell (sudo -i, su -, su -l, runuser -l: the target user's
// home), an option word with an expansion, or an abbreviation that may be any of them. The command the wrapper runs is among Texts too; a caller takes it as run
// after `cd DIR` (red team round 55: `env -C ~ rm -rf go`, `sudo -D ~ rm -rf go`).
func WrapperDir(words []string) (dir string, ok bool) {
	if len(words) == 0 {
		return "", false
	}
	name := words[0]
	if name == "chroot" {
		return "", true
	}
	spec, wraps := wrapperSpec(name)
	if !wraps {
		return "", false
	}
	var chdirShort, chdirLong, rootShort, rootLong string
	switch name {
	case "env":
		chdirShort, chdirLong = "-C", "--chdir"
	case "sudo":
		chdirShort, chdirLong, rootShort, rootLong = "-D", "--chdir", "-R", "--chroot"
	case "unshare":
		chdirShort, chdirLong, rootShort, rootLong = "-w", "--wd", "-R", "--root"
	case "nsenter":
		rootShort, rootLong = "-r", "--root"
		chdirShort, chdirLong = "-w", "--wd"
	case "parallel":
		chdirLong = "--workdir"
	case "su", "runuser":
		rootShort, rootLong = "-l", "--login" // a login shell starts in the user's home
	default:
		return "", false
	}
	args := make([]word, 0, len(words)-1)
	for _, w := range words[1:] {
		args = append(args, word{text: w, static: !strings.ContainsAny(w, "$`")})
	}
	opts, rest, parsed := spec.parseOptions(args)
	if !parsed {
		return "", true // an option of unknown value may be any of them
	}
	if (name == "su" || name == "runuser") && len(rest) > 0 && rest[0].text == "-" {
		return "", true // su - USER: a login shell, in the user's home
	}
	found := false
	for _, o := range opts {
		switch {
		case o.name == rootShort || o.name == rootLong && rootLong != "":
			return "", true
		case name == "sudo" && (o.name == "-i" || o.name == "--login"):
			return "", true // a login shell, in the target user's home
		case name == "nsenter" && (o.name == chdirShort || strings.HasPrefix(o.name, "--w")):
			return "", true // -w[DIR], --wd[=DIR]: an optional argument, or the target's
		case name == "parallel" && o.name == "--wd":
			return "", true
		case o.name == chdirShort && chdirShort != "" || o.name == chdirLong:
			if o.value.text == "" || !o.value.static {
				return "", true
			}
			if found && dir != o.value.text {
				return "", true // env -C a -C b: relative to each other
			}
			dir, found = o.value.text, true
		}
	}
	return dir, found
}

// IsWrapper reports whether package shell looks through the command name (a base name) as
// a wrapper, by its options (sudo, env, timeout, nice…), rather than by the speculative
// suffixes of Texts.
func IsWrapper(name string) bool {
	_, ok := wrapperSpec(name)
	return ok
}
