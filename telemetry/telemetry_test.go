package telemetry_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	colmetricpb "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"go.uber.org/goleak"
	"google.golang.org/protobuf/proto"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/telemetry"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// receiver is an OTLP/HTTP receiver on loopback that decodes what arrives with the
// collector's protobuf request types.
type receiver struct {
	*httptest.Server
	mu      sync.Mutex
	traces  []*coltracepb.ExportTraceServiceRequest
	metrics []*colmetricpb.ExportMetricsServiceRequest
	headers []string
}

func newReceiver(t *testing.T) *receiver {
	rc := &receiver{}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		rc.mu.Lock()
		defer rc.mu.Unlock()
		rc.headers = append(rc.headers, r.Header.Get("X-Team"))
		switch r.URL.Path {
		case "/v1/traces":
			var req coltracepb.ExportTraceServiceRequest
			if err := proto.Unmarshal(body, &req); err != nil {
				t.Errorf("traces: %v", err)
			}
			rc.traces = append(rc.traces, &req)
			b, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
			w.Header().Set("Content-Type", "application/x-protobuf")
			w.Write(b)
		case "/v1/metrics":
			var req colmetricpb.ExportMetricsServiceRequest
			if err := proto.Unmarshal(body, &req); err != nil {
				t.Errorf("metrics: %v", err)
			}
			rc.metrics = append(rc.metrics, &req)
			b, _ := proto.Marshal(&colmetricpb.ExportMetricsServiceResponse{})
			w.Header().Set("Content-Type", "application/x-protobuf")
			w.Write(b)
		default:
			t.Errorf("unexpected path %s", r.URL.Path)
		}
	}))
	t.Cleanup(rc.Close)
	return rc
}

// runner builds a Runner with one inject hook and one blocking func hook, traced by p.
func runner(t *testing.T, p *telemetry.Provider) *hookcore.Runner {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "hooks.yaml")
	cfg := "hooks:\n  - {id: note, event: pre_tool_use, action: {type: inject, message: remember}}\n  - {id: guard, event: pre_tool_use, action: {type: func, name: guard}}\n"
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	set, errs := config.Load([]config.LayerPath{{Path: path, Layer: config.Explicit}})
	if err := errs.Err(); err != nil {
		t.Fatal(err)
	}
	r, err := hookcore.New(set, hookcore.Options{ProjectDir: dir, Tracer: p.Tracer(), Meter: p.Meter(),
		Funcs: map[string]hook.ExecutorFunc{"guard": func(ctx context.Context, in *hook.Input) (hook.Decision, error) {
			return hook.Decision{Block: true, Reason: "no"}, nil
		}}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

const secret = "rm -rf SECRET-TOKEN"

func fire(r *hookcore.Runner) hook.Result {
	return r.Fire(context.Background(), hook.PreToolUse, &hook.Input{SessionID: "s1", ToolName: "Bash",
		ToolInput: []byte(`{"command":"` + secret + `"}`)})
}

// TestExportOTLP: spans and metrics reach a real OTLP/HTTP receiver, configured by the
// standard variables (headers included), with the parent/child structure and no tool input.
func TestExportOTLP(t *testing.T) {
	rc := newReceiver(t)
	t.Setenv("OTEL_EXPORTER_OTLP_HEADERS", "X-Team=platform") // read by the SDK itself
	t.Setenv("OTEL_SERVICE_NAME", "hookcore-test")
	p, err := telemetry.New(context.Background(), telemetry.Config{Getenv: env(map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": rc.URL}), Endpoint: rc.URL})
	if err != nil || p == nil {
		t.Fatalf("New: %v, %v", p, err)
	}
	r := runner(t, p)
	if res := fire(r); !res.Blocked {
		t.Fatalf("not blocked: %+v", res)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if err := p.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	type span struct{ name, parent, id string }
	var spans []span
	var fireID string
	service := ""
	for _, req := range rc.traces {
		raw, _ := proto.Marshal(req)
		if strings.Contains(string(raw), "SECRET-TOKEN") {
			t.Errorf("the tool input was exported")
		}
		for _, rs := range req.ResourceSpans {
			for _, kv := range rs.Resource.GetAttributes() {
				if kv.Key == "service.name" {
					service = kv.Value.GetStringValue()
				}
			}
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					spans = append(spans, span{s.Name, string(s.ParentSpanId), string(s.SpanId)})
					if s.Name == "hookcore.fire" {
						fireID = string(s.SpanId)
						if len(s.ParentSpanId) != 0 {
							t.Errorf("fire span has a parent")
						}
					}
				}
			}
		}
	}
	if len(spans) != 3 || fireID == "" {
		t.Fatalf("spans %+v, want a fire span and 2 hook spans", spans)
	}
	for _, s := range spans {
		if s.name == "hookcore.hook" && s.parent != fireID {
			t.Errorf("hook span not a child of the fire span")
		}
	}
	if service != "hookcore-test" {
		t.Errorf("service.name = %q", service)
	}
	names := map[string]bool{}
	for _, req := range rc.metrics {
		for _, rm := range req.ResourceMetrics {
			for _, sm := range rm.ScopeMetrics {
				for _, m := range sm.Metrics {
					names[m.Name] = true
				}
			}
		}
	}
	for _, n := range []string{"hookcore.decisions", "hookcore.hook.duration"} {
		if !names[n] {
			t.Errorf("metric %s not exported (got %v)", n, names)
		}
	}
	for _, h := range rc.headers {
		if h != "platform" {
			t.Errorf("OTEL_EXPORTER_OTLP_HEADERS not sent: X-Team=%q", h)
		}
	}
}

// TestHangingCollector: while the collector holds an export open, events keep being
// decided; Shutdown gives up at its deadline.
func TestHangingCollector(t *testing.T) {
	entered := make(chan struct{}, 100)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		<-release
	}))
	defer srv.Close()
	defer close(release)
	p, err := telemetry.New(context.Background(), telemetry.Config{Endpoint: srv.URL, Getenv: env(nil), BatchTimeout: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	r := runner(t, p)
	fire(r)
	<-entered // an export is now stuck in the collector
	const n = 200
	for i := 0; i < n; i++ {
		if res := fire(r); !res.Blocked {
			t.Fatal("not blocked")
		}
	}
	if got := len(entered); got > 1 {
		// The exporter sends one batch at a time: the stuck request is the only one open.
		t.Logf("%d more exports started", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if err := p.Shutdown(ctx); err == nil {
		t.Errorf("Shutdown against a hung collector returned no error")
	}
}

func TestOff(t *testing.T) {
	for _, c := range []telemetry.Config{
		{Getenv: env(nil)},
		{Getenv: env(map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1", "OTEL_SDK_DISABLED": "true"})},
		{Endpoint: "http://127.0.0.1:1", Getenv: env(map[string]string{"OTEL_SDK_DISABLED": "TRUE"})},
	} {
		p, err := telemetry.New(context.Background(), c)
		if p != nil || err != nil {
			t.Errorf("%+v: %v, %v, want off", c, p, err)
		}
		if p.Tracer() != nil || p.Meter() != nil || p.Shutdown(context.Background()) != nil {
			t.Errorf("nil Provider is not inert")
		}
	}
	if !(telemetry.Config{Getenv: env(map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://x"})}).Enabled() {
		t.Errorf("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT does not enable")
	}
}
