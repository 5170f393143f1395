package executor

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookcore/hookcore/hook"
)

func TestFunc(t *testing.T) {
	t.Parallel()
	sentinel := errors.New("sentinel")
	tests := []struct {
		name   string
		fn     hook.ExecutorFunc
		want   hook.Decision
		errIs  error
		errHas string
	}{
		{name: "passes through", fn: func(context.Context, *hook.Input) (hook.Decision, error) {
			return hook.Decision{Block: true, Reason: "r"}, nil
		}, want: hook.Decision{Block: true, Reason: "r"}},
		{name: "error passes through", fn: func(context.Context, *hook.Input) (hook.Decision, error) {
			return hook.Decision{ExitCode: -1}, sentinel
		}, want: hook.Decision{ExitCode: -1}, errIs: sentinel},
		{name: "panic value", fn: func(context.Context, *hook.Input) (hook.Decision, error) { panic("boom") },
			want: hook.Decision{ExitCode: -1}, errHas: "hook panicked: boom"},
		{name: "panic error", fn: func(context.Context, *hook.Input) (hook.Decision, error) { panic(sentinel) },
			want: hook.Decision{ExitCode: -1}, errIs: sentinel, errHas: "hook panicked: sentinel"},
		{name: "nil func", want: hook.Decision{ExitCode: -1}, errIs: hook.ErrNotStarted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d, err := Func{Fn: tt.fn}.Execute(context.Background(), &hook.Input{})
			if diff := cmp.Diff(tt.want, d); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if tt.errIs != nil && !errors.Is(err, tt.errIs) {
				t.Errorf("err = %v, want %v", err, tt.errIs)
			}
			if tt.errIs == nil && tt.errHas == "" && err != nil {
				t.Errorf("err = %v", err)
			}
			if tt.errHas != "" && (err == nil || !strings.Contains(err.Error(), tt.errHas)) {
				t.Errorf("err = %v, want %q", err, tt.errHas)
			}
		})
	}
}
