package agent_test

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	if os.Getenv("AGENT_SIGNAL_HELPER") != "" {
		signalHelper()
		return
	}
	goleak.VerifyTestMain(m)
}
