package hookcore

import (
	"reflect"
	"testing"
	"time"
	"unsafe"

	"github.com/hookcore/hookcore/executor/command"
)

// identityNeutral lists the fields of compiled that are not part of a hook's identity, and
// why: a field added to compiled must either change identityOf or be listed here with its
// reason (issue 10.5: dedup must not drop a hook that decides differently).
var identityNeutral = map[string]string{
	"relative":   "derived from the command, which is part of the identity (the scripts it names by relative paths)",
	"order":      "position only: twins are merged in config order either way",
	"id":         "a name: twins with other ids do the same thing",
	"source":     "where the hook was written",
	"file":       "where the hook was written, like source (its once state is per file: scopedID)",
	"target":     "derived from the executor (its command line), which is compared whole",
	"event":      "dedup compares hooks of one event",
	"matcher":    "dedup compares hooks that both matched the call",
	"cond":       "dedup compares hooks that both matched the call",
	"verify":     "matching bookkeeping (the index): dedup compares hooks that both matched",
	"pos":        "position in its event's index, like order",
	"parallel":   "scheduling only: results are merged in config order",
	"identity":   "the identity itself",
	"twin":       "derived from the identities of the event's hooks: whether dedup can find this one a duplicate",
	"exec":       "compared field by field below (TestIdentityCoversEveryField/exec)",
	"closer":     "the executor again, as an io.Closer when it holds resources",
	"status":     "Claude Code statusMessage: shown while the hook runs, no part of the decision",
	"breakerKey": "derived from event and id (state.OnceKey), both neutral: the breaker's key in the session state",
	"cursor":     "matching: a Cursor hook's own event, checked before dedup compares hooks that both matched the call",
	"spanBlind":  "derived from the executor's type (inject), which is compared whole; telemetry only",
}

// commandNeutral lists the fields of command.Command left out of the identity.
var commandNeutral = map[string]string{
	"HookID": "a name, used in messages",
	"Now":    "the clock of an agent input's timestamp; the Runner never sets it",
	"Claude": "the dialect: a YAML and a settings-file hook with one command stay one hook (TestDedupIdenticalCommandHooks/two_layers); only a top-level decision \"ask\" reads differently",
}

func identityBase() *compiled {
	return &compiled{
		id: "h", typ: "command", source: "hooks.yaml:1", blocking: true,
		exec: &command.Command{
			HookID: "h", Command: "echo hi", Timeout: time.Second, ExitCodes: map[int]command.ExitAction{},
			ProjectDir: "/p", Env: []string{"A=1"}, MaxOutput: 10, Grace: time.Second,
		},
	}
}

// TestIdentityCoversEveryField changes each field of compiled and of command.Command in turn
// and checks that the identity changes, unless the field is listed as neutral.
func TestIdentityCoversEveryField(t *testing.T) {
	t.Parallel()
	ct := reflect.TypeFor[compiled]()
	for i := range ct.NumField() {
		name := ct.Field(i).Name
		if _, ok := identityNeutral[name]; ok {
			continue
		}
		c := identityBase()
		before := identityOf(c)
		if !mutate(t, field(reflect.ValueOf(c).Elem().Field(i))) {
			t.Errorf("compiled.%s: a field of kind %s; teach mutate to change it, or list it in identityNeutral", name, ct.Field(i).Type.Kind())
			continue
		}
		if identityOf(c) == before {
			t.Errorf("compiled.%s does not change the dedup identity: add it to identityOf, or to identityNeutral with a reason", name)
		}
	}
	xt := reflect.TypeFor[command.Command]()
	for i := range xt.NumField() {
		name := xt.Field(i).Name
		if _, ok := commandNeutral[name]; ok {
			continue
		}
		c := identityBase()
		before := identityOf(c)
		if !mutate(t, field(reflect.ValueOf(c.exec).Elem().Field(i))) {
			t.Errorf("command.Command.%s: a field of kind %s; teach mutate to change it, or list it in commandNeutral", name, xt.Field(i).Type.Kind())
			continue
		}
		if identityOf(c) == before {
			t.Errorf("command.Command.%s does not change the dedup identity", name)
		}
	}
	for name := range identityNeutral {
		if _, ok := ct.FieldByName(name); !ok {
			t.Errorf("identityNeutral lists %q, which compiled no longer has", name)
		}
	}
}

// field returns a settable view of v, also when v is an unexported field.
func field(v reflect.Value) reflect.Value {
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// mutate changes v to another value of its type and reports whether it knew how.
func mutate(t *testing.T, v reflect.Value) bool {
	t.Helper()
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(v.Uint() + 1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(v.Float() + 1)
	case reflect.Slice:
		v.Set(reflect.Append(v, reflect.New(v.Type().Elem()).Elem()))
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for _, k := range v.MapKeys() {
			m.SetMapIndex(k, v.MapIndex(k))
		}
		k := reflect.New(v.Type().Key()).Elem()
		for m.MapIndex(k).IsValid() {
			if !mutate(t, k) {
				return false
			}
		}
		m.SetMapIndex(k, reflect.New(v.Type().Elem()).Elem())
		v.Set(m)
	default:
		return false
	}
	return true
}
