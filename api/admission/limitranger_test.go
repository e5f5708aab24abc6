package admission_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
)

func limitRange(t *testing.T, doc string) *api.LimitRange {
	t.Helper()
	objs, err := api.Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	lr := objs[0].(*api.LimitRange)
	api.DefaultLimitRange(lr)
	return lr
}

func podOf(t *testing.T, doc string) *api.Pod {
	t.Helper()
	objs, err := api.Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	p := objs[0].(*api.Pod)
	api.DefaultPod(p)
	return p
}

func resources(c api.Container) string {
	b, _ := json.Marshal(c.Resources)
	return string(b)
}

// TestLimitRangerDefaults: a container without requests or limits gets
// the range's defaults (the default request from the default limit when
// the range gives none, the default limit from the max); one with its own
// keeps them (its memory request is its own limit, by API defaulting
// before admission); init containers too; the annotation names what was
// set.
func TestLimitRangerDefaults(t *testing.T) {
	lr := limitRange(t, `{"kind":"LimitRange","metadata":{"name":"lr","namespace":"team"},"spec":{"limits":[
	  {"type":"Container","default":{"cpu":"1"},"defaultRequest":{"cpu":"600m"},"max":{"memory":"1Gi"}}]}}`)
	if got := lr.Spec.Limits[0]; got.Default["memory"].String() != "1Gi" || got.DefaultRequest["memory"].String() != "1Gi" {
		t.Fatalf("API defaulting: %+v", got)
	}
	p := podOf(t, `{"kind":"Pod","metadata":{"name":"web","namespace":"team"},"spec":{
	  "initContainers":[{"name":"init","image":"busybox"}],
	  "containers":[{"name":"app","image":"nginx"},{"name":"own","image":"nginx","resources":{"requests":{"cpu":"100m"},"limits":{"memory":"64Mi"}}}]}}`)
	admission.LimitRangerDefaults(p, []*api.LimitRange{lr})
	if got := resources(p.Spec.Containers[0]); got != `{"limits":{"cpu":"1","memory":"1Gi"},"requests":{"cpu":"600m","memory":"1Gi"}}` {
		t.Errorf("app: %s", got)
	}
	if got := resources(p.Spec.Containers[1]); got != `{"limits":{"cpu":"1","memory":"64Mi"},"requests":{"cpu":"100m","memory":"64Mi"}}` {
		t.Errorf("own: %s", got)
	}
	want := "LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app; " +
		"cpu limit for container own; cpu, memory request for init container init; cpu, memory limit for init container init"
	if got := p.Annotations[admission.AnnotationLimitRanger]; got != want {
		t.Errorf("annotation:\n got  %s\n want %s", got, want)
	}
}

// TestLimitRangerCheck: the bounds of Container and Pod items, with
// upstream's messages, several joined in brackets; the first range
// broken refuses the pod, named by its generateName.
func TestLimitRangerCheck(t *testing.T) {
	lr := limitRange(t, `{"kind":"LimitRange","metadata":{"name":"lr","namespace":"team"},"spec":{"limits":[
	  {"type":"Container","min":{"cpu":"100m"},"max":{"cpu":"500m"},"maxLimitRequestRatio":{"cpu":"2"}},
	  {"type":"Pod","max":{"memory":"1Gi"}}]}}`)
	for _, tc := range []struct{ pod, want string }{
		{`{"kind":"Pod","spec":{"containers":[{"name":"a","image":"x","resources":{"requests":{"cpu":"200m"},"limits":{"cpu":"400m","memory":"512Mi"}}}]}}`, ""},
		{`{"kind":"Pod","spec":{"containers":[{"name":"a","image":"x","resources":{"requests":{"cpu":"50m"},"limits":{"cpu":"1","memory":"2Gi"}}}]}}`,
			`pods "web-" is forbidden: [minimum cpu usage per Container is 100m, but request is 50m, maximum cpu usage per Container is 500m, but limit is 1, cpu max limit to request ratio per Container is 2, but provided ratio is 20.000000, maximum memory usage per Pod is 1Gi, but limit is 2Gi]`},
		{`{"kind":"Pod","spec":{"containers":[{"name":"a","image":"x","resources":{"requests":{"cpu":"200m"},"limits":{"cpu":"400m"}}}]}}`,
			`pods "web-" is forbidden: maximum memory usage per Pod is 1Gi.  No limit is specified`},
		{`{"kind":"Pod","spec":{"initContainers":[{"name":"side","image":"x","restartPolicy":"Always","resources":{"requests":{"cpu":"200m"},"limits":{"cpu":"400m","memory":"600Mi"}}}],
		  "containers":[{"name":"a","image":"x","resources":{"requests":{"cpu":"200m"},"limits":{"cpu":"400m","memory":"600Mi"}}}]}}`,
			`pods "web-" is forbidden: maximum memory usage per Pod is 1Gi, but limit is 1200Mi`},
	} {
		p := podOf(t, tc.pod)
		err := admission.LimitRangerCheck(p, "web-", []*api.LimitRange{lr})
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.pod, err)
			}
			continue
		}
		if err == nil || err.Error() != tc.want || !errors.Is(err, admission.ErrForbidden) {
			t.Errorf("%s:\n got  %v\n want %s", tc.pod, err, tc.want)
		}
	}

	claims := limitRange(t, `{"kind":"LimitRange","metadata":{"name":"st","namespace":"team"},"spec":{"limits":[
	  {"type":"PersistentVolumeClaim","min":{"storage":"1Gi"},"max":{"storage":"10Gi"}}]}}`)
	pvc := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "data"}}
	pvc.Spec.Resources.Requests = api.ResourceList{"storage": api.MustParseQuantity("20Gi")}
	if err := admission.LimitRangerCheckClaim(pvc, []*api.LimitRange{claims}); err == nil ||
		err.Error() != `persistentvolumeclaims "data" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi` {
		t.Errorf("claim: %v", err)
	}
	pvc.Spec.Resources.Requests = api.ResourceList{"storage": api.MustParseQuantity("5Gi")}
	if err := admission.LimitRangerCheckClaim(pvc, []*api.LimitRange{claims}); err != nil {
		t.Errorf("claim within bounds: %v", err)
	}
}

// TestServiceAccount: a pod without a service account runs as default; one
// naming an account the namespace lacks is refused, named as admission
// sees it.
func TestServiceAccount(t *testing.T) {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{GenerateName: "web-", Namespace: "shop"}}
	if err := admission.ServiceAccount(p, "web-", nil); err != nil || p.Spec.ServiceAccountName != "default" {
		t.Errorf("no account: %v, %q", err, p.Spec.ServiceAccountName)
	}
	p.Spec.ServiceAccountName = "builder"
	err := admission.ServiceAccount(p, "web-", []string{"deployer"})
	if err == nil || !errors.Is(err, admission.ErrForbidden) ||
		err.Error() != `pods "web-" is forbidden: error looking up service account shop/builder: serviceaccount "builder" not found` {
		t.Errorf("missing account: %v", err)
	}
	if err := admission.ServiceAccount(p, "web-", []string{"deployer", "builder"}); err != nil {
		t.Errorf("existing account: %v", err)
	}
}
