package executor

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHTTPRedirectKeepsHeadersAtOrigin: an http hook's configured headers (here a token from
// allowed_env_vars, and Go's own sensitive Authorization) reach the configured origin only; a
// redirect to another origin — on loopback, another port — gets none of them, whatever the
// status code and whether the Runner's guarded client or a caller's client sends it
// (issue 10.9). A redirect within the origin keeps them.
func TestHTTPRedirectKeepsHeadersAtOrigin(t *testing.T) {
	t.Parallel()
	type seen struct{ Path, Token, Auth, Team string }
	var mu sync.Mutex
	var got []seen
	record := func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, seen{r.URL.Path, r.Header.Get("X-Token"), r.Header.Get("Authorization"), r.Header.Get("X-Team")})
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}
	other := httptest.NewServer(http.HandlerFunc(record))
	t.Cleanup(other.Close)
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away-302":
			http.Redirect(w, r, other.URL+"/landed", http.StatusFound)
		case "/away-307":
			http.Redirect(w, r, other.URL+"/landed", http.StatusTemporaryRedirect)
		case "/away-308":
			http.Redirect(w, r, other.URL+"/landed", http.StatusPermanentRedirect)
		case "/here":
			http.Redirect(w, r, "/home", http.StatusTemporaryRedirect)
		case "/via-origin":
			http.Redirect(w, r, "/away-307", http.StatusFound)
		default:
			record(w, r)
		}
	}))
	t.Cleanup(origin.Close)

	secret := seen{Token: "s3cret", Auth: "Bearer s3cret", Team: "blue"}
	tests := []struct {
		path string
		want seen // what the last hop received
	}{
		{"/away-302", seen{Path: "/landed"}},
		{"/away-307", seen{Path: "/landed"}},
		{"/away-308", seen{Path: "/landed"}},
		{"/via-origin", seen{Path: "/landed"}},
		{"/here", seen{"/home", secret.Token, secret.Auth, secret.Team}},
	}
	clients := map[string]*http.Client{"guarded": nil, "caller's": {}}
	for name, client := range clients {
		for _, tt := range tests {
			x := &HTTP{
				URL: origin.URL + tt.path, Client: client, AllowedHosts: []string{"127.0.0.1"},
				Headers:        map[string]string{"X-Token": "$TOKEN", "Authorization": "Bearer ${TOKEN}", "X-Team": "blue"},
				AllowedEnvVars: []string{"TOKEN"}, Env: []string{"TOKEN=s3cret"},
			}
			mu.Lock()
			got = nil
			mu.Unlock()
			if _, err := x.Execute(context.Background(), preToolUse()); err != nil {
				t.Fatalf("%s %s: %v", name, tt.path, err)
			}
			mu.Lock()
			last := got[len(got)-1]
			mu.Unlock()
			if diff := cmp.Diff(tt.want, last); diff != "" {
				t.Errorf("%s client, %s: last hop received (-want +got):\n%s", name, tt.path, diff)
			}
		}
	}
}

// TestSameOrigin: scheme, host (case and trailing dot aside) and port, with default ports.
func TestSameOrigin(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		want bool
	}{
		{"http://a.example/x", "http://A.example./y", true},
		{"http://a.example/", "http://a.example:80/", true},
		{"https://a.example/", "https://a.example:443/", true},
		{"http://a.example/", "https://a.example/", false},
		{"http://a.example:8080/", "http://a.example:8081/", false},
		{"http://a.example/", "http://b.a.example/", false},
		{"http://127.0.0.1/", "http://localhost/", false},
		{"http://[::1]:80/", "http://[::1]/", true},
	}
	for _, tt := range tests {
		a, b := mustURL(t, tt.a), mustURL(t, tt.b)
		if got := sameOrigin(a, b); got != tt.want {
			t.Errorf("sameOrigin(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
