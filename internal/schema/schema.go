// Package schema builds the JSON Schemas (draft 2020-12) of hookcore's native config and of
// its result (issue 11.6): `hookcore schema config|result` prints them, and the repository
// keeps copies under schema/ for editors. The config schema is built from the config
// package's key lists and the hook event registry, the result schema from hook.Result by
// reflection, so neither can fall behind the code without a test failing.
package schema

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
)

// Draft is the JSON Schema dialect of both schemas.
const Draft = "https://json-schema.org/draft/2020-12/schema"

type obj = map[string]any

// duration is a timeout: "10s", "500ms", "2m", or a number of seconds.
func duration() obj {
	return obj{"oneOf": []any{
		obj{"type": "string", "pattern": `^\s*[0-9]+(\.[0-9]+)?\s*(ns|us|µs|ms|s|m|h)?(\s*[0-9]+(\.[0-9]+)?\s*(ns|us|µs|ms|s|m|h))*\s*$`},
		obj{"type": "number", "minimum": 0},
	}, "description": "a duration (\"10s\", \"500ms\", \"2m\") or a number of seconds"}
}

func stringList() obj { return obj{"type": "array", "items": obj{"type": "string"}} }

// hookProps and actionProps give each key of config.NativeHookKeys and config.ActionKeys its
// schema. A key missing here fails TestSchemaCoversEveryKey. They are built when a schema is
// asked for, not at package init, which every hook process pays (docs/decisions.md, "Cold
// start of the hook path, second pass").
func hookProps() map[string]any {
	return map[string]any{
		"id":          obj{"type": "string", "description": "unique within the file; default <Event>#<n>"},
		"event":       nil, // filled with the event enum
		"matcher":     obj{"type": "string", "description": "tool names: \"Bash\", \"Edit|Write\", \"*\", \"/regex/i\""},
		"if":          obj{"type": "string", "description": "a condition, a /regex/ over the input, or a Tool(pattern) rule"},
		"reject":      obj{"type": "boolean", "description": "block whenever the hook matches and runs; stdout is the reason"},
		"blocking":    obj{"type": "boolean", "description": "false: the hook cannot veto (its block is logged)"},
		"once":        obj{"type": "boolean", "description": "run at most once per session"},
		"async":       obj{"type": "boolean", "description": "run in the background (never on gate events)"},
		"parallel":    obj{"type": "boolean"},
		"on_error":    obj{"enum": []any{"allow", "block"}, "description": "block: a failure of this hook blocks (fail-closed)"},
		"exit_codes":  obj{"type": "object", "patternProperties": obj{"^-?[0-9]+$": obj{"enum": []any{"block", "inject", "allow", "error"}}}, "additionalProperties": false},
		"enabled":     obj{"type": "boolean"},
		"description": obj{"type": "string"},
		"timeout":     duration(),
		"action":      obj{"$ref": "#/$defs/action"},
	}
}

func actionProps() map[string]any {
	return map[string]any{
		"type":             nil, // filled with the action types
		"command":          obj{"type": "string", "description": "a shell command line, or the program when args is set"},
		"args":             stringList(),
		"shell":            obj{"type": "string", "enum": []string{"sh", "bash", "powershell"}, "description": "the shell of the shell form (Claude Code shell)"},
		"message":          obj{"type": "string"},
		"url":              obj{"type": "string"},
		"method":           obj{"type": "string"},
		"headers":          obj{"type": "object", "additionalProperties": obj{"type": "string"}},
		"body":             obj{"type": "string"},
		"allowed_hosts":    stringList(),
		"allowed_env_vars": stringList(),
		"prompt":           obj{"type": "string"},
		"model":            obj{"type": "string"},
		"timeout":          duration(),
		"name":             obj{"type": "string"},
		"policy":           obj{"type": "string", "description": "rego: a .rego file, a directory of them, or a bundle (.tar.gz), relative to the config file"},
		"query":            obj{"type": "string", "description": "rego: the query (default data.hookcore)"},
		"bundle_url":       obj{"type": "string", "description": "rego: an OPA bundle service URL, polled with ETag"},
		"bundle_poll":      duration(),
		"verification_key": obj{"type": "string", "description": "rego: a PEM public key file that the bundle's signature must verify with"},
		"decision_log_url": obj{"type": "string", "description": "rego: an OPA decision-log service URL"},
		"server":           obj{"type": "string", "description": "mcp_tool: the MCP server (.mcp.json, ~/.claude.json mcpServers, or plugin:<plugin>:<server>)"},
		"tool":             obj{"type": "string", "description": "mcp_tool: the tool to call"},
		"input":            obj{"type": "object", "description": "mcp_tool: the tool's arguments; ${tool_input.file_path} in a string is replaced by that value of the event input, as text"},
	}
}

