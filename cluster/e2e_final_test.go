package cluster_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestE2EFinal compares the objects at until with the real control
// plane's: the `{"final": ...}` line of each real record (TestE2E compares
// the timelines) against the simulation's Result.Objects, as JSON.
//
// What is compared: every object of the kinds the real record lists, by
// kind, namespace and name, except pods, whose names are random: the pods
// are compared as a multiset of their normalized objects without name and
// node (kube-scheduler's ties are random, see TestE2E's knownDiffs), so
// each pod of the real run must have a twin in the simulation with the
// same owner, spec, phase, conditions and container states.
//
// Normalization drops what is the run's and not behaviour (uids,
// resourceVersions, managed fields, times, container and image ids, pod
// IPs, the random pod-name suffix in a pod's generateName-derived name)
// and empty values (upstream's JSON prints an empty struct as {}, package
// api leaves it out; an empty message as ""); condition lists are sorted by
// type (the harness's kubelet writes its own order, the simulation the
// real kubelet's). It drops what the simulation does not model, as
// ../NEXT.md lists: the ServiceAccount admission plugin's token volume
// and the deprecated serviceAccount alias, the TTL controller's node annotation, conditions'
// observedGeneration (the real kubelet writes it, the harness's does not).
func TestE2EFinal(t *testing.T) {
	realRuns(t, func(t *testing.T, name, path string) {
		realObjs := readFinal(t, path)
		_, res := runRealScenario(t, name)
		var simObjs []map[string]any
		for _, o := range res.Objects {
			data, err := json.Marshal(o)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			if m["kind"] == nil { // objects the controllers made carry no TypeMeta
				m["kind"] = reflect.TypeOf(o).Elem().Name()
			}
			simObjs = append(simObjs, m)
		}
		known := knownFinal[strings.SplitN(name, "@", 2)[0]]
		for _, d := range finalDiffs(realObjs, simObjs) {
			if !known.allows(e2eDiff{key: d}) {
				t.Errorf("%s: %s", name, d)
			}
		}
	})
}

// knownFinal are the final-object differences each scenario keeps, with
// the reason (entries without a Side, matching a diff line). Most of the
// timelines' known differences, random ties and races, leave the same
// objects at until once pods are compared without their names and nodes;
// those listed here do not.
var knownFinal = map[string]knownList{
	// The node's volumesAttached lists the three volumes in the attach-
	// detach controller's map order upstream, by name here.
	"sts-pvc-quota": {{Contains: []string{"Node//node-1 .status.volumesAttached["}, Why: "the order of a map upstream"}},
	// Two syncs of the rollout where the simulation makes one (TestE2E's
	// knownDiffs): each ReplicaSet's spec was written once more.
	"rollout-tight":          {{Contains: []string{".metadata.generation"}, Why: "one scale step per pod readiness upstream, one for both here"}},
	"rollout-surge-all":      {{Contains: []string{".metadata.generation"}, Why: "two scale-down steps upstream, one here"}},
	"deploy-image-and-scale": {{Contains: []string{".metadata.generation"}, Why: "one-pod scale steps upstream, two-pod steps here"}},
	"job-indexed-lost":       {{Contains: []string{"Pod Job/work"}, Why: "which index was on the lost node: the scheduler's tie at setup"}},
}

// readFinal reads the `{"final": ...}` line of a real record: a List's
// items.
func readFinal(t *testing.T, path string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.HasPrefix(line, []byte(`{"final"`)) {
			continue
		}
		var f struct {
			Final struct {
				Items []map[string]any `json:"items"`
			} `json:"final"`
		}
		if err := json.Unmarshal(line, &f); err != nil {
			t.Fatalf("%s: final: %v", path, err)
		}
		return f.Final.Items
	}
	t.Fatalf("%s: no final line", path)
	return nil
}

// finalKinds are the kinds the harness lists in its final objects, all
// namespaces but systemNamespaces: the simulation's objects of these kinds
// are compared, whether or not the real run has any (a Job the simulation
// keeps and the real run deleted is a difference).
var finalKinds = map[string]bool{"Node": true, "Pod": true, "Deployment": true, "ReplicaSet": true, "StatefulSet": true, "DaemonSet": true,
	"Job": true, "PodDisruptionBudget": true, "PersistentVolumeClaim": true, "PersistentVolume": true, "StorageClass": true,
	"VolumeAttachment": true, "Service": true}

