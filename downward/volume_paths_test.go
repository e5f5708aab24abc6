package downward

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// A path that leaves the volume is refused with the API server's field
// error, and its file is not returned; the valid items still are.
func TestVolumeFilesRefusesEscapingPaths(t *testing.T) {
	name := &api.ObjectFieldSelector{FieldPath: "metadata.name"}
	pod := volumePod()
	pod.Spec.Volumes = []api.Volume{{Name: "other"}, {Name: "podinfo"}}
	vol := &api.Volume{Name: "podinfo", VolumeSource: api.VolumeSource{DownwardAPI: &api.DownwardAPIVolumeSource{
		Items: []api.DownwardAPIVolumeFile{
			{Path: "../../etc/passwd", FieldRef: name},
			{Path: "/abs/file", FieldRef: name},
			{Path: "..data", FieldRef: name},
			{Path: "a/../../b", FieldRef: name},
			{Path: "", FieldRef: name},
			{Path: "ok", FieldRef: name},
		},
	}}}
	got, err := VolumeFiles(pod, vol, nil, nil)
	if d := cmp.Diff([]File{{Path: "ok", Data: "web-0", Mode: 0o644}}, got); d != "" {
		t.Errorf("files (-want +got):\n%s", d)
	}
	if !errors.Is(err, ErrInvalidPath) {
		t.Fatalf("err %v, want ErrInvalidPath", err)
	}
	var fe *api.FieldError
	if !errors.As(err, &fe) || fe.Field != "spec.volumes[1].downwardAPI.path" || fe.BadValue != "../../etc/passwd" {
		t.Errorf("first field error %+v", fe)
	}
	for _, want := range []string{
		`spec.volumes[1].downwardAPI.path: Invalid value: "../../etc/passwd": must not contain '..'`,
		`spec.volumes[1].downwardAPI.path: Invalid value: "/abs/file": must be a relative path`,
		`spec.volumes[1].downwardAPI.path: Invalid value: "..data": must not start with '..'`,
		`spec.volumes[1].downwardAPI.path: Invalid value: "a/../../b": must not contain '..'`,
		`spec.volumes[1].downwardAPI.path: Required value`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}

func TestVolumeFilesRefusesEscapingProjectedPaths(t *testing.T) {
	vol := &api.Volume{Name: "all", VolumeSource: api.VolumeSource{Projected: &api.ProjectedVolumeSource{
		Sources: []api.VolumeProjection{
			{DownwardAPI: &api.DownwardAPIProjection{Items: []api.DownwardAPIVolumeFile{
				{Path: "/etc/shadow", FieldRef: &api.ObjectFieldSelector{FieldPath: "metadata.name"}},
			}}},
			{ConfigMap: &api.ConfigMapProjection{LocalObjectReference: api.LocalObjectReference{Name: "settings"},
				Items: []api.KeyToPath{{Key: "MODE", Path: "../mode"}, {Key: "MODE", Path: "mode"}}}},
			{Secret: &api.SecretProjection{LocalObjectReference: api.LocalObjectReference{Name: "creds"},
				Items: []api.KeyToPath{{Key: "USER", Path: "/root/user"}}}},
			{Secret: &api.SecretProjection{LocalObjectReference: api.LocalObjectReference{Name: "hostile"}}},
		},
	}}}
	lookup := Objects{
		ConfigMaps: envObjects.ConfigMaps,
		Secrets: map[string]map[string][]byte{
			"shop/creds":   envObjects.Secrets["shop/creds"],
			"shop/hostile": {"../../escape": []byte("x"), "": []byte("y"), "fine": []byte("z")},
		},
	}
	got, err := VolumeFiles(volumePod(), vol, nil, lookup)
	want := []File{{Path: "fine", Data: "z", Mode: 0o644}, {Path: "mode", Data: "fast", Mode: 0o644}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("files (-want +got):\n%s", d)
	}
	for _, w := range []string{
		`spec.volumes[all].projected.sources[0].downwardAPI.path: Invalid value: "/etc/shadow": must be a relative path`,
		`spec.volumes[all].projected.sources[1].configMap.items[0].path: Invalid value: "../mode": must not contain '..'`,
		`spec.volumes[all].projected.sources[2].secret.items[0].path: Invalid value: "/root/user": must be a relative path`,
		`data: Invalid value: "../../escape": must not contain '..'`,
		`data: Required value`,
	} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error lacks %q:\n%v", w, err)
		}
	}
}

