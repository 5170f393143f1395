package match

import (
	"strings"
	"sync"
)

// copier reports, for the copiers writeCheck.command does not read itself, whether prog
// with args may write over the program; ok is false when prog is none of them or args ask
// it for nothing it reads here (docs/decisions.md, "More extractors and copiers"). What a
// copier writes into a directory whose contents it does not name (a directory's copy, a
// remote's files, a repository, a container's bind mount) counts as anything under it.
func (w *writeCheck) copier(prog string, args []string) (hit, ok bool) {
	switch prog {
	case "cmake":
		return w.cmake(args)
	case "rclone":
		return w.rclone(args)
	case "degit":
		// degit [-f] [-c] [-v] [-m MODE] SRC [DEST]: the repository's files into DEST or the
		// working directory (degit's README).
		p := parseArgs(args, "m", "--mode")
		if len(p.ops) == 0 {
			return false, false
		}
		return w.into(orCwd(p.ops[1:])), true
	case "ditto":
		// ditto [OPTIONS] SRC... DEST (ditto(1), macOS): a directory's contents merged into
		// DEST, an archive's (-x) extracted into it, an archive (-c) written as it.
		p := parseArgs(args, "", "--bom", "--arch", "--zlibCompressionLevel")
		if len(p.ops) < 2 {
			return false, false
		}
		return w.into(p.ops[len(p.ops)-1:]), true
	case "docker", "podman", "nerdctl":
		return w.container(args)
	case "docker-compose", "podman-compose":
		return w.container(append([]string{"compose"}, args...))
	}
	return false, false
}

// cmake reads `cmake -E COMMAND ARGS` (cmake(1), "Command-Line Tool Mode", 3.25 and -t of
// 3.26): copy and copy_if_different copy files (to the last operand, or -t DIR);
// copy_directory and copy_directory_if_different a directory's contents into the last
// operand; rename, create_symlink, create_hardlink, make_directory, touch, touch_nocreate,
// remove, rm and remove_directory change each operand; tar x extracts into the working
// directory; chdir DIR runs a command in DIR, env and time run one: a DIR on the path
// counts whatever the command, which is read as any other.
func (w *writeCheck) cmake(args []string) (hit, ok bool) {
	if len(args) < 2 || args[0] != "-E" {
		return false, false
	}
	cmd, rest := args[1], args[2:]
	switch cmd {
	case "copy", "copy_if_different":
		return w.copyInto(parseArgs(rest, "t"), false, false), true // -t DIR as cp's
	case "copy_directory", "copy_directory_if_different":
		if len(rest) < 2 {
			return false, true
		}
		return w.into(rest[len(rest)-1:]), true
	case "create_hardlink":
		if len(rest) == 2 && w.linksFrom(parsed{ops: rest}) {
			return true, true
		}
		return w.anyMay(rest), true
	case "rename", "create_symlink", "make_directory", "touch", "touch_nocreate", "remove", "rm", "remove_directory":
		var ops []string
		for _, a := range rest {
			if !strings.HasPrefix(a, "-") {
				ops = append(ops, a)
			}
		}
		return w.anyMay(ops), true
	case "tar":
		if len(rest) > 0 && strings.Contains(rest[0], "x") {
			return w.cwdIn(), true
		}
		return false, true
	case "chdir":
		if len(rest) == 0 {
			return false, true
		}
		if w.into(rest[:1]) {
			return true, true
		}
		rest = rest[1:]
	case "env":
		for len(rest) > 0 && (strings.HasPrefix(rest[0], "-") || strings.Contains(rest[0], "=")) {
			rest = rest[1:]
		}
	case "time":
	default:
		return false, false
	}
	if len(rest) == 0 {
		return false, true
	}
	return w.command(rest[0], rest[1:]), true
}

// anyMay reports whether one of ops may be the program or a directory on its path.
func (w *writeCheck) anyMay(ops []string) bool {
	for _, op := range ops {
		if w.may(op) {
			return true
		}
	}
	return false
}

// rcloneBool are rclone's common flags that take no value (rclone(1), "Flags"); a long
// flag of neither list without "=" is read as taking the next word, which then may be an
// operand too.
var rcloneBool = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"--dry-run": true, "--progress": true, "--verbose": true, "--quiet": true,
		"--interactive": true, "--checksum": true, "--update": true, "--ignore-existing": true, "--ignore-times": true,
		"--size-only": true, "--no-traverse": true, "--create-empty-src-dirs": true, "--delete-excluded": true,
		"--copy-links": true, "--links": true, "--one-file-system": true, "--fast-list": true, "--metadata": true,
		"--no-update-modtime": true, "--immutable": true, "--inplace": true, "--check-first": true,
		"--delete-before": true, "--delete-during": true, "--delete-after": true, "--track-renames": true}
})

