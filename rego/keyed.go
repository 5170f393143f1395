package rego

import (
	"context"
	"errors"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/metrics"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/hookcore/hookcore/hook"
)

// decisionKeyOrder lists the keys apply reads, in a fixed order.
var decisionKeyOrder = [...]string{"deny", "ask", "allow", "reason", "updated_input", "additional_context", "system_message"}

// A keyed policy is one whose query names a package (the default, data.hookcore): instead
// of the package's whole document (every rule of it, helpers included), each decision key
// apply reads is queried on its own (data.hookcore.deny, ...), with OPA's evaluator
// (topdown) called directly on queries compiled at load. The other rules of the package
// (helpers such as rm_line or bash_command) are queried too, after the decision keys and
// for their errors only: the whole document fails when one of its rules fails (a
// conflict), and so must the keyed form. They share the event's virtual cache with the
// decision keys, so a helper a decision key has read is not evaluated twice; a helper
// whose value (or undefinedness) is already in that cache is not queried at all: its query
// would only read the cached value, which fails on nothing (a conflict found while the
// value was computed has already failed the decision key that computed it).
//
// With a prefilter, each key also has a guard (keyGuard): a key whose guard is false for
// an event keeps the value it has for the empty input {}, computed at load, and is not
// evaluated. A `rm -rf` event of the guardrails example evaluates deny only.
type keyed struct {
	c     *ast.Compiler
	store storage.Store
	keys  []keyQuery
}

// keyQuery is the compiled query of one decision key.
type keyQuery struct {
	key   string
	check bool     // not a decision key: queried for its errors only
	ref   ast.Ref  // data.<package>.<key>
	body  ast.Body // x = data.<package>.<key>, compiled
	qc    ast.QueryCompiler
	guard cond // the key can differ from its value for {} only when guard holds
	base  any  // its value for {} (nil: undefined), set with the prefilter
}

// resultVar is the variable the key queries bind.
var resultVar = ast.Var("x")

// noMetrics is handed to every evaluation: OPA's default allocates a metrics map per query.
var noMetrics = metrics.NoOp()

// newKeyed returns the keyed form of query for the compiled policy c in store, or nil when
// the query is not one ground reference to a package (a rule's value, a query with
// variables or input: the whole query is evaluated as before).
func newKeyed(ctx context.Context, c *ast.Compiler, store storage.Store, query string) *keyed {
	body, err := ast.ParseBody(query)
	if err != nil || len(body) != 1 {
		return nil
	}
	t, ok := body[0].Terms.(*ast.Term)
	if !ok {
		return nil
	}
	qref, ok := t.Value.(ast.Ref)
	if !ok || !qref.IsGround() || !qref.HasPrefix(ast.DefaultRootRef) || len(qref) < 2 {
		return nil
	}
	isPackage := false
	for _, m := range c.Modules {
		if m.Package.Path.Equal(qref) {
			isPackage = true
		}
	}
	for n := 2; n <= len(qref); n++ {
		if len(c.GetRulesExact(qref[:n])) > 0 {
			return nil // the document is (inside) a rule's value
		}
	}
	if !isPackage {
		return nil
	}
	k := &keyed{c: c, store: store}
	for _, key := range decisionKeyOrder {
		ref := qref.Append(ast.StringTerm(key))
		if len(c.GetRules(ref)) == 0 && len(c.GetRulesWithPrefix(ref)) == 0 && !hasBaseData(ctx, store, ref) {
			continue // undefined for every input
		}
		qc := c.QueryCompiler()
		compiled, err := qc.Compile(ast.NewBody(ast.Equality.Expr(ast.NewTerm(resultVar), ast.NewTerm(ref))))
		if err != nil {
			return nil
		}
		k.keys = append(k.keys, keyQuery{key: key, ref: ref, body: compiled, qc: qc, guard: always{}})
	}
	seen := map[string]bool{}
	for _, r := range c.GetRulesWithPrefix(qref) {
		ref := r.Ref()
		if len(ref) <= len(qref) {
			return nil
		}
		name, ok := ref[len(qref)].Value.(ast.String)
		if !ok {
			return nil
		}
		if decisionKeys[string(name)] || seen[string(name)] {
			continue
		}
		seen[string(name)] = true
		hr := qref.Append(ast.StringTerm(string(name)))
		qc := c.QueryCompiler()
		compiled, err := qc.Compile(ast.NewBody(ast.Equality.Expr(ast.NewTerm(resultVar), ast.NewTerm(hr))))
		if err != nil {
			return nil
		}
		k.keys = append(k.keys, keyQuery{key: string(name), check: true, ref: hr, body: compiled, qc: qc, guard: always{}})
	}
	return k
}

