//go:build otel && !hookcore_lean

package cli_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/hookcore/hookcore/internal/cli"
)

// TestFireOTel: `hookcore fire --otel URL` sends its spans before it exits, and stdout
// holds the result only; a collector that is not there changes nothing but a warning on
// stderr.
func TestFireOTel(t *testing.T) {
	var mu sync.Mutex
	var spans []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.URL.Path == "/v1/traces" {
			var req coltracepb.ExportTraceServiceRequest
			if err := proto.Unmarshal(body, &req); err != nil {
				t.Errorf("traces: %v", err)
			}
			mu.Lock()
			for _, rs := range req.ResourceSpans {
				for _, ss := range rs.ScopeSpans {
					for _, s := range ss.Spans {
						spans = append(spans, s.Name)
					}
				}
			}
			mu.Unlock()
		}
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer srv.Close()
	dead, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	deadURL := "http://" + dead.Addr().String()
	dead.Close()

	config := filepath.Join(repoRoot(t), "examples", "minicode", "hooks.yaml")
	stdin := `{"session_id":"s1","cwd":"` + t.TempDir() + `","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`
	for _, url := range []string{srv.URL, deadURL} {
		var out, errb bytes.Buffer
		code := cli.Main([]string{"fire", "PreToolUse", "--config", config, "--otel", url}, strings.NewReader(stdin), &out, &errb)
		if code != 2 {
			t.Fatalf("%s: exit %d, want 2\nstdout: %s\nstderr: %s", url, code, out.String(), errb.String())
		}
		var res map[string]any
		if err := json.Unmarshal(out.Bytes(), &res); err != nil || res["blocked"] != true {
			t.Errorf("%s: stdout is not the result alone: %v\n%s", url, err, out.String())
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(spans, ",") != "hookcore.hook,hookcore.fire" && strings.Join(spans, ",") != "hookcore.fire,hookcore.hook" {
		t.Errorf("spans received: %v, want one fire and one hook span", spans)
	}
}
