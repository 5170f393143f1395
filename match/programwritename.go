package match

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// namedWrites returns the files the simple command prog args writes under a name that is
// not among its words: the backup a cp, mv, install or ln with -b, --backup or -S makes of
// each destination it replaces (DEST+SUFFIX, the suffix `~` by default and
// SIMPLE_BACKUP_SUFFIX's value, and DEST.~N~ for numbered backups: red team round 56, `cp
// -b -S e EVIL ~/go/bin/hookcor` renames hookcor to hookcore); the files csplit and split
// make of their prefix (PREFIX then any text: `csplit -s -f ~/go/bin/hookco -b "re%.0d" F
// 3`); and the file a decompressor writes, its operand with the compression suffix
// removed (`gunzip -f ~/.bashrc.gz`). A name with text not known is a glob ("*").
// lineSuffix is the suffix SIMPLE_BACKUP_SUFFIX may give on the line ("" when it names
// none, "*" when its value is not known).
func namedWrites(prog string, args []string, lineSuffix string) []string {
	switch prog {
	case "cp", "mv", "install", "ln", "link":
		return backupNames(prog, args, lineSuffix)
	case "csplit":
		p := parseArgs(args, "bfn", "--suffix-format", "--prefix", "--digits")
		pre := append(p.vals("-f"), p.vals("--prefix")...)
		if len(pre) == 0 {
			pre = []string{"xx"}
		}
		return globbed(pre)
	case "split":
		p := parseArgs(args, "abClnt", "--suffix-length", "--bytes", "--line-bytes", "--lines",
			"--number", "--separator", "--additional-suffix", "--filter")
		if len(p.ops) > 1 {
			return globbed(p.ops[1:2])
		}
		return []string{"x*"}
	}
	return decompressed(prog, args)
}

func globbed(prefixes []string) []string {
	var out []string
	for _, p := range prefixes {
		out = append(out, p+"*")
	}
	return out
}

// backupNames returns the backups a cp, mv, install or ln with the arguments args makes.
func backupNames(prog string, args []string, lineSuffix string) []string {
	short := "tS"
	long := []string{"--target-directory", "--suffix"}
	if prog == "install" {
		short = "tSmgo"
		long = append(long, "--mode", "--group", "--owner", "--strip-program")
	}
	p := parseArgs(args, short, long...)
	sufs := append(p.vals("-S"), p.vals("--suffix")...)
	if !p.has("-b", "--backup") && len(sufs) == 0 {
		return nil
	}
	if len(sufs) == 0 {
		switch lineSuffix {
		case "":
			sufs = []string{"~"}
		default:
			sufs = []string{lineSuffix}
		}
	}
	for i, s := range sufs {
		if strings.ContainsAny(s, "$`*?[{\\'\"") {
			sufs[i] = "*"
		}
	}
	sufs = append(sufs, ".~*~") // numbered (--backup=numbered, VERSION_CONTROL)
	var dests []string
	dirs := append(p.vals("-t"), p.vals("--target-directory")...)
	srcs := p.ops
	if len(dirs) == 0 && len(srcs) > 1 {
		d := srcs[len(srcs)-1]
		dests, dirs, srcs = append(dests, d), []string{d}, srcs[:len(srcs)-1]
	}
	for _, d := range dirs {
		for _, s := range srcs {
			dests = append(dests, strings.TrimSuffix(d, "/")+"/"+filepath.Base(s))
		}
	}
	var out []string
	for _, d := range dests {
		for _, s := range sufs {
			out = append(out, d+s)
		}
	}
	return out
}

// decompressors are the programs that decompress by name, and the option that makes the
// others do.
var decompressors = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"gunzip": "", "bunzip2": "", "unxz": "", "unlzma": "", "unzstd": "", "uncompress": "", "lzcat": "-",
		"gzip": "-d", "bzip2": "-d", "xz": "-d", "lzma": "-d", "lz4": "-d", "zstd": "-d", "lzip": "-d",
		"pigz": "-d", "pbzip2": "-d", "lbzip2": "-d", "lzop": "-d", "brotli": "-d", "compress": "-d",
		"unpigz": "", "lunzip": "",
	}
})

// compressSuffixes are the suffixes a decompressor removes (a .tgz or .tbz2 becomes .tar).
var compressSuffixes = []string{".gz", ".bz2", ".xz", ".lzma", ".lz4", ".zst", ".zstd", ".Z", ".z",
	".lz", ".lzo", ".br", "-gz", "_gz", "-z", "_z", ".tgz", ".taz", ".tbz2", ".tbz", ".txz", ".tlz", ".tzst"}

// decompressed returns the files a decompressor with the arguments args writes.
func decompressed(prog string, args []string) []string {
	opt, ok := decompressors()[prog]
	if !ok || opt == "-" {
		return nil
	}
	p := parseArgs(args, "SoTbMp", "--suffix", "--format", "--threads", "--memlimit", "--memory")
	if opt != "" && !p.has("-d", "--decompress", "--uncompress") {
		return nil
	}
	if p.has("-c", "--stdout", "--to-stdout", "-t", "--test", "-l", "--list") {
		return nil
	}
	sufs := append(append([]string{}, compressSuffixes...), p.vals("-S")...)
	sufs = append(sufs, p.vals("--suffix")...)
	ops := p.ops
	if prog == "lz4" && len(ops) == 2 && !p.has("-m", "--multiple") {
		return ops[1:] // lz4 -d SRC DST
	}
	var out []string
	for _, op := range ops {
		if strings.ContainsAny(op, "$`*?[") {
			out = append(out, op) // its name less a suffix: any name it may have
			continue
		}
		for _, s := range sufs {
			if s != "" && len(op) > len(s) && strings.HasSuffix(op, s) {
				base := strings.TrimSuffix(op, s)
				if strings.HasPrefix(s, ".t") && len(s) > 3 {
					base += ".tar"
				}
				out = append(out, base)
			}
		}
	}
	return out
}

// backupSuffix returns what SIMPLE_BACKUP_SUFFIX may be on the line cmd: "" when the line
// does not name it, its value when it assigns one, "*" otherwise.
func backupSuffix(cmd string) string {
	vals, other := lineValues(cmd, "SIMPLE_BACKUP_SUFFIX")
	switch {
	case other || len(vals) > 1:
		return "*"
	case len(vals) == 1:
		return vals[0]
	}
	return os.Getenv("SIMPLE_BACKUP_SUFFIX")
}
