package hook

// ErrBadInput: the event input cannot be given to the hook. It is too large (ErrInputTooLarge,
// a kind of ErrBadInput), or it cannot be encoded as the JSON the hook reads: a tool_input
// or tool_response that is not valid JSON (a json.RawMessage passed by a library caller),
// or nesting deeper than encoding/json writes (10 000). The input, which the model
// controls, caused it, not the config, so on a gate event the Runner blocks a blocking hook
// instead of failing open (merge, rule 9): a guard must not be switched off by an input it
// cannot read. Executors that encode the input (command, http, prompt, agent) wrap it, with
// ErrNotStarted.
var ErrBadInput error = inputKind("hook input cannot be given to the hook")

// inputKind is a sentinel error of the ErrBadInput family: a kind other than ErrBadInput
// itself matches ErrBadInput with errors.Is.
type inputKind string

func (e inputKind) Error() string { return string(e) }

// Is reports whether target is ErrBadInput.
func (e inputKind) Is(target error) bool { return target == ErrBadInput }