var systemNamespaces = map[string]bool{"kube-system": true, "kube-public": true, "kube-node-lease": true}

// finalDiffs lists the differences between the real and the simulated
// final objects, as lines "<kind>/<namespace>/<name> <path>: real <v>, sim
// <v>" (pods: "Pod <owner>: only real|only simulated: <object>").
func finalDiffs(realObjs, simObjs []map[string]any) []string {
	index := func(objs []map[string]any) (map[string]any, map[string][]string) {
		byKey := map[string]any{}
		pods := map[string][]string{}
		for _, o := range objs {
			kind := str(o["kind"])
			meta, _ := o["metadata"].(map[string]any)
			if !finalKinds[kind] || systemNamespaces[str(meta["namespace"])] {
				continue
			}
			// The kind is the key; objects the controllers made carry no
			// TypeMeta here.
			o = maps.Clone(o)
			delete(o, "apiVersion")
			if kind == "Pod" {
				owner := "-"
				if refs, _ := meta["ownerReferences"].([]any); len(refs) > 0 {
					r, _ := refs[0].(map[string]any)
					owner = str(r["kind"]) + "/" + str(r["name"])
				}
				data, _ := json.Marshal(normalizeFinal(kind, "", o))
				pods[owner] = append(pods[owner], string(data))
				continue
			}
			byKey[kind+"/"+str(meta["namespace"])+"/"+str(meta["name"])] = normalizeFinal(kind, "", o)
		}
		return byKey, pods
	}
	rk, rp := index(renameUIDs(renameVolumes(realInitReady(realTerminalReasons(realObjs)))))
	sk, sp := index(renameUIDs(renameVolumes(simObjs)))
	var out []string
	for _, key := range slices.Sorted(maps.Keys(rk)) {
		s, ok := sk[key]
		if !ok {
			out = append(out, key+": only real")
			continue
		}
		diffValues(key, "", rk[key], s, &out)
	}
	for _, key := range slices.Sorted(maps.Keys(sk)) {
		if _, ok := rk[key]; !ok {
			out = append(out, key+": only simulated")
		}
	}
	for _, owner := range unionKeys(rp, sp) {
		r, s := slices.Clone(rp[owner]), slices.Clone(sp[owner])
		sort.Strings(r)
		sort.Strings(s)
		i, j := 0, 0
		for i < len(r) || j < len(s) {
			switch {
			case j == len(s) || i < len(r) && r[i] < s[j]:
				out = append(out, fmt.Sprintf("Pod %s: only real: %s", owner, r[i]))
				i++
			case i == len(r) || s[j] < r[i]:
				out = append(out, fmt.Sprintf("Pod %s: only simulated: %s", owner, s[j]))
				j++
			default:
				i++
				j++
			}
		}
	}
	return out
}

// realTerminalReasons gives a Failed pod of the real run the Ready and
// ContainersReady reason a real kubelet writes, PodFailed
// (GenerateContainersReadyCondition and GeneratePodReadyCondition for a
// terminal phase): the harness's kubelet writes PodCompleted for every
// terminal pod, Failed ones included (seen on a pod a finalizer keeps,
// the run pod-finalizer).
func realTerminalReasons(objs []map[string]any) []map[string]any {
	return fixPodStatusList(objs, "conditions", func(st map[string]any) bool { return str(st["phase"]) == "Failed" },
		func(m map[string]any) bool {
			if t := str(m["type"]); (t == "Ready" || t == "ContainersReady") && str(m["reason"]) == "PodCompleted" {
				m["reason"] = "PodFailed"
				return true
			}
			return false
		})
}

// realInitReady marks the real run's regular init containers that
// completed with exit code 0 ready, as a kubelet's prober manager does:
// the harness's kubelet leaves them unready.
func realInitReady(objs []map[string]any) []map[string]any {
	return fixPodStatusList(objs, "initContainerStatuses", func(map[string]any) bool { return true },
		func(m map[string]any) bool {
			state, _ := m["state"].(map[string]any)
			if t, _ := state["terminated"].(map[string]any); t != nil && fmt.Sprint(t["exitCode"]) == "0" && m["ready"] == false {
				m["ready"] = true
				return true
			}
			return false
		})
}

