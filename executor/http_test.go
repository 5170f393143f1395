package executor

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/hook"
)

// received is what the webhook receiver saw.
type received struct {
	Method, Path, ContentType, Auth, Team, UserAgent string
	Body                                             string
}

// receiver is a loopback webhook receiver with one handler per path.
func receiver(t *testing.T) (*httptest.Server, func() []received) {
	t.Helper()
	var mu sync.Mutex
	var seen []received
	mux := http.NewServeMux()
	reply := func(status int, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(status)
			io.WriteString(w, body)
		}
	}
	mux.Handle("/block", reply(200, `{"decision": "block", "reason": "not on fridays"}`))
	mux.Handle("/context", reply(200, `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "remember the style guide"}}`))
	mux.Handle("/empty", reply(204, ""))
	mux.Handle("/empty/", reply(204, ""))
	mux.Handle("/plain", reply(200, "  plain words from the webhook\n"))
	mux.Handle("/badjson", reply(200, `{"block": "yes"}`))
	mux.Handle("/notfound", reply(404, `{"block": true, "reason": "should not be read"}`))
	mux.Handle("/boom", reply(500, "internal trouble\nsecond line"))
	mux.Handle("/huge", reply(200, `{"reason": "`+strings.Repeat("x", MaxHTTPBody+10)+`"}`))
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	mux.HandleFunc("/to-private", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://10.0.0.1/hook", http.StatusFound)
	})
	mux.HandleFunc("/to-metadata", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/to-block", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/block", http.StatusTemporaryRedirect)
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		seen = append(seen, received{Method: r.Method, Path: r.URL.Path, ContentType: r.Header.Get("Content-Type"),
			Auth: r.Header.Get("Authorization"), Team: r.Header.Get("X-Team"), UserAgent: r.Header.Get("User-Agent"),
			Body: string(body)})
		mu.Unlock()
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []received { mu.Lock(); defer mu.Unlock(); return append([]received(nil), seen...) }
}

func preToolUse() *hook.Input {
	return &hook.Input{SessionID: "s1", HookEventName: "PreToolUse", ToolName: "Write",
		ToolInput: json.RawMessage(`{"file_path":"a \"quoted\" <name>.go","content":"x"}`)}
}

