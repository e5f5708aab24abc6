package managedfields

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// Operation is how a manager wrote its fields: Apply (server-side apply)
// or Update (create, update, patch).
type Operation string

// The two operations of metav1.ManagedFieldsEntry.
const (
	OperationApply  Operation = "Apply"
	OperationUpdate Operation = "Update"
)

// Manager identifies a field manager as the API server keys its entries:
// the name (the request's fieldManager, or the client's user agent), the
// operation, the API version and the subresource ("" for the main
// resource). Time is when it last changed the object.
type Manager struct {
	Name        string
	Operation   Operation
	APIVersion  string
	Subresource string
	Time        time.Time
}

func (m Manager) same(o Manager) bool {
	return m.Name == o.Name && m.Operation == o.Operation && m.APIVersion == o.APIVersion && m.Subresource == o.Subresource
}

// String is the manager as kube-apiserver prints it in a conflict: the
// quoted name, the subresource, and for an Update "using" its API version
// (and time).
func (m Manager) String() string {
	s := fmt.Sprintf("%q", m.Name)
	if m.Subresource != "" {
		s += fmt.Sprintf(" with subresource %q", m.Subresource)
	}
	if m.Operation == OperationUpdate {
		if m.Time.IsZero() {
			return s + " using " + m.APIVersion
		}
		return s + " using " + m.APIVersion + " at " + m.Time.UTC().Format(time.RFC3339)
	}
	return s
}

// Entry is one manager's fields (an entry of metadata.managedFields).
type Entry struct {
	Manager Manager
	Fields  Set
}

// ManagedFields is an object's field ownership, one entry per manager in
// the order they first wrote.
type ManagedFields []Entry

// Owner lists the managers owning p.
func (mf ManagedFields) Owner(p Path) []Manager {
	var out []Manager
	for _, e := range mf {
		if e.Fields.Has(p) {
			out = append(out, e.Manager)
		}
	}
	return out
}

func (mf ManagedFields) clone() ManagedFields {
	out := make(ManagedFields, len(mf))
	for i, e := range mf {
		out[i] = Entry{Manager: e.Manager, Fields: e.Fields.clone()}
	}
	return out
}

func (mf ManagedFields) index(m Manager) int {
	return slices.IndexFunc(mf, func(e Entry) bool { return e.Manager.same(m) })
}

// Conflict is one field an apply would change that another manager owns.
type Conflict struct {
	Manager Manager
	Path    Path
}

// ConflictError is an apply refused for its conflicts (HTTP 409
// Conflict, reason Conflict), with kube-apiserver's message:
// `Apply failed with 1 conflict: conflict with "kube-controller-manager"
// using apps/v1: .spec.replicas`, or, for several, one line per manager
// (sorted) and path.
type ConflictError struct {
	Conflicts []Conflict
}

func (e *ConflictError) Error() string {
	if e == nil {
		return "managedfields: nil ConflictError"
	}
	if len(e.Conflicts) == 1 {
		c := e.Conflicts[0]
		return fmt.Sprintf("Apply failed with 1 conflict: conflict with %v: %v", c.Manager, c.Path)
	}
	byManager := map[string][]Path{}
	var names []string
	for _, c := range e.Conflicts {
		k := c.Manager.String()
		if _, ok := byManager[k]; !ok {
			names = append(names, k)
		}
		byManager[k] = append(byManager[k], c.Path)
	}
	sort.Strings(names)
	var lines []string
	for _, n := range names {
		lines = append(lines, "conflicts with "+n+":")
		for _, p := range byManager[n] {
			lines = append(lines, "- "+string(p))
		}
	}
	return fmt.Sprintf("Apply failed with %d conflicts: %s", len(e.Conflicts), strings.Join(lines, "\n"))
}