// ActionTypes are the action types of the native dialect.
var ActionTypes = []string{config.TypeCommand, config.TypeHTTP, config.TypePrompt, config.TypeAgent, config.TypeInject, config.TypeFunc, config.TypeRego, config.TypeMCPTool}

// Config returns the schema of a native config file.
func Config() map[string]any {
	hp, hookProps := obj{}, hookProps()
	for _, k := range config.NativeHookKeys() {
		hp[k] = hookProps[k]
	}
	hp["event"] = obj{"enum": eventSpellings(), "description": "the lifecycle event (any spelling: PreToolUse, pre_tool_use, turn_start, ...)"}
	ap, actionProps := obj{}, actionProps()
	for _, k := range config.ActionKeys() {
		ap[k] = actionProps[k]
	}
	types := make([]any, len(ActionTypes))
	for i, t := range ActionTypes {
		types[i] = t
	}
	ap["type"] = obj{"enum": types}
	top := obj{"$schema": obj{"type": "string"}}
	for _, k := range config.TopKeys() {
		switch k {
		case "hooks":
			top[k] = obj{"type": "array", "items": obj{"$ref": "#/$defs/hook"}}
		case "audit":
			top[k] = obj{"type": "string", "description": "the tamper-evident decision log (relative to this file); --audit wins; ignored in project and local layers"}
		default:
			top[k] = obj{"type": "boolean"}
		}
	}
	return obj{
		"$schema":              Draft,
		"$id":                  "urn:hookcore:schema:config",
		"title":                "hookcore config (native dialect)",
		"type":                 "object",
		"properties":           top,
		"additionalProperties": false,
		"$defs": obj{
			"hook": obj{
				"type": "object", "required": []any{"event", "action"},
				"properties": hp, "additionalProperties": false,
			},
			"action": obj{
				"type": "object", "required": []any{"type"},
				"properties": ap, "additionalProperties": false,
			},
		},
	}
}

// eventSpellings are the canonical names, their snake_case forms and the aliases.
func eventSpellings() []any {
	var out []string
	for _, e := range hook.Events() {
		out = append(out, string(e), snake(string(e)))
		out = append(out, e.Aliases()...)
	}
	slices.Sort(out)
	out = slices.Compact(out)
	res := make([]any, len(out))
	for i, s := range out {
		res[i] = s
	}
	return res
}

func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Result returns the schema of the JSON that `hookcore fire` prints (hook.Result).
func Result() map[string]any {
	s := typeSchema(reflect.TypeFor[hook.Result]())
	s["$schema"] = Draft
	s["$id"] = "urn:hookcore:schema:result"
	s["title"] = "hookcore result (hookcore fire, replay --json, the audit log's record.result)"
	return s
}

var marshaler = reflect.TypeFor[json.Marshaler]()

// typeSchema describes t as encoding/json writes it.
func typeSchema(t reflect.Type) obj {
	if t == reflect.TypeFor[json.RawMessage]() {
		return obj{"description": "any JSON value; null when absent"}
	}
	if t.Implements(marshaler) || reflect.PointerTo(t).Implements(marshaler) {
		if t.Kind() == reflect.String || t.Kind() == reflect.Int {
			return obj{"type": "string"}
		}
	}
	switch t.Kind() {
	case reflect.Pointer:
		s := typeSchema(t.Elem())
		return obj{"anyOf": []any{s, obj{"type": "null"}}}
	case reflect.String:
		return obj{"type": "string"}
	case reflect.Bool:
		return obj{"type": "boolean"}
	case reflect.Int, reflect.Int64, reflect.Int32:
		return obj{"type": "integer"}
	case reflect.Float64, reflect.Float32:
		return obj{"type": "number"}
	case reflect.Slice:
		return obj{"type": []any{"array", "null"}, "items": typeSchema(t.Elem())}
	case reflect.Map:
		return obj{"type": "object", "additionalProperties": typeSchema(t.Elem())}
	case reflect.Struct:
		props := obj{}
		var required []any
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			props[name] = typeSchema(f.Type)
			if !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero") {
				required = append(required, name)
			}
		}
		s := obj{"type": "object", "properties": props, "additionalProperties": false}
		if len(required) > 0 {
			s["required"] = required
		}
		return s
	}
	panic(fmt.Sprintf("schema: no JSON Schema for %s", t))
}

// Marshal returns s as indented JSON with a trailing newline, the form of the files under
// schema/.
func Marshal(s map[string]any) []byte {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}