// fixPodStatusList returns objs with fix applied to every entry of the
// list field of the status of each pod whose status when accepts; fix
// edits a copy of the entry and says whether it changed it. The objects
// given are not modified.
func fixPodStatusList(objs []map[string]any, field string, when func(st map[string]any) bool, fix func(m map[string]any) bool) []map[string]any {
	out := make([]map[string]any, len(objs))
	for i, o := range objs {
		out[i] = o
		st, _ := o["status"].(map[string]any)
		list, _ := st[field].([]any)
		if str(o["kind"]) != "Pod" || len(list) == 0 || !when(st) {
			continue
		}
		fixed := make([]any, len(list))
		for j, c := range list {
			m, _ := c.(map[string]any)
			if cp := maps.Clone(m); fix(cp) {
				m = cp
			}
			fixed[j] = m
		}
		st = maps.Clone(st)
		st[field] = fixed
		o = maps.Clone(o)
		o["status"] = st
		out[i] = o
	}
	return out
}

// unionKeys is the keys of a and b, sorted.
func unionKeys[V any](a, b map[string]V) []string {
	keys := slices.Collect(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// droppedFinal are the fields normalizeFinal drops wherever they are.
var droppedFinal = map[string]bool{
	"uid": true, "resourceVersion": true, "managedFields": true, "creationTimestamp": true,
	"containerID": true, "imageID": true, "podIP": true, "podIPs": true, "observedGeneration": true,
	"lastHeartbeatTime": true, "lastTransitionTime": true, "lastProbeTime": true, "lastUpdateTime": true,
	"startTime": true, "startedAt": true, "finishedAt": true, "timeAdded": true, "lastScaleTime": true,
	"completionTime": true, "lastPhaseTransitionTime": true, "disruptedPods": true,
	// The scheduler's tie decides where a pod runs, and so its host IP.
	"nodeName": true, "hostIP": true, "hostIPs": true,
	// The Service registry allocates these at random upstream, in order
	// here.
	"clusterIP": true, "clusterIPs": true, "nodePort": true,
	// The deprecated alias of serviceAccountName that v1 writes (api
	// does not model it).
	"serviceAccount": true,
}

// normalizeFinal returns v without droppedFinal's fields, the fields named
// in the comment of TestE2EFinal and empty values, its conditions sorted by
// type; kind is the object's kind, field the name v is held under.
func normalizeFinal(kind, field string, v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if droppedFinal[k] {
				continue
			}
			switch {
			case kind == "Pod" && k == "metadata":
				// The name's random suffix, the deletion's time.
				m, _ := e.(map[string]any)
				e = map[string]any{"labels": m["labels"], "ownerReferences": m["ownerReferences"],
					"annotations": m["annotations"], "finalizers": m["finalizers"], "generation": m["generation"],
					"deleting": m["deletionTimestamp"] != nil, "deletionGracePeriodSeconds": m["deletionGracePeriodSeconds"]}
			case k == "metadata":
				m, _ := e.(map[string]any)
				c := map[string]any{}
				for mk, mv := range m {
					if mk == "deletionTimestamp" {
						c["deleting"] = mv != nil
						continue
					}
					c[mk] = mv
				}
				e = c
			case k == "annotations":
				m, _ := e.(map[string]any)
				c := map[string]any{}
				for ak, av := range m {
					if ak != "node.alpha.kubernetes.io/ttl" {
						c[ak] = av
					}
				}
				e = c
			case kind == "Pod" && k == "volumes":
				e = dropAPIAccess(e, "name")
			case kind == "Pod" && k == "volumeMounts":
				e = dropAPIAccess(e, "name")
			}
			if n := normalizeFinal(kind, k, e); !emptyFinal(n) {
				out[k] = n
			}
		}
		return out
	case []any:
		var out []any
		for _, e := range x {
			out = append(out, normalizeFinal(kind, "", e))
		}
		if field == "conditions" {
			sort.SliceStable(out, func(i, j int) bool {
				a, _ := out[i].(map[string]any)
				b, _ := out[j].(map[string]any)
				return str(a["type"]) < str(b["type"])
			})
		}
		return out
	case string:
		return refusedPodName(x)
	}
	return v
}

// dropAPIAccess drops the ServiceAccount admission plugin's projected
// volume (and its mounts): entries whose name starts with kube-api-access-.
func dropAPIAccess(v any, nameField string) any {
	list, _ := v.([]any)
	var out []any
	for _, e := range list {
		m, _ := e.(map[string]any)
		if strings.HasPrefix(str(m[nameField]), "kube-api-access-") {
			continue
		}
		out = append(out, e)
	}
	return out
}

