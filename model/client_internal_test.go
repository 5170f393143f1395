package model

import (
	"net/http"
	"testing"
)

// TestConfigClientHasItsOwnPool: without Config.HTTPClient an endpoint gets a transport of
// its own, not http.DefaultTransport, whose idle connections anyone may close (every
// httptest.Server.Close does): TestAPIKeyNotSentToAnotherOrigin failed under load with
// "transport connection broken: http: CloseIdleConnections called".
func TestConfigClientHasItsOwnPool(t *testing.T) {
	t.Parallel()
	e := Config{}.endpoint("m", "k", "http://127.0.0.1:1")
	if e.HTTPClient == nil || e.HTTPClient.Transport == nil || e.HTTPClient.Transport == http.DefaultTransport {
		t.Fatalf("client %+v shares http.DefaultTransport", e.HTTPClient)
	}
	given := &http.Client{}
	if got := (Config{HTTPClient: given}).endpoint("m", "k", "").HTTPClient; got != given {
		t.Fatal("a configured client was replaced")
	}
}
