package schema_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/internal/schema"
)

func repoRoot(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

func compile(t *testing.T, s map[string]any) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema.Marshal(s)))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	id := s["$id"].(string)
	if err := c.AddResource(id, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(id)
	if err != nil {
		t.Fatalf("the schema does not compile: %v", err)
	}
	return sch
}

// TestSchemaFilesAreCurrent: the files under schema/ are what `hookcore schema` prints.
func TestSchemaFilesAreCurrent(t *testing.T) {
	for name, s := range map[string]map[string]any{"config": schema.Config(), "result": schema.Result()} {
		path := filepath.Join(repoRoot(t), "schema", name+".schema.json")
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, schema.Marshal(s)) {
			t.Errorf("%s is stale: run go run ./cmd/hookcore schema %s > schema/%s.schema.json", path, name, name)
		}
	}
}

// TestSchemaCoversEveryKey: every key the config package reads has a schema.
func TestSchemaCoversEveryKey(t *testing.T) {
	s := schema.Config()
	defs := s["$defs"].(map[string]any)
	for def, keys := range map[string][]string{"hook": config.NativeHookKeys(), "action": config.ActionKeys()} {
		props := defs[def].(map[string]any)["properties"].(map[string]any)
		for _, k := range keys {
			if props[k] == nil {
				t.Errorf("%s key %q has no schema (add it to internal/schema)", def, k)
			}
		}
	}
}

// yamlToJSON decodes a YAML config into the JSON data model the schema describes.
func yamlToJSON(t *testing.T, path string) any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	out, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestExampleConfigsValidate: every native config of the repository (examples, the starter
// of hookcore init) is valid under the schema, and a broken one is not.
func TestExampleConfigsValidate(t *testing.T) {
	sch := compile(t, schema.Config())
	root := repoRoot(t)
	files, _ := filepath.Glob(filepath.Join(root, "examples", "*", "*.yaml"))
	files = append(files, filepath.Join(root, "internal", "cli", "starter", "hooks.yaml"))
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".test.yaml") {
			continue
		}
		n++
		if err := sch.Validate(yamlToJSON(t, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if n < 3 {
		t.Fatalf("only %d configs found", n)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("hooks:\n  - {event: pre_tool_usee, action: {type: comand}}\n"), 0o644)
	if err := sch.Validate(yamlToJSON(t, bad)); err == nil {
		t.Error("a config with a bad event and type validated")
	}
	ok := filepath.Join(t.TempDir(), "ok.yaml")
	os.WriteFile(ok, []byte("$schema: ../schema/config.schema.json\nhooks:\n  - {event: PreToolUse, timeout: 5, action: {type: command, command: \"true\"}}\n"), 0o644)
	if err := sch.Validate(yamlToJSON(t, ok)); err != nil {
		t.Error(err)
	}
	if _, probs := config.ParseFile(ok, config.Explicit); len(probs) > 0 {
		t.Errorf("the loader does not accept $schema: %v", probs)
	}
}

// TestResultsValidate: results that hookcore fire prints validate under the result schema.
func TestResultsValidate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	sch := compile(t, schema.Result())
	root := repoRoot(t)
	bin := filepath.Join(t.TempDir(), "hookcore")
	if out, err := exec.Command("go", "build", "-o", bin, filepath.Join(root, "cmd", "hookcore")).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, c := range []struct{ config, event, input string }{
		{"examples/guardrails/hooks.yaml", "PreToolUse", `{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`},
		{"examples/guardrails/hooks.yaml", "PreToolUse", `{"tool_name":"Bash","tool_input":{"command":"pytest -q"}}`},
		{"examples/guardrails/hooks.yaml", "SessionStart", `{"source":"startup"}`},
		{"examples/minicode/hooks.yaml", "PreToolUse", `{"tool_name":"Bash","tool_input":{"command":"ls"}}`},
	} {
		cmd := exec.Command(bin, "fire", c.event, "--config", filepath.Join(root, c.config))
		cmd.Stdin = strings.NewReader(c.input)
		cmd.Dir = t.TempDir()
		out, _ := cmd.Output()
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.input, err, out)
		}
		if err := sch.Validate(v); err != nil {
			t.Errorf("%s %s: %v\n%s", c.config, c.input, err, out)
		}
	}
}