func TestHTTPReplies(t *testing.T) {
	t.Parallel()
	srv, _ := receiver(t)
	tests := []struct {
		name    string
		path    string
		event   string
		timeout time.Duration
		allow   []string
		want    hook.Decision
		wantErr error  // errors.Is target; nil: no error
		errText string // substring of the error
	}{
		{name: "envelope block", path: "/block", want: hook.Decision{Block: true, Reason: "not on fridays"}},
		{name: "envelope context", path: "/context", want: hook.Decision{AdditionalContext: "remember the style guide"}},
		{name: "empty 204", path: "/empty"},
		{name: "plain text elsewhere", path: "/plain"},
		{name: "plain text prompt submit", path: "/plain", event: "UserPromptSubmit", want: hook.Decision{AdditionalContext: "plain words from the webhook"}},
		{name: "plain text session start", path: "/plain", event: "SessionStart", want: hook.Decision{AdditionalContext: "plain words from the webhook"}},
		{name: "bad envelope", path: "/badjson", wantErr: hook.ErrBadOutput},
		{name: "4xx body not read", path: "/notfound", errText: "404 Not Found: {\"block\": true"},
		{name: "5xx", path: "/boom", errText: "500 Internal Server Error: internal trouble\nsecond line"},
		{name: "slow", path: "/slow", timeout: 200 * time.Millisecond, wantErr: hook.ErrTimeout},
		{name: "huge body", path: "/huge", wantErr: hook.ErrBadOutput, errText: "larger than 1048576 bytes"},
		{name: "redirect to private", path: "/to-private", wantErr: hook.ErrNotStarted, errText: "10.0.0.1"},
		{name: "redirect to metadata", path: "/to-metadata", wantErr: hook.ErrNotStarted, errText: "cloud metadata"},
		{name: "redirect allowed", path: "/to-block", want: hook.Decision{Block: true, Reason: "not on fridays"}},
		{name: "loopback without allowlist", path: "/block", allow: []string{}, wantErr: hook.ErrNotStarted, errText: "loopback address"},
		{name: "bad allowlist", path: "/block", allow: []string{"not a host"}, wantErr: hook.ErrNotStarted, errText: "allowed host"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			allow := []string{"127.0.0.1"}
			if tt.allow != nil {
				allow = tt.allow
			}
			x := &HTTP{HookID: "webhook", URL: srv.URL + tt.path, Timeout: tt.timeout, AllowedHosts: allow, Env: []string{}}
			in := preToolUse()
			if tt.event != "" {
				in.HookEventName = tt.event
			}
			d, err := x.Execute(context.Background(), in)
			switch {
			case tt.wantErr == nil && tt.errText == "" && err != nil:
				t.Fatalf("error: %v", err)
			case tt.wantErr != nil && !errors.Is(err, tt.wantErr):
				t.Fatalf("error = %v, want %v", err, tt.wantErr)
			case tt.errText != "" && (err == nil || !strings.Contains(err.Error(), tt.errText)):
				t.Fatalf("error = %v, want it to contain %q", err, tt.errText)
			}
			if err != nil {
				if d.Block || d.AdditionalContext != "" {
					t.Errorf("a failed request decided something: %+v", d)
				}
				return
			}
			d.Output = ""
			tt.want.ExitCode = -1
			if diff := cmp.Diff(tt.want, d); diff != "" {
				t.Errorf("decision (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHTTPHugeBodyTruncated(t *testing.T) {
	t.Parallel()
	srv, _ := receiver(t)
	x := &HTTP{URL: srv.URL + "/huge", AllowedHosts: []string{"127.0.0.0/8"}}
	d, err := x.Execute(context.Background(), preToolUse())
	if !errors.Is(err, hook.ErrBadOutput) || !d.Truncated || len(d.Output) != MaxHTTPBody {
		t.Errorf("err %v, truncated %v, output %d bytes", err, d.Truncated, len(d.Output))
	}
}

func TestHTTPRequest(t *testing.T) {
	t.Parallel()
	srv, seen := receiver(t)
	env := []string{"TOKEN=s3cret", "TEAM=core", "SECRET=never", "EVIL=a\r\nX-Injected: 1"}
	in := preToolUse()
	inputJSON, _ := in.MarshalJSON()
	tests := []struct {
		name string
		x    HTTP
		want received
	}{
		{"default post of the input", HTTP{},
			received{Method: "POST", ContentType: "application/json", Body: string(inputJSON)}},
		{"templated body", HTTP{Body: `{"text": "changed $FILE_PATH with ${TOOL_NAME}", "raw": $ARGUMENTS, "other": "$HOME"}`},
			received{Method: "POST", ContentType: "application/json",
				Body: `{"text": "changed a \"quoted\" <name>.go with Write", "raw": ` + string(inputJSON) + `, "other": "$HOME"}`}},
		{"headers from allowed env vars only", HTTP{
			Headers:        map[string]string{"Authorization": "Bearer $TOKEN", "X-Team": "${TEAM}-$SECRET-$5-$"},
			AllowedEnvVars: []string{"TOKEN", "TEAM"}},
			received{Method: "POST", ContentType: "application/json", Auth: "Bearer s3cret", Team: "core--$5-$", Body: string(inputJSON)}},
		{"put", HTTP{Method: "put", Headers: map[string]string{"Content-Type": "text/plain"}},
			received{Method: "PUT", ContentType: "text/plain", Body: string(inputJSON)}},
		{"get has no body", HTTP{Method: "GET"}, received{Method: "GET"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			x := tt.x
			path := "/empty/" + strings.ReplaceAll(tt.name, " ", "-")
			x.URL, x.AllowedHosts, x.Env = srv.URL+path, []string{"127.0.0.1"}, env
			if _, err := x.Execute(context.Background(), in); err != nil {
				t.Fatal(err)
			}
			var got *received
			for _, r := range seen() {
				if r.Path == path {
					got = &r
				}
			}
			if got == nil {
				t.Fatal("the receiver saw no request")
			}
			tt.want.Path, tt.want.UserAgent = path, "hookcore"
			if diff := cmp.Diff(tt.want, *got); diff != "" {
				t.Errorf("request (-want +got):\n%s", diff)
			}
			if strings.Contains(x.Body, "{") && !json.Valid([]byte(got.Body)) {
				t.Errorf("templated body is not valid JSON: %s", got.Body)
			}
		})
	}
}

func TestHTTPNotStarted(t *testing.T) {
	t.Parallel()
	tests := []HTTP{
		{URL: "ftp://127.0.0.1/x"},
		{URL: "file:///etc/passwd"},
		{URL: "http:///nohost"},
		{URL: "http://127.0.0.1/x", AllowedHosts: []string{"127.0.0.1"}, Env: []string{"EVIL=a\r\nX-Injected: 1"},
			Headers: map[string]string{"X-A": "$EVIL"}, AllowedEnvVars: []string{"EVIL"}},
		{URL: "http://127.0.0.1:1/x"}, // refused by the guard before any dial
	}
	for _, x := range tests {
		t.Run(x.URL, func(t *testing.T) {
			t.Parallel()
			d, err := x.Execute(context.Background(), preToolUse())
			if !errors.Is(err, hook.ErrNotStarted) || d.ExitCode != -1 {
				t.Errorf("Execute = %+v, %v; want ErrNotStarted", d, err)
			}
		})
	}
}

func TestHTTPCodebotKeys(t *testing.T) {
	t.Parallel()
	srv, seen := receiver(t)
	x := &HTTP{URL: srv.URL + "/empty/codebot", AllowedHosts: []string{"127.0.0.1"}, Codebot: true}
	if _, err := x.Execute(context.Background(), preToolUse()); err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	for _, r := range seen() {
		if r.Path == "/empty/codebot" {
			json.Unmarshal([]byte(r.Body), &body)
		}
	}
	if body["event"] != "PreToolUse" || body["tool"] != "Write" || body["tool_name"] != "Write" {
		t.Errorf("codebot body: %v", body)
	}
}

func TestExpandHeader(t *testing.T) {
	t.Parallel()
	env := []string{"A=1", "B=two", "A=3"}
	allowed := []string{"A", "B"}
	tests := map[string]string{
		"plain":           "plain",
		"$A":              "3", // the last entry wins, as in os/exec
		"${B}x":           "twox",
		"$Bx":             "",
		"$C and $A":       " and 3",
		"${C}":            "",
		"$":               "$",
		"$$A":             "$3",
		"${A":             "${A",
		"${}":             "${}",
		"cost: $5":        "cost: $5",
		"Bearer ${A}${B}": "Bearer 3two",
	}
	for in, want := range tests {
		if got := expandHeader(in, allowed, env); got != want {
			t.Errorf("expandHeader(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzExpandJSON(f *testing.F) {
	for _, s := range []string{`{"t": "$FILE_PATH"}`, `{"a": $ARGUMENTS}`, `$TOOL_ARGS.content ${EVENT}`, `$`, `${ARGUMENTS`} {
		f.Add(s, `x"y\z</script>`)
	}
	f.Fuzz(func(t *testing.T, tmpl, path string) {
		in := &hook.Input{HookEventName: "PreToolUse"}
		in.ToolInput, _ = json.Marshal(map[string]string{"file_path": path})
		out := expandJSON(`{"v": "`+tmpl+`"}`, in, []byte(`{}`))
		if json.Valid([]byte(`{"v": "`+strings.ReplaceAll(tmpl, "$ARGUMENTS", "")+`"}`)) &&
			!strings.Contains(tmpl, "ARGUMENTS") && !json.Valid([]byte(out)) {
			t.Fatalf("a valid template %q became invalid JSON %q", tmpl, out)
		}
	})
}