// hostilePath draws paths built from elements that try to leave a
// directory: "..", ".", "..data", empty elements, a leading "/", a
// backslash (an ordinary character on Linux).
func hostilePath(t *rapid.T, label string) string {
	elems := rapid.SliceOfN(rapid.SampledFrom([]string{"..", ".", "..data", "", "a", "b", `..\x`, "...", "c.."}), 0, 5).Draw(t, label+"-elems")
	p := strings.Join(elems, "/")
	if rapid.Bool().Draw(t, label+"-abs") {
		p = "/" + p
	}
	return p
}

// isLocal is the volume's containment: a relative, non-empty path with
// no ".." element ("/"-separated, as on Linux).
func isLocal(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") {
		return false
	}
	for e := range strings.SplitSeq(p, "/") {
		if e == ".." {
			return false
		}
	}
	return true
}

// Every path VolumeFiles returns stays inside its volume, whatever the
// items' paths and the keys of the referenced objects.
func TestVolumeFilesPathsStayInside(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 4).Draw(t, "downward")
		var items []api.DownwardAPIVolumeFile
		for i := 0; i < n; i++ {
			items = append(items, api.DownwardAPIVolumeFile{Path: hostilePath(t, "item"), FieldRef: &api.ObjectFieldSelector{FieldPath: "metadata.name"}})
		}
		keys := map[string]string{}
		for i := rapid.IntRange(0, 3).Draw(t, "keys"); i > 0; i-- {
			keys[hostilePath(t, "key")] = "v"
		}
		var kp []api.KeyToPath
		for i := rapid.IntRange(0, 3).Draw(t, "kp"); i > 0; i-- {
			kp = append(kp, api.KeyToPath{Key: "k", Path: hostilePath(t, "kp")})
		}
		lookup := Objects{
			ConfigMaps: map[string]map[string]string{"shop/all": keys, "shop/k": {"k": "v"}},
			Secrets:    map[string]map[string][]byte{"shop/k": {"k": []byte("v")}},
		}
		vol := &api.Volume{Name: "v", VolumeSource: api.VolumeSource{Projected: &api.ProjectedVolumeSource{Sources: []api.VolumeProjection{
			{DownwardAPI: &api.DownwardAPIProjection{Items: items}},
			{ConfigMap: &api.ConfigMapProjection{LocalObjectReference: api.LocalObjectReference{Name: "all"}}},
			{ConfigMap: &api.ConfigMapProjection{LocalObjectReference: api.LocalObjectReference{Name: "k"}, Items: kp}},
			{Secret: &api.SecretProjection{LocalObjectReference: api.LocalObjectReference{Name: "k"}, Items: kp}},
		}}}}
		if rapid.Bool().Draw(t, "plain") {
			vol = &api.Volume{Name: "v", VolumeSource: api.VolumeSource{DownwardAPI: &api.DownwardAPIVolumeSource{Items: items}}}
		}
		files, err := VolumeFiles(volumePod(), vol, nil, lookup)
		for _, f := range files {
			if !isLocal(f.Path) {
				t.Fatalf("returned path %q leaves the volume (err %v)", f.Path, err)
			}
		}
		// Each refused path is refused with the API server's rule.
		for _, it := range items {
			bad := it.Path == "" || len(api.ValidateLocalNonReservedPath(it.Path, api.NewPath("p"))) > 0
			if bad && !errors.Is(err, ErrInvalidPath) {
				t.Fatalf("path %q accepted", it.Path)
			}
		}
	})
}
