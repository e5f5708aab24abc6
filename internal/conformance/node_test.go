package conformance

import (
	"encoding/json"
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
)

func init() {
	register("node.default-tolerations", runDefaultTolerations)
}

// --- node.default-tolerations ---

type defaultTolerationsInput struct {
	Op                 string  `json:"op"`
	Pod                api.Pod `json:"pod"`
	NotReadySeconds    *int64  `json:"notReadySeconds"`
	UnreachableSeconds *int64  `json:"unreachableSeconds"`
}

func runDefaultTolerations(input, want json.RawMessage) error {
	var in defaultTolerationsInput
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	if in.Op != "create" && in.Op != "update" {
		return fmt.Errorf("unknown op %q", in.Op)
	}
	got := admission.DefaultTolerations(&in.Pod, admission.TolerationSeconds{NotReady: in.NotReadySeconds, Unreachable: in.UnreachableSeconds})
	return sameAnswer(want, map[string]any{"tolerations": got})
}

// sameAnswer compares want with got encoded as JSON, with SameJSON's rules
// (absent equals empty, times by instant).
func sameAnswer(want json.RawMessage, got any) error {
	w, err := decodeNumbers(want)
	if err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	b, err := json.Marshal(got)
	if err != nil {
		return err
	}
	g, err := decodeNumbers(b)
	if err != nil {
		return err
	}
	if d := SameJSON(w, g, "want"); d != "" {
		return fmt.Errorf("%s\n    want %s\n    got  %s", d, want, b)
	}
	return nil
}