// rcloneValue are rclone's common flags that take a value (rclone(1), "Flags").
var rcloneValue = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"--include": true, "--exclude": true, "--filter": true, "--include-from": true,
		"--exclude-from": true, "--filter-from": true, "--files-from": true, "--transfers": true, "--checkers": true,
		"--bwlimit": true, "--config": true, "--log-file": true, "--log-level": true, "--min-size": true,
		"--max-size": true, "--min-age": true, "--max-age": true, "--max-depth": true, "--order-by": true,
		"--max-transfer": true, "--retries": true, "--low-level-retries": true, "--stats": true, "--timeout": true,
		"--contimeout": true, "--buffer-size": true, "--suffix": true, "--compare-dest": true, "--copy-dest": true,
		"--user-agent": true, "--multi-thread-streams": true, "--multi-thread-cutoff": true, "--tpslimit": true,
		"--cutoff-mode": true, "--header": true, "--stats-log-level": true}
})

// rclone reads `rclone COMMAND ARGS` (rclone(1), 1.60): copy, sync, move, copyto and
// moveto write their last operand (move and moveto remove the source too), bisync both,
// copyurl URL DEST its DEST, mount and nfsmount the mount point; touch, mkdir, delete,
// deletefile, purge, rmdir and rmdirs change their operand; --backup-dir DIR is written. A
// path is local as rcloneLocal reads it; a named remote is not (rclone's config may make
// one local: not read). An operand a value-taking flag may have
// taken counts as a destination too.
func (w *writeCheck) rclone(args []string) (hit, ok bool) {
	var ops, maybe, written []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			ops = append(ops, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "--backup-dir="):
			written = append(written, strings.TrimPrefix(a, "--backup-dir="))
		case a == "--backup-dir":
			if i+1 < len(args) {
				i++
				written = append(written, args[i])
			}
		case rcloneValue()[a]:
			i++
		case strings.HasPrefix(a, "--") && !strings.Contains(a, "=") && !rcloneBool()[a]:
			if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
				maybe = append(maybe, args[i])
			}
		case strings.HasPrefix(a, "-"):
		default:
			ops = append(ops, a)
		}
	}
	if len(ops) == 0 {
		return false, false
	}
	cmd, ops := ops[0], ops[1:]
	switch cmd {
	case "copy", "sync", "copyto", "bisync", "copyurl", "mount", "nfsmount":
		if len(ops) > 1 {
			written = append(written, ops[len(ops)-1])
		}
		if cmd == "bisync" && len(ops) > 0 {
			written = append(written, ops[0])
		}
	case "move", "moveto":
		written = append(written, ops...)
	case "touch", "mkdir", "delete", "deletefile", "purge", "rmdir", "rmdirs":
		written = append(written, ops...)
	default:
		return false, false
	}
	if len(maybe) > 0 && cmd != "copyurl" {
		written = append(append(written, maybe...), ops...) // any of them may be the destination
	}
	var local []string
	for _, p := range written {
		local = append(local, rcloneLocal(p)...)
	}
	return w.into(local), true
}

// rcloneLocal returns the local paths the rclone path p may name (rclone(1), "Syntax of
// remote paths"): p itself when it has no ":" or a "/" before its first one; the path of
// an on-the-fly remote (":BACKEND[,PARAMS]:PATH") whose backend is "local" or a prefix of
// it, and the local remote a wrapping backend's remote= or upstreams= names (crypt, alias,
// union: their path on it is not followed, so the remote's root counts).
func rcloneLocal(p string) []string {
	p = strings.NewReplacer(`"`, "", `'`, "").Replace(p)
	if rest, ok := strings.CutPrefix(p, ":"); ok {
		spec, path, _ := strings.Cut(rest, ":")
		name, params, _ := strings.Cut(spec, ",")
		if name != "" && strings.HasPrefix("local", name) {
			return []string{orDot(path)}
		}
		var out []string
		for _, kv := range strings.Split(params, ",") {
			k, v, _ := strings.Cut(kv, "=")
			if k == "remote" || k == "upstreams" {
				for _, u := range strings.Fields(v) {
					out = append(out, rcloneLocal(u)...)
				}
			}
		}
		return out
	}
	i := strings.IndexByte(p, ':')
	if i < 0 || strings.Contains(p[:i], "/") {
		return []string{p}
	}
	return nil
}

// orDot returns p, or "." when p is empty.
func orDot(p string) string {
	if p == "" {
		return "."
	}
	return p
}
