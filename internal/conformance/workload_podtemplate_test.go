package conformance

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/podsem/podsem/api"
)

// workload.pod-template: the pod a workload controller sends to the API
// server's create for a new replica. The cases are dispatched by the
// input's kind to the functions the per-kind files
// (workload_podtemplate_<kind>_test.go) put in podTemplateKinds.

func init() {
	register("workload.pod-template", runPodTemplate)
}

// podTemplateKinds maps an input kind (ReplicaSet, DaemonSet, Job,
// StatefulSet) to the function that builds, through podsem's public API,
// the pods that controller creates for the case's whole input; an error
// means upstream refuses to create them. Filled by the per-kind files'
// init functions.
var podTemplateKinds = map[string]func(input json.RawMessage) ([]*api.Pod, error){}

type podTemplateWant struct {
	Pods  []json.RawMessage `json:"pods"`
	Error bool              `json:"error"`
}

// podTemplateMetadata are the metadata fields the family compares.
var podTemplateMetadata = []string{"name", "generateName", "namespace", "labels", "annotations", "finalizers", "ownerReferences"}

func runPodTemplate(input, want json.RawMessage) error {
	var in struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	var w podTemplateWant
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	build, ok := podTemplateKinds[in.Kind]
	if !ok {
		return fmt.Errorf("workload.pod-template: no podsem implementation registered for kind %q", in.Kind)
	}
	pods, err := build(input)
	if (err != nil) != w.Error {
		return Mismatch("error", w.Error, fmt.Sprint(err))
	}
	if len(pods) != len(w.Pods) {
		return Mismatch("len(pods)", len(w.Pods), len(pods))
	}
	for i, p := range pods {
		b, err := json.Marshal(p)
		if err != nil {
			return fmt.Errorf("encoding pod %d: %w", i, err)
		}
		got, err := DecodeNumbers(b)
		if err != nil {
			return err
		}
		wantPod, err := DecodeNumbers(w.Pods[i])
		if err != nil {
			return fmt.Errorf("decoding want pod %d: %w", i, err)
		}
		gm, wm := asMap(got), asMap(wantPod)
		gmeta, wmeta := asMap(gm["metadata"]), asMap(wm["metadata"])
		for _, f := range podTemplateMetadata {
			if d := SameJSON(wmeta[f], gmeta[f], fmt.Sprintf("pods[%d].metadata.%s", i, f)); d != "" {
				return Mismatch(fmt.Sprintf("pods[%d].metadata.%s (%s)", i, f, d), wmeta[f], gmeta[f])
			}
		}
		gspec, wspec := asMap(gm["spec"]), asMap(wm["spec"])
		if in.Kind == "StatefulSet" {
			sortVolumesByName(gspec)
			sortVolumesByName(wspec)
		}
		if d := SameJSON(wspec, gspec, fmt.Sprintf("pods[%d].spec", i)); d != "" {
			return fmt.Errorf("pods[%d].spec differs: %s", i, d)
		}
	}
	return nil
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// sortVolumesByName orders a generic spec's volumes by name: the family
// compares a StatefulSet pod's volumes as a set keyed by name.
func sortVolumesByName(spec map[string]any) {
	vols, ok := spec["volumes"].([]any)
	if !ok {
		return
	}
	name := func(v any) string { s, _ := asMap(v)["name"].(string); return s }
	sort.SliceStable(vols, func(i, j int) bool { return name(vols[i]) < name(vols[j]) })
}
