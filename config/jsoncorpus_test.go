package config

import (
	"bytes"
	"encoding/json"
	goast "go/ast"
	goparser "go/parser"
	gotoken "go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// jsonCorpus returns every JSON config the repository's tests and examples hold, sorted: the
// string constants of its Go files (skimCases, jsonTreeCases, the tables of parse_test.go,
// the settings files the CLI and root tests write, ...), its .json files (testdata,
// examples/, the starter settings), the files of its txtar archives (the CLI's testscripts),
// and the saved inputs of its fuzz targets. A text is kept when it is, past a byte order
// mark and with JSONC comments stripped (as Gemini CLI's settings are read), one JSON object.
func jsonCorpus(tb testing.TB) []string {
	corpusOnce.Do(func() { corpus, corpusErr = collectJSONCorpus(filepath.Join("..")) })
	if corpusErr != nil {
		tb.Fatal(corpusErr)
	}
	return corpus
}

var (
	corpusOnce sync.Once
	corpus     []string
	corpusErr  error
)

func collectJSONCorpus(root string) ([]string, error) {
	seen := map[string]bool{}
	add := func(s string) {
		t := bytes.TrimPrefix([]byte(s), []byte("\ufeff"))
		if !seen[s] && (isJSONObject(t) || isJSONObject(stripJSONComments(t))) {
			seen[s] = true
		}
	}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		slash := filepath.ToSlash(p)
		switch {
		case strings.HasSuffix(p, ".go"):
			return goStrings(p, add)
		case strings.HasSuffix(p, ".txtar"):
			a, err := txtar.ParseFile(p)
			if err != nil {
				return err
			}
			for _, f := range a.Files {
				add(string(f.Data))
			}
		case strings.Contains(slash, "/testdata/fuzz/"):
			return fuzzInputs(p, add)
		case strings.HasSuffix(p, ".json"):
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			add(string(data))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	slices.Sort(out)
	return out, nil
}

// goStrings calls add with each string constant of the Go file at path: a literal, or
// literals joined with +.
func goStrings(path string, add func(string)) error {
	f, err := goparser.ParseFile(gotoken.NewFileSet(), path, nil, goparser.SkipObjectResolution)
	if err != nil {
		return err
	}
	var lit func(goast.Expr) (string, bool)
	lit = func(e goast.Expr) (string, bool) {
		switch e := e.(type) {
		case *goast.BasicLit:
			if e.Kind == gotoken.STRING {
				s, err := strconv.Unquote(e.Value)
				return s, err == nil
			}
		case *goast.BinaryExpr:
			if e.Op == gotoken.ADD {
				x, okx := lit(e.X)
				y, oky := lit(e.Y)
				return x + y, okx && oky
			}
		case *goast.ParenExpr:
			return lit(e.X)
		}
		return "", false
	}
	goast.Inspect(f, func(n goast.Node) bool {
		if e, ok := n.(goast.Expr); ok {
			if s, ok := lit(e); ok {
				add(s)
			}
		}
		return true
	})
	return nil
}

// fuzzInputs calls add with each string or []byte value of the saved fuzz input at path
// ("go test fuzz v1", then one Go expression a line).
func fuzzInputs(path string, add func(string)) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	for _, line := range strings.Split(string(data), "\n")[1:] {
		call, ok := parseExpr(line).(*goast.CallExpr)
		if !ok || len(call.Args) != 1 {
			continue
		}
		if b, ok := call.Args[0].(*goast.BasicLit); ok && b.Kind == gotoken.STRING {
			if s, err := strconv.Unquote(b.Value); err == nil {
				add(s)
			}
		}
	}
	return nil
}

func parseExpr(s string) goast.Expr {
	e, err := goparser.ParseExpr(s)
	if err != nil {
		return nil
	}
	return e
}

// jsonVariants returns src and the same JSON written other ways, for the positions: behind
// a byte order mark, with \r\n line breaks, with lone \r ones, on one line (json.Compact),
// indented with two blanks, and indented with tabs (which jsonTree leaves to the YAML
// parser). A text that is not valid JSON (JSONC) has its first three only.
func jsonVariants(src string) []string {
	out := []string{src, "\ufeff" + src, strings.ReplaceAll(src, "\n", "\r\n"), strings.ReplaceAll(src, "\n", "\r")}
	var b bytes.Buffer
	if json.Compact(&b, []byte(src)) == nil {
		out = append(out, b.String())
		b.Reset()
		_ = json.Indent(&b, []byte(src), "", "  ")
		out = append(out, b.String())
		b.Reset()
		_ = json.Indent(&b, []byte(src), "", "\t")
		out = append(out, b.String())
	}
	return out
}
