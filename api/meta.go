package api

import (
	"encoding/json"
	"fmt"
	"time"
)

// TypeMeta is the kind and apiVersion pair every Kubernetes object carries
// (apimachinery's metav1.TypeMeta). Items of a list often leave both empty.
type TypeMeta struct {
	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
}

// ObjectMeta is the metadata common to all persisted Kubernetes objects
// (apimachinery's metav1.ObjectMeta), restricted to the fields whose values
// the pod rules read.
type ObjectMeta struct {
	Name                       string            `json:"name,omitempty"`
	GenerateName               string            `json:"generateName,omitempty"`
	Namespace                  string            `json:"namespace,omitempty"`
	UID                        string            `json:"uid,omitempty"`
	ResourceVersion            string            `json:"resourceVersion,omitempty"`
	Generation                 int64             `json:"generation,omitempty"`
	CreationTimestamp          Time              `json:"creationTimestamp,omitzero"`
	DeletionTimestamp          *Time             `json:"deletionTimestamp,omitempty"`
	DeletionGracePeriodSeconds *int64            `json:"deletionGracePeriodSeconds,omitempty"`
	Labels                     map[string]string `json:"labels,omitempty"`
	Annotations                map[string]string `json:"annotations,omitempty"`
	OwnerReferences            []OwnerReference  `json:"ownerReferences,omitempty"`
	Finalizers                 []string          `json:"finalizers,omitempty"`
}

// OwnerReference names the object that owns another (metav1.OwnerReference).
// The owner with Controller set is the object's managing controller, which
// the disruption controller, kubectl drain and topology spread defaulting
// consult.
type OwnerReference struct {
	APIVersion         string `json:"apiVersion,omitempty"`
	Kind               string `json:"kind,omitempty"`
	Name               string `json:"name,omitempty"`
	UID                string `json:"uid,omitempty"`
	Controller         *bool  `json:"controller,omitempty"`
	BlockOwnerDeletion *bool  `json:"blockOwnerDeletion,omitempty"`
}

// ControllerRef returns the owner reference marked controller: true, or nil
// when the object has no managing controller (metav1.GetControllerOf). A
// nil ObjectMeta has none.
func (m *ObjectMeta) ControllerRef() *OwnerReference {
	if m == nil {
		return nil
	}
	for i := range m.OwnerReferences {
		if c := m.OwnerReferences[i].Controller; c != nil && *c {
			return &m.OwnerReferences[i]
		}
	}
	return nil
}

// Time is a point in time that encodes as RFC 3339 in JSON, like
// metav1.Time: the zero Time encodes as null and null decodes as zero.
// Fractional seconds are accepted on input and kept (MicroTime-style
// timestamps appear in some inputs); output uses RFC 3339 with nanoseconds
// only when there are any.
type Time struct {
	time.Time
}

// NewTime wraps t.
func NewTime(t time.Time) Time { return Time{t} }

// NewTimePtr returns a pointer to a Time holding t.
func NewTimePtr(t time.Time) *Time { return &Time{t} }

// IsZero reports whether t is the zero time; nil counts as zero.
func (t *Time) IsZero() bool { return t == nil || t.Time.IsZero() }

// MarshalJSON encodes t as an RFC 3339 string, or null when zero.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.Time.IsZero() {
		return []byte("null"), nil
	}
	return json.Marshal(t.UTC().Format(time.RFC3339Nano))
}

// UnmarshalJSON decodes an RFC 3339 string or null (an empty string is
// the zero Time too). Any other JSON value, or a string that is not RFC
// 3339, is an error showing the value. A nil *Time cannot hold the result:
// the error wraps ErrInvalidInput.
func (t *Time) UnmarshalJSON(b []byte) error {
	if t == nil {
		return fmt.Errorf("%w: Time: nil pointer", errInvalidInput)
	}
	if string(b) == "null" {
		t.Time = time.Time{}
		return nil
	}
	var s string
	if jsonKindOf(b) != "string" || json.Unmarshal(b, &s) != nil {
		return &jsonKindError{want: "time must be an RFC 3339 string or null", got: b}
	}
	if s == "" {
		t.Time = time.Time{}
		return nil
	}
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return fmt.Errorf("time %q: not RFC 3339: %w", s, err)
	}
	t.Time = v
	return nil
}

// LabelSelector is the API form of a label query (metav1.LabelSelector):
// every matchLabels pair and every matchExpressions requirement must hold.
// A nil *LabelSelector selects nothing; an empty one selects everything,
// except where a consumer documents otherwise (see TRAPS in the README).
// Compile it once with LabelSelectorAsSelector and match many times.
type LabelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels,omitempty"`
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty"`
}

// LabelSelectorOperator is the operator of a LabelSelectorRequirement:
// In, NotIn, Exists or DoesNotExist.
type LabelSelectorOperator string

// The operators a LabelSelectorRequirement may use.
const (
	LabelSelectorOpIn           LabelSelectorOperator = "In"
	LabelSelectorOpNotIn        LabelSelectorOperator = "NotIn"
	LabelSelectorOpExists       LabelSelectorOperator = "Exists"
	LabelSelectorOpDoesNotExist LabelSelectorOperator = "DoesNotExist"
)

// LabelSelectorRequirement is one matchExpressions entry: key, operator and
// values (values must be non-empty for In/NotIn and empty otherwise).
type LabelSelectorRequirement struct {
	Key      string                `json:"key"`
	Operator LabelSelectorOperator `json:"operator"`
	Values   []string              `json:"values,omitempty"`
}