// Apply is a server-side apply of config by manager (its Operation is
// set to Apply) to live, an object of kind with field ownership fields:
// the object to store and its new ownership. A nil live is a create; a
// nil config is an error wrapping ErrInvalidObject. An
// apply that changes fields other managers own fails with a
// *ConflictError unless force is set, in which case they lose them.
// live, config and fields are not modified.
func Apply(kind string, live, config map[string]any, fields ManagedFields, manager Manager, force bool) (map[string]any, ManagedFields, error) {
	manager.Operation = OperationApply
	sh := schema[kind]
	set, err := configFields(kind, config)
	if err != nil {
		return nil, nil, err
	}
	if live == nil {
		live = map[string]any{}
	} else if _, err := FieldsOf(kind, live); err != nil {
		return nil, nil, err
	}
	merged, _ := merge(deepCopy(live), config, sh, nil).(map[string]any)
	out := fields.clone()
	var last Set
	i := out.index(manager)
	if i >= 0 {
		last = out[i].Fields
		out[i] = Entry{Manager: manager, Fields: set}
	} else {
		out = append(out, Entry{Manager: manager, Fields: set})
		i = len(out) - 1
	}
	prune(merged, sh, last, out)
	added, modified, removed, _, err := compare(kind, live, merged)
	if err != nil {
		return nil, nil, err
	}
	var conflicts []Conflict
	for j := range out {
		if j == i {
			continue
		}
		for _, p := range append(slices.Clone(added), modified...) {
			if out[j].Fields.Has(p) {
				conflicts = append(conflicts, Conflict{Manager: out[j].Manager, Path: p})
				out[j].Fields.remove(p)
			}
		}
	}
	if len(conflicts) > 0 && !force {
		sort.SliceStable(conflicts, func(a, b int) bool { return conflicts[a].Path < conflicts[b].Path })
		return nil, nil, &ConflictError{Conflicts: conflicts}
	}
	return merged, dropRemoved(out, removed), nil
}

// Update is a write of new over old by manager (its Operation is set to
// Update; old nil is a create): the manager gains every field the write
// added or changed, which the other managers lose, and a field the write
// removed is owned by no one. old, new and fields are not modified; a
// nil new is an error wrapping ErrInvalidObject.
func Update(kind string, old, new map[string]any, fields ManagedFields, manager Manager) (ManagedFields, error) {
	manager.Operation = OperationUpdate
	if new == nil {
		return nil, fmt.Errorf("%w: new object: nil", ErrInvalidObject)
	}
	if old == nil {
		old = map[string]any{}
	}
	added, modified, removed, ns, err := compare(kind, old, new)
	if err != nil {
		return nil, err
	}
	out := fields.clone()
	changed := append(added, modified...)
	if len(changed) == 0 && len(removed) == 0 {
		return out, nil
	}
	i := out.index(manager)
	if i < 0 {
		out = append(out, Entry{Manager: manager})
		i = len(out) - 1
	}
	out[i].Manager.Time = manager.Time
	for j := range out {
		for _, p := range changed {
			if j == i {
				out[j].Fields.add(ns.m[p])
			} else {
				out[j].Fields.remove(p)
			}
		}
	}
	return dropRemoved(out, removed), nil
}

// dropRemoved takes the removed paths (and what lay inside them) from
// every manager and drops managers left with nothing.
func dropRemoved(mf ManagedFields, removed []Path) ManagedFields {
	for j := range mf {
		for _, r := range removed {
			for p := range mf[j].Fields.m {
				if p == r || p.under(r) {
					mf[j].Fields.remove(p)
				}
			}
		}
	}
	return slices.DeleteFunc(mf, func(e Entry) bool { return e.Fields.Len() == 0 })
}

// compare lists the paths of new not in old, those in both with another
// value, and those of old not in new; and new's fields.
func compare(kind string, old, new map[string]any) (added, modified, removed []Path, ns Set, err error) {
	os, err := FieldsOf(kind, old)
	if err != nil {
		return nil, nil, nil, Set{}, err
	}
	ns, err = FieldsOf(kind, new)
	if err != nil {
		return nil, nil, nil, Set{}, err
	}
	sh := schema[kind]
	for _, p := range ns.Paths() {
		es := ns.m[p]
		if !os.Has(p) {
			added = append(added, p)
			continue
		}
		a, _ := lookup(old, es, sh)
		b, _ := lookup(new, es, sh)
		if es[len(es)-1].kind == elemField && !equalValues(a, b) {
			modified = append(modified, p)
		}
	}
	for _, p := range os.Paths() {
		if !ns.Has(p) {
			removed = append(removed, p)
		}
	}
	return added, modified, removed, ns, nil
}

