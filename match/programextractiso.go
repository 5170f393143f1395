package match

import "strings"

// xorrisoDirs returns the disk paths xorriso's (and osirrox's) commands write (xorriso(1),
// 1.5.4: "any number of leading dashes is ignored with command words and inner dashes are
// interpreted as underscores"): -extract and -extract_single ISO DISK, -extract_l's
// DISK_PREFIX, -extract_cut's and -paste_in's DISK, the last of -cpx, -cpax, -cp_rx and
// -cp_rax's list (ended by "--"), -extract_boot_images DIR, -concat append|overwrite
// TARGET, an -outdev or -dev image; a relative one is taken from -cdx DIR. A command that
// runs a program or reads commands not on the line (-concat pipe, -options_from_file,
// -dialog, -launch_frontend, -execute_as) may write anywhere.
func xorrisoDirs(prog string, args []string) (dirs []string, anyDir, ok bool) {
	cdx := ""
	at := func(i int) string {
		if i >= len(args) {
			return ""
		}
		d := args[i]
		if cdx != "" && !strings.HasPrefix(d, "/") && !strings.HasPrefix(d, "~") {
			d = strings.TrimSuffix(cdx, "/") + "/" + d
		}
		return d
	}
	add := func(d string) {
		if d != "" {
			dirs = append(dirs, strings.TrimPrefix(d, "stdio:"))
		}
	}
	for i := 0; i < len(args); i++ {
		// A word with no dash is a command word too ("any number" of dashes), or a
		// parameter read as one: more writes, never fewer.
		switch cmd := strings.ReplaceAll(strings.TrimLeft(args[i], "-"), "-", "_"); cmd {
		case "cdx":
			if i+1 < len(args) {
				cdx = at(i + 1)
				i++
			}
		case "extract", "extract_single", "extract_l", "paste_in":
			add(at(i + 2))
			i += 2
		case "extract_cut":
			add(at(i + 4))
			i += 4
		case "extract_boot_images", "outdev", "dev":
			add(at(i + 1))
			i++
		case "cpx", "cpax", "cp_rx", "cp_rax":
			j := i + 1
			for j < len(args) && args[j] != "--" {
				j++
			}
			if j > i+1 {
				add(at(j - 1))
			}
			i = j
		case "concat":
			if i+1 < len(args) && args[i+1] == "pipe" {
				anyDir = true
			} else {
				add(at(i + 2))
			}
		case "options_from_file", "dialog", "launch_frontend", "execute_as":
			anyDir = true
		}
	}
	if len(dirs) == 0 && !anyDir {
		return nil, false, false
	}
	return dirs, anyDir, true
}
