package match

import (
	"slices"
	"strings"
	"sync"
)

// containerGlobal are docker's and podman's global options that take a value, before the
// command (docker(1), podman(1)).
var containerGlobal = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"-H": true, "--host": true, "-c": true, "--context": true, "--config": true,
		"-l": true, "--log-level": true, "--tlscacert": true, "--tlscert": true, "--tlskey": true, "--url": true,
		"--connection": true, "--root": true, "--runroot": true, "--storage-driver": true, "--cgroup-manager": true,
		"--namespace": true, "-n": true, "--address": true, "-a": true}
})

// composeGlobal are docker compose's options that take a value, before its command
// (docker compose(1), docker-compose(1), podman-compose(1)).
var composeGlobal = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"-f": true, "--file": true, "-p": true, "--project-name": true,
		"--project-directory": true, "--profile": true, "--env-file": true, "--ansi": true, "--progress": true,
		"--parallel": true, "-H": true, "--host": true, "-c": true, "--context": true}
})

// container reads docker's, podman's and nerdctl's commands that write the host's files:
// cp SRC DEST (`docker cp`, `docker container cp`) to a host DEST as cp -r does; run and
// create (and `service create`) with a bind mount, -v HOSTDIR:PATH[:OPTS] or --volume, or
// --mount type=bind,source=HOSTDIR (src=), which makes HOSTDIR writable by whatever runs in
// the container: anything under it counts as written unless the mount is read-only (ro,
// readonly); a --mount's volume-opt=device=PATH too. A -v source that is a bare name is a
// named volume. And build's -o/--output DIR or type=local,dest=DIR. `compose run` (and
// docker-compose's, podman-compose's run: w.command passes them as `compose ...`) is read
// as run; the compose file's own volumes are not (stop 33).
func (w *writeCheck) container(args []string) (hit, ok bool) {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		if containerGlobal()[args[i]] {
			i++
		}
		i++
	}
	if i >= len(args) {
		return false, false
	}
	cmd, rest := args[i], args[i+1:]
	if cmd == "compose" {
		// docker compose [OPTIONS] COMMAND: its run takes -v and --volume as docker run
		// does (docker-compose run(1)); what the compose file mounts is not read (stop 33).
		j := 0
		for j < len(rest) && strings.HasPrefix(rest[j], "-") {
			if composeGlobal()[rest[j]] {
				j++
			}
			j++
		}
		if j >= len(rest) || rest[j] != "run" {
			return false, false
		}
		cmd, rest = "run", rest[j+1:]
	}
	if (cmd == "container" || cmd == "service" || cmd == "buildx" || cmd == "image") && len(rest) > 0 {
		cmd, rest = rest[0], rest[1:]
	}
	switch cmd {
	case "cp":
		p := parseArgs(rest, "")
		if len(p.ops) != 2 || !hostPath(p.ops[1]) || p.ops[1] == "-" {
			return false, true
		}
		p.flags["-r"] = []string{""} // a directory is copied whole
		return w.copyInto(p, false, false), true
	case "run", "create", "build":
		var dirs []string
		for j := 0; j < len(rest); j++ {
			a := rest[j]
			name, val, eq := strings.Cut(a, "=")
			if !eq && len(a) > 2 && (strings.HasPrefix(a, "-v") || strings.HasPrefix(a, "-o")) && a[1] != '-' {
				name, val, eq = a[:2], a[2:], true // -vSPEC, -oDIR
			}
			switch name {
			case "-v", "--volume", "--mount", "-o", "--output":
			default:
				continue
			}
			if !eq {
				if j+1 >= len(rest) {
					break
				}
				j++
				val = rest[j]
			}
			switch {
			case name == "-v" || name == "--volume":
				dirs = append(dirs, volumeSource(val)...)
			case name == "--mount":
				dirs = append(dirs, mountSource(val)...)
			case cmd == "build":
				dirs = append(dirs, outputDest(val)...)
			}
		}
		if cmd != "build" && w.over != nil && w.over.projectFloor != nil {
			// A container run over the project, as `make` or `npm test` runs there: its
			// code may write anything in the project, which no reading of the line can
			// judge, and the tripwire does (stop 32). A mount of the home, "/", or a
			// protected directory still counts.
			dirs = slices.DeleteFunc(dirs, w.over.projectFloor)
		}
		return w.into(dirs), true
	}
	return false, false
}

// hostPath reports whether docker cp's operand p is on the host: not CONTAINER:PATH.
func hostPath(p string) bool {
	i := strings.IndexByte(p, ':')
	return i < 0 || strings.HasPrefix(p, "/") || strings.HasPrefix(p, ".") || strings.HasPrefix(p, "~") ||
		strings.Contains(p[:i], "/")
}

// unquoteSpec returns a mount's spec (or a field's value) with its quotes removed, $(pwd)
// and `pwd` spelt $PWD, and a leading $PWD or ${PWD} read as the working directory, $HOME
// or ${HOME} as ~ (knownPrefix).
func unquoteSpec(spec string) string {
	spec = strings.NewReplacer(`"`, "", `'`, "", "$(pwd)", "$PWD", "`pwd`", "$PWD").Replace(spec)
	return knownPrefix(spec)
}

// volumeSource returns the host directory of a -v SRC:DST[:OPTS] that bind-mounts one
// writable: SRC a path (it has a "/", or starts with ".", "~" or "$"), no "ro" in OPTS.
func volumeSource(spec string) []string {
	parts := strings.Split(unquoteSpec(spec), ":")
	src := knownPrefix(parts[0])
	if len(parts) > 2 {
		for _, o := range strings.Split(parts[len(parts)-1], ",") {
			if o == "ro" || o == "readonly" {
				return nil
			}
		}
	}
	if len(parts) == 1 || !strings.ContainsAny(src, "/$") && !strings.HasPrefix(src, ".") && !strings.HasPrefix(src, "~") {
		return nil // an anonymous or a named volume
	}
	return []string{src}
}

// mountSource returns the host directories of a --mount's comma-separated fields: a bind
// mount's source (src) and a volume's volume-opt=device=PATH, unless it is read-only.
func mountSource(spec string) []string {
	var out, srcs []string
	bind := false
	for _, f := range strings.Split(strings.NewReplacer(`"`, "", `'`, "").Replace(spec), ",") {
		k, v, _ := strings.Cut(f, "=")
		v = unquoteSpec(v)
		switch k {
		case "type":
			bind = v == "bind"
		case "source", "src":
			srcs = append(srcs, v)
		case "volume-opt":
			if d, ok := strings.CutPrefix(v, "device="); ok {
				out = append(out, d)
			}
		case "readonly", "ro":
			if v == "" || v == "true" || v == "1" {
				return nil
			}
		}
	}
	for _, v := range srcs {
		if bind || strings.ContainsAny(v, "/$") || strings.HasPrefix(v, ".") || strings.HasPrefix(v, "~") {
			out = append(out, v)
		}
	}
	return out
}

// outputDest returns the directory a build's -o writes: DEST of type=local,dest=DEST (or a
// tar's file), or the value itself when it is a path.
func outputDest(spec string) []string {
	if !strings.Contains(spec, "=") {
		if spec == "-" {
			return nil
		}
		return []string{spec}
	}
	var out []string
	for _, f := range strings.Split(spec, ",") {
		if k, v, _ := strings.Cut(f, "="); k == "dest" {
			out = append(out, v)
		}
	}
	return out
}