// hasBaseData reports whether the store holds data (a data.json of the policy or bundle)
// at ref.
func hasBaseData(ctx context.Context, store storage.Store, ref ast.Ref) bool {
	path, err := storage.NewPathForRef(ref)
	if err != nil {
		return true
	}
	_, err = storage.ReadOne(ctx, store, path)
	return err == nil || !storage.IsNotFound(err)
}

// withGuards gives each key its guard from pre and its value for {} from base (the result
// of eval for {}).
func (k *keyed) withGuards(pre *prefilter, base map[string]any) {
	for i := range k.keys {
		kq := &k.keys[i]
		if g, ok := pre.keys[kq.key]; ok {
			kq.guard = g
		}
		kq.base = base[kq.key]
	}
}

// eval queries the decision keys for in and returns the result object apply reads. With
// guarded, a key whose guard is false for in keeps its value for {} (see withGuards).
func (k *keyed) eval(ctx context.Context, in *hook.Input, guarded bool) (map[string]any, error) {
	var todoArr [16]bool
	todo := todoArr[:0]
	if len(k.keys) > len(todoArr) {
		todo = make([]bool, 0, len(k.keys))
	}
	todo = todo[:len(k.keys)]
	n := 0
	result := make(map[string]any, 4)
	for i, kq := range k.keys {
		if guarded && !kq.guard.may(in) {
			if kq.base != nil && !kq.check {
				result[kq.key] = kq.base
			}
			continue
		}
		todo[i] = true
		n++
	}
	if n == 0 {
		if ctx.Err() == nil && inputValid(in) {
			return result, nil
		}
		clear(result) // evaluate: the error evaluation gives
		for i := range k.keys {
			todo[i] = true
		}
		n = len(k.keys)
	}
	input, err := inputValue(in)
	if err != nil {
		return nil, err
	}
	inputTerm := ast.NewTerm(input)
	txn, err := k.store.NewTransaction(ctx)
	if err != nil {
		return nil, err
	}
	defer k.store.Abort(ctx, txn)
	cancel := topdown.NewCancel()
	if ctx.Err() != nil {
		cancel.Cancel()
	} else if ctx.Done() != nil {
		defer context.AfterFunc(ctx, cancel.Cancel)()
	}
	var vc topdown.VirtualCache // shared by the keys of one event: a helper rule is evaluated once
	if n > 1 {
		vc = topdown.NewVirtualCache()
	}
	for i, kq := range k.keys {
		if !todo[i] {
			continue
		}
		if kq.check && vc != nil && !cancel.Cancelled() {
			if cached, undefined := vc.Get(kq.ref); cached != nil || undefined {
				continue // a decision key evaluated it: its query would read this, and fail on nothing
			}
		}
		q := topdown.NewQuery(kq.body).
			WithQueryCompiler(kq.qc).
			WithCompiler(k.c).
			WithStore(k.store).
			WithTransaction(txn).
			WithInput(inputTerm).
			WithMetrics(noMetrics).
			WithCancel(cancel)
		if vc != nil {
			q = q.WithVirtualCache(vc)
		}
		var v *ast.Term
		err := q.Iter(ctx, func(qr topdown.QueryResult) error {
			v = qr[resultVar]
			return nil
		})
		if err != nil {
			return nil, err
		}
		if v == nil || kq.check {
			continue
		}
		x, err := ast.JSON(v.Value)
		if err != nil {
			return nil, errors.New(kq.key + ": " + err.Error())
		}
		result[kq.key] = x
	}
	return result, nil
}