func emptyFinal(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case map[string]any:
		return len(x) == 0
	case []any:
		return len(x) == 0
	}
	return false
}

// diffValues appends the differences of real and sim under path.
func diffValues(key, path string, real, sim any, out *[]string) {
	rm, rok := real.(map[string]any)
	sm, sok := sim.(map[string]any)
	if rok && sok {
		for _, k := range unionKeys(rm, sm) {
			diffValues(key, path+"."+k, rm[k], sm[k], out)
		}
		return
	}
	rl, rok := real.([]any)
	sl, sok := sim.([]any)
	if rok && sok && len(rl) == len(sl) {
		for i := range rl {
			diffValues(key, fmt.Sprintf("%s[%d]", path, i), rl[i], sl[i], out)
		}
		return
	}
	if !reflect.DeepEqual(real, sim) {
		r, _ := json.Marshal(real)
		s, _ := json.Marshal(sim)
		*out = append(*out, fmt.Sprintf("%s %s: real %s, sim %s", key, path, r, s))
	}
}

// renameUIDs writes every object's uid, wherever a string holds it (a
// Job's controller-uid labels and selector), as uid-of-<kind>/<name>.
func renameUIDs(objs []map[string]any) []map[string]any {
	names := map[string]string{}
	for _, o := range objs {
		meta, _ := o["metadata"].(map[string]any)
		if uid := str(meta["uid"]); uid != "" {
			names[uid] = "uid-of-" + str(o["kind"]) + "/" + str(meta["name"])
		}
	}
	return renameStrings(objs, names)
}

// renameVolumes names what a run names by random uid, as TestE2E does: a
// provisioned PersistentVolume (pvc-<claim uid>) becomes
// pv-of-<namespace>-<claim> (with #<n> for its claim's n-th volume), a
// VolumeAttachment (csi-<hash>) va-<volume>-<node>; every string holding
// an old name gets the new one.
func renameVolumes(objs []map[string]any) []map[string]any {
	names := map[string]string{}
	seen := map[string]int{}
	for _, o := range objs {
		if str(o["kind"]) != "PersistentVolume" {
			continue
		}
		meta, _ := o["metadata"].(map[string]any)
		spec, _ := o["spec"].(map[string]any)
		ref, _ := spec["claimRef"].(map[string]any)
		if ref == nil {
			continue
		}
		base := "pv-of-" + str(ref["namespace"]) + "-" + str(ref["name"])
		seen[base]++
		if seen[base] > 1 {
			base += fmt.Sprintf("#%d", seen[base])
		}
		names[str(meta["name"])] = base
	}
	for _, o := range objs {
		if str(o["kind"]) != "VolumeAttachment" {
			continue
		}
		meta, _ := o["metadata"].(map[string]any)
		spec, _ := o["spec"].(map[string]any)
		src, _ := spec["source"].(map[string]any)
		pv := str(src["persistentVolumeName"])
		if n, ok := names[pv]; ok {
			pv = n
		}
		names[str(meta["name"])] = "va-" + pv + "-" + str(spec["nodeName"])
	}
	return renameStrings(objs, names)
}

// renameStrings replaces each key of names by its value in every string
// of objs (map keys included), longer names first.
func renameStrings(objs []map[string]any, names map[string]string) []map[string]any {
	if len(names) == 0 {
		return objs
	}
	olds := slices.Sorted(maps.Keys(names))
	// Longer names first, so that no name is replaced inside another.
	sort.SliceStable(olds, func(i, j int) bool { return len(olds[i]) > len(olds[j]) })
	var rename func(v any) any
	rename = func(v any) any {
		switch x := v.(type) {
		case string:
			for _, old := range olds {
				x = strings.ReplaceAll(x, old, names[old])
			}
			return x
		case map[string]any:
			out := map[string]any{}
			for k, e := range x {
				out[rename(k).(string)] = rename(e)
			}
			return out
		case []any:
			out := make([]any, len(x))
			for i, e := range x {
				out[i] = rename(e)
			}
			return out
		}
		return v
	}
	out := make([]map[string]any, len(objs))
	for i, o := range objs {
		out[i] = rename(o).(map[string]any)
	}
	return out
}