// merge is the applied configuration c merged into the live value l.
func merge(l, c any, sh *shape, es []elem) any {
	if sh == nil || !sh.atomic {
		if cm, ok := c.(map[string]any); ok {
			if lm, ok := l.(map[string]any); ok {
				out := make(map[string]any, len(lm)+len(cm))
				for k, v := range lm {
					out[k] = v
				}
				for k, cv := range cm {
					if skipped(es, k) && (len(es) > 0 || k == "status") {
						continue // status and system metadata are not applied
					}
					out[k] = merge(lm[k], cv, sh.child(k), append(es, elem{field: k}))
				}
				return out
			}
		}
		if cl, ok := c.([]any); ok && sh != nil && (sh.keys != nil || sh.set) {
			if ll, ok := l.([]any); ok {
				return mergeList(ll, cl, sh, es)
			}
		}
	}
	return deepCopy(c)
}

// mergeList merges an associative list or set as structured-merge-diff
// does: items of both are merged, in the configuration's order; items
// only the live list has stay where they were relative to them; items
// only the configuration has come where it puts them.
func mergeList(l, c []any, sh *shape, es []elem) []any {
	id := func(it any, i int) string {
		e, err := itemElem(sh, it, es, i)
		if err != nil {
			return fmt.Sprintf("#%d", i)
		}
		return e.String()
	}
	lIDs, cIDs := make([]string, len(l)), make([]string, len(c))
	inL, inC := map[string]int{}, map[string]int{}
	for i, it := range l {
		lIDs[i] = id(it, i)
		if _, ok := inL[lIDs[i]]; !ok {
			inL[lIDs[i]] = i
		}
	}
	for i, it := range c {
		cIDs[i] = id(it, i)
		inC[cIDs[i]] = i
	}
	var shared []string
	for _, k := range cIDs {
		if _, ok := inL[k]; ok {
			shared = append(shared, k)
		}
	}
	next := func() string {
		if len(shared) == 0 {
			return ""
		}
		k := shared[0]
		shared = shared[1:]
		return k
	}
	nextShared := next()
	done := map[string]bool{}
	item := func(k string, lv, cv any) any {
		if sh.set {
			return deepCopy(cv)
		}
		return merge(lv, cv, sh.item, append(es, elem{field: k}))
	}
	out := make([]any, 0, max(len(l), len(c)))
	for li, ci := 0, 0; li < len(l) || ci < len(c); {
		if li < len(l) && ci < len(c) {
			if lIDs[li] == cIDs[ci] {
				done[cIDs[ci]] = true
				out = append(out, item(cIDs[ci], l[li], c[ci]))
				li++
				ci++
				nextShared = next()
				continue
			}
			if _, ok := inC[lIDs[li]]; ok && nextShared != "" && nextShared != lIDs[li] {
				li++ // a shared item out of the configuration's order: placed when reached there
				continue
			}
		}
		if li < len(l) {
			if _, ok := inC[lIDs[li]]; !ok {
				out = append(out, deepCopy(l[li]))
				li++
				continue
			} else if done[lIDs[li]] {
				li++
			}
		}
		if ci < len(c) {
			k := cIDs[ci]
			done[k] = true
			var lv any
			if j, ok := inL[k]; ok {
				lv = l[j]
			}
			out = append(out, item(k, lv, c[ci]))
			ci++
			if nextShared == k {
				nextShared = next()
			}
		}
	}
	return out
}

// prune removes what the applier applied last time (last) and no longer
// does, where no manager owns it or anything inside it; a field holding
// fields, items or members it applied counts as applied itself.
func prune(merged map[string]any, sh *shape, last Set, owners ManagedFields) {
	if last.Len() == 0 {
		return
	}
	cand := last.clone()
	for _, es := range last.m {
		for n := 1; n < len(es); n++ {
			if es[n-1].kind == elemField {
				cand.add(es[:n])
			}
		}
	}
	paths := cand.Paths() // parents sort before their fields
	var gone []Path
	for _, p := range paths {
		if slices.ContainsFunc(gone, func(g Path) bool { return p.under(g) }) {
			continue
		}
		owned := false
		for _, e := range owners {
			if e.Fields.hasUnder(p) {
				owned = true
				break
			}
		}
		if owned {
			continue
		}
		removeAt(merged, cand.m[p], sh)
		gone = append(gone, p)
	}
}

// deepCopy copies a JSON value.
func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}
