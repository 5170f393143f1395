package hookcore_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readmeLibraryScaffold wraps the README's library snippet into a compilable file: its
// import block stays as written, the standard library packages it uses without importing
// are added, and its statements become the body of a function whose parameters are the
// names the snippet takes from its surroundings (cwd, home, logger, ctx, ...). Results the
// snippet computes for the reader but does not use (out) are discarded at the end.
const readmeLibraryScaffold = `package main

@IMPORTS@

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
)

func snippet(ctx context.Context, cwd, home, id, prompt string, logger *slog.Logger,
	myOtherMiddleware tool.Middleware, call tool.Call, runTool tool.Func) error {
@BODY@
	_ = out
	return nil
}

func main() { _ = snippet }
`

// readmeGoBlock returns the first ```go block after the heading.
func readmeGoBlock(t *testing.T, readme, heading string) string {
	t.Helper()
	_, after, ok := strings.Cut(readme, "\n"+heading+"\n")
	if !ok {
		t.Fatalf("README.md has no heading %q", heading)
	}
	_, block, ok := strings.Cut(after, "```go\n")
	if !ok {
		t.Fatalf("README.md: no ```go block after %q", heading)
	}
	block, _, ok = strings.Cut(block, "```\n")
	if !ok {
		t.Fatalf("README.md: the ```go block after %q is not closed", heading)
	}
	return block
}

// TestREADMELibraryCompiles builds the README's library section as written (issue 13.7):
// the snippet is placed, through `go build -overlay`, as a main package inside this module,
// so that it compiles against the packages of this checkout.
func TestREADMELibraryCompiles(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go build")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("the go command is needed: %v", err)
	}
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	block := readmeGoBlock(t, string(data), "## The library")
	imports, body, ok := strings.Cut(block, "\n)\n")
	if !ok || !strings.HasPrefix(imports, "import (") {
		t.Fatalf("the library snippet does not start with an import block:\n%s", block)
	}
	src := strings.Replace(readmeLibraryScaffold, "@IMPORTS@", imports+"\n)", 1)
	src = strings.Replace(src, "@BODY@", body, 1)

	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "snippet.go")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	// A directory that does not exist in the checkout, made to exist by the overlay only.
	virtual := filepath.Join(root, "internal", "readmesnippet", "main.go")
	overlay, _ := json.Marshal(map[string]any{"Replace": map[string]string{virtual: file}})
	overlayFile := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlayFile, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"build", "-overlay", overlayFile, "-o", os.DevNull}
	if raceEnabled {
		args = append(args, "-race") // reuses the packages `go test -race` just compiled
	}
	cmd := exec.Command(goCmd, append(args, "./internal/readmesnippet")...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the README's library section does not compile: %v\n%s\nsource:\n%s", err, stderr.String(), src)
	}
}
