package shell

import (
	"slices"
	"sync/atomic"

	"mvdan.cc/sh/v3/syntax"
)

// Fed is a command that xargs or GNU parallel runs with words read from its input (red
// team round 54: `echo ~/go | xargs rm -rf`, `grep -rl X ~ | xargs sed -i …`): the command
// as written, and what the line tells of the words it gets.
type Fed struct {
	// Command is the command's words as xargs or parallel runs them, before any word of
	// the input is added.
	Command []string
	// Marker is the text xargs -I (-i, --replace, -J) or parallel's {} replaces with an
	// input word in each word of Command; "" when the input's words are appended.
	Marker string
	// Producers are the words of each simple command whose output a pipe gives to xargs
	// (`find ~ -type f | sort | xargs rm`: find's and sort's), in order; nil when the input
	// is not a pipe of the line (a file of -a or ::::, a redirection, the terminal).
	Producers [][]string
	// Args are the words GNU parallel takes after ::: (its arguments on the line).
	Args []string
	// Delim is what ends an item of the input when it is one byte: "\n" for one item a
	// line (xargs -I, -d '\n', GNU parallel), "\x00" for NUL-terminated items (xargs -0,
	// --null, -d '\0'; parallel -0); "" for xargs's default, items split at blanks and
	// newlines, or a delimiter not known.
	Delim string
}

// Fed returns the commands the line runs under xargs or GNU parallel, with their input's
// producers (see Fed).
func (b *Commands) Fed() []Fed { return b.fed }

// feed is the left side of a pipe, whose commands' words an xargs or parallel on its right
// takes as its input's producers: read when one asks (producers), so that a pipeline of N
// commands is not walked N times (a 100 000-command pipeline took minutes: each pipe's left
// side walked again).
type feed struct {
	words  [][]string // the words, when known without a walk (fastline.go)
	from   *syntax.Stmt
	script string
}

// producers returns the words of the simple commands of f's statements.
func (f *feed) producers() [][]string {
	if f.from != nil {
		return pipeProducers(f.from, f.script)
	}
	return f.words
}

// producerWalks counts the walks of a pipe's left side for its producers, for a test that
// bounds them.
var producerWalks atomic.Int64

// pipeProducers returns the words of the simple commands of the statement x, the left
// side of a pipe, nested ones included (a pipe's, a group's, a substitution's).
func pipeProducers(x *syntax.Stmt, src string) [][]string {
	producerWalks.Add(1)
	var out [][]string
	syntax.Walk(x, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 {
			return true
		}
		words := make([]string, 0, len(c.Args))
		for _, a := range c.Args {
			words = append(words, renderWord(a, src).text)
		}
		out = append(out, words)
		return true
	})
	return out
}

// addFed records the command cmd that xargs or parallel (name, with its options opts and
// the words after them, full) runs in the context c.
func (b *Commands) addFed(name string, opts []option, full, cmd []word, c ctx) {
	f := Fed{Marker: c.marker, Delim: fedDelim(name, opts)}
	for _, w := range cmd {
		f.Command = append(f.Command, w.text)
	}
	fromFile := slices.ContainsFunc(opts, func(o option) bool {
		return o.name == "-a" || o.name == "--arg-file"
	})
	if name == "parallel" {
		if f.Marker == "" {
			f.Marker = "{}"
		}
		sep := ""
		for _, a := range full[len(cmd):] {
			switch a.text {
			case ":::", ":::+":
				sep = ":::"
				continue
			case "::::", "::::+":
				sep, fromFile = "::::", true
				continue
			}
			if sep == ":::" {
				f.Args = append(f.Args, a.text)
			}
		}
		if sep != "" && !fromFile {
			b.fed = append(b.fed, f)
			return // the arguments, not the input
		}
	}
	if !fromFile && c.feed != nil {
		f.Producers = c.feed.producers()
	}
	b.fed = append(b.fed, f)
}

// fedDelim returns the Delim of xargs or parallel (name) with the options opts: the last of
// -0, --null, -d and --delimiter; else, for xargs's -I, -i or --replace, a line each.
func fedDelim(name string, opts []option) string {
	d, set, lines := "", false, name == "parallel"
	for _, o := range opts {
		switch o.name {
		case "-0", "--null":
			d, set = "\x00", true
		case "-d", "--delimiter":
			d, set = "", true
			switch t := o.value.text; {
			case !o.value.static:
			case t == "\\n" || t == "\n":
				d = "\n"
			case t == "\\0" || t == "\\x00" || t == "\\000":
				d = "\x00"
			}
		case "-I", "-i", "--replace":
			lines = lines || name == "xargs"
		case "--colsep", "-C":
			if name == "parallel" {
				d, set = "", true
			}
		}
	}
	if !set && lines {
		return "\n"
	}
	return d
}
