package hookcore

import (
	"regexp"
	"strings"
	"sync"
)

// Code a tool runs is a shell command to the guards (red team round 50: mcp-server-code-runner's
// `run-code {"code": "rm -rf /tmp/x", "languageId": "shellscript"}` and Claude Code's
// `mcp__ide__executeCode {"code": "!rm -rf /tmp/x"}` ran past every Bash guard). Code in a
// shell is its own Bash view; code in another language is the Bash view of the interpreter
// running it (`python3 -c 'CODE'`, `node -e 'CODE'`), so the rules on interpreters and the
// text rules (`names`, `=~`) see it; code in a language hookcore does not know, or in none,
// is read as shell text too. The shell lines of an IPython cell (`!cmd`, `%%bash`, line
// magics) are one more Bash view (jupyterShell).

// langOf returns the language a word names ("sh" for every shell, "python", "node", ...),
// "" for none: a language key's value, or a word of a tool's name. Version digits are
// dropped (python3.12, bash5).
func langOf(w string) string {
	w = strings.TrimRight(strings.ToLower(strings.TrimSpace(w)), "0123456789.")
	switch w {
	case "bash", "sh", "zsh", "shell", "shellscript", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "busybox":
		return "sh"
	case "python", "py", "ipython", "jupyter", "pypy":
		return "python"
	case "javascript", "js", "node", "nodejs", "typescript", "ts", "deno", "bun":
		return "node"
	case "ruby", "rb":
		return "ruby"
	case "perl", "pl":
		return "perl"
	case "php":
		return "php"
	case "lua":
		return "lua"
	case "r", "rscript":
		return "r"
	case "powershell", "pwsh", "ps1":
		return "pwsh"
	case "bat", "batch", "cmd":
		return "cmd"
	}
	return ""
}

// interpreters are the command lines that run code of a language, the code following as
// one single-quoted word.
var interpreters = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"python": "python3 -c", "node": "node -e", "ruby": "ruby -e", "perl": "perl -e", "php": "php -r",
		"lua": "lua -e", "r": "Rscript -e", "pwsh": "pwsh -Command", "cmd": "cmd /c",
	}
})

// knownLangs are the languages of tools hookcore knows by name: Claude Code's IDE
// integration runs executeCode's code in the IDE's Jupyter kernel (Python).
var knownLangs = sync.OnceValue(func() map[string]string { return map[string]string{"mcp__ide__executeCode": "python"} })

// codeLines returns the command lines of code run in each of langs ("" for a language
// hookcore does not know): the code itself for a shell or an unknown language, the
// interpreter's line for another, and the shell lines of the code read as an IPython cell
// for any language but a shell.
func codeLines(code string, langs []string) []string {
	var lines []string
	cell := false
	for _, l := range langs {
		if l == "sh" || l == "" || interpreters()[l] == "" {
			lines = append(lines, code)
		} else {
			lines = append(lines, interpreters()[l]+" "+shellQuote(code))
		}
		cell = cell || l != "sh"
	}
	if cell {
		if sh := jupyterShell(code); sh != "" {
			lines = append(lines, sh)
		}
		if interp, body, ok := zeppelinParagraph(code); ok {
			lines = append(lines, codeLines(body, []string{interp})...)
		}
	}
	return lines
}

// zeppelinInterp is the first line of a Zeppelin paragraph that names its interpreter:
// `%sh`, `%python.ipython`, `%spark.pyspark(option=x)`.
var zeppelinInterp = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^%([A-Za-z][A-Za-z0-9_.-]*)(\(.*\))?$`)
})

// zeppelinParagraph returns the language of the interpreter a Zeppelin paragraph's first
// line names (red team round 52: `create_paragraph {"text": "%sh\nrm -rf x"}`) and the
// paragraph's other lines: the first of the interpreter's dotted names that langOf knows
// (`%sh.terminal` is sh), "" for none (`%spark.pyspark` is read as shell text).
func zeppelinParagraph(code string) (lang, body string, ok bool) {
	first, body, _ := strings.Cut(strings.TrimLeft(code, " \t\r\n"), "\n")
	m := zeppelinInterp().FindStringSubmatch(strings.TrimSpace(first))
	if m == nil {
		return "", "", false
	}
	for _, part := range strings.Split(m[1], ".") {
		if l := langOf(part); l != "" {
			return l, body, true
		}
	}
	return "", body, true
}

// shellQuote returns s as one single-quoted shell word.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// IPython's shell escapes (IPython 8): a line `!cmd` or `!!cmd`, an assignment `x = !cmd`,
// a line magic `%name args` (`%sx`, `%system` and `%sc` run args in the shell; `%rm`, `%mv`,
// `%cp`, `%mkdir`, `%cat`, `%ls` are aliases of the shell commands, `%cd` changes the
// kernel's directory; any other magic is read as a command of its name too), the cell
// magics `%%bash`, `%%sh`, `%%script`, `%%sx`, `%%system` (the rest of the cell is a
// script), `%%writefile` and `%%file` (the rest of the cell is written to a file), and a
// one-line cell, which IPython's automagic runs as a magic or alias when it starts with the
// name of one (`rm -rf x`).
var (
	cellShells   = []string{"bash", "sh", "zsh", "ksh", "script", "sx", "system", "perl", "ruby"}
	magicShells  = []string{"sx", "system", "sc"}
	assignEscape = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_, \[\]().]*=\s*([!%])(.*)$`)
	})
)

// jupyterShell returns the shell text of the code read as an IPython cell, one line for each
// shell escape, "" when it has none.
func jupyterShell(code string) string {
	var out []string
	lines := strings.Split(code, "\n")
	filled := 0
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			filled++
		}
	}
	for i := 0; i < len(lines); i++ {
		t := strings.TrimRight(strings.TrimLeft(lines[i], " \t"), "\r")
		if m := assignEscape().FindStringSubmatch(t); m != nil {
			t = m[1] + m[2]
		}
		switch {
		case strings.HasPrefix(t, "%%"):
			name, rest, _ := strings.Cut(strings.TrimPrefix(t, "%%"), " ")
			switch {
			case foldIn(name, cellShells):
				return strings.Join(append(out, lines[i+1:]...), "\n")
			case foldIn(name, []string{"writefile", "file"}):
				redirect := "cat > "
				if f := strings.Fields(rest); len(f) > 0 {
					if f[0] == "-a" || f[0] == "--append" {
						redirect = "cat >> "
					}
					out = append(out, redirect+shellQuote(f[len(f)-1]))
				}
				return strings.Join(out, "\n")
			}
		case strings.HasPrefix(t, "!"):
			out = append(out, strings.TrimLeft(t, "!"))
		case strings.HasPrefix(t, "%"):
			name, rest, _ := strings.Cut(strings.TrimPrefix(t, "%"), " ")
			if foldIn(name, magicShells) {
				out = append(out, rest)
			} else {
				out = append(out, strings.TrimSpace(name+" "+rest))
			}
		case filled == 1 && t != "":
			out = append(out, t) // automagic: a one-line cell may be a magic or an alias
		}
	}
	return strings.Join(out, "\n")
}
