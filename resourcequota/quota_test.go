package resourcequota_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
	"github.com/podsem/podsem/internal/niltest"
	"github.com/podsem/podsem/resourcequota"
)

var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

func pod(name string, cpu, memLimit string) *api.Pod {
	c := api.Container{Name: "c", Image: "nginx"}
	if cpu != "" {
		c.Resources.Requests = api.ResourceList{api.ResourceCPU: api.MustParseQuantity(cpu)}
	}
	if memLimit != "" {
		c.Resources.Limits = api.ResourceList{api.ResourceMemory: api.MustParseQuantity(memLimit)}
	}
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}, Spec: api.PodSpec{Containers: []api.Container{c}}}
}

// synced is a quota as the resourcequota controller leaves it over objs.
func synced(t *testing.T, hard api.ResourceList, objs ...resourcequota.Object) *api.ResourceQuota {
	q := &api.ResourceQuota{ObjectMeta: api.ObjectMeta{Name: "q", Namespace: "default", UID: "uq"}, Spec: api.ResourceQuotaSpec{Hard: hard}}
	st, changed, err := resourcequota.Status(q, objs, t0)
	if err != nil || !changed {
		t.Fatalf("Status: %v %v", changed, err)
	}
	q.Status = st
	return q
}

// TestAdmit: the admission plugin's refusals, word for word, and the
// usage it charges.
func TestAdmit(t *testing.T) {
	l := func(kv ...string) api.ResourceList {
		out := api.ResourceList{}
		for i := 0; i < len(kv); i += 2 {
			out[api.ResourceName(kv[i])] = api.MustParseQuantity(kv[i+1])
		}
		return out
	}
	// pods: two running, room for none more.
	q := synced(t, l("pods", "2"), resourcequota.PodObject(pod("a", "", "")), resourcequota.PodObject(pod("b", "", "")))
	_, err := resourcequota.Admit([]*api.ResourceQuota{q}, resourcequota.PodObject(pod("c", "", "")), "web-x1", t0)
	want := `pods "web-x1" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2`
	var ae *admission.Error
	if err == nil || err.Error() != want || !errors.As(err, &ae) || !errors.Is(err, admission.ErrForbidden) {
		t.Errorf("got %v, want %s", err, want)
	}
	// A terminal pod and one past its deletion grace period do not count.
	failed := pod("f", "", "")
	failed.Status.Phase = api.PodFailed
	gone := pod("g", "", "")
	grace := int64(30)
	gone.DeletionTimestamp, gone.DeletionGracePeriodSeconds = api.NewTimePtr(t0.Add(-time.Minute)), &grace
	q = synced(t, l("pods", "2", "count/pods", "10"), resourcequota.PodObject(pod("a", "", "")), resourcequota.PodObject(failed), resourcequota.PodObject(gone))
	if q.Status.Used["pods"].Value() != 1 || q.Status.Used["count/pods"].Value() != 3 {
		t.Errorf("used %v, want pods=1 count/pods=3", q.Status.Used)
	}
	charged, err := resourcequota.Admit([]*api.ResourceQuota{q}, resourcequota.PodObject(pod("c", "", "")), "c", t0)
	if err != nil || len(charged) != 1 || charged[0].Status.Used["pods"].Value() != 2 || q.Status.Used["pods"].Value() != 1 {
		t.Errorf("charged %v, err %v (the input quota must stay as it was: %v)", charged, err, q.Status.Used)
	}
	// cpu requests and memory limits: a container must declare what is
	// tracked.
	q = synced(t, l("requests.cpu", "500m", "limits.memory", "1Gi"))
	_, err = resourcequota.Admit([]*api.ResourceQuota{q}, resourcequota.PodObject(pod("n", "100m", "")), "n", t0)
	if want := `pods "n" is forbidden: failed quota: q: must specify limits.memory for: c`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	q = synced(t, l("requests.cpu", "500m", "limits.memory", "1Gi"), resourcequota.PodObject(pod("a", "200m", "256Mi")), resourcequota.PodObject(pod("b", "200m", "256Mi")))
	_, err = resourcequota.Admit([]*api.ResourceQuota{q}, resourcequota.PodObject(pod("c", "200m", "256Mi")), "c", t0)
	if want := `exceeded quota: q, requested: requests.cpu=200m, used: requests.cpu=400m, limited: requests.cpu=500m`; err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("got %v, want ...%s", err, want)
	}
	// A quota the controller has not synced counts nothing; one synced
	// without a usage it tracks is refused as unknown.
	fresh := &api.ResourceQuota{ObjectMeta: api.ObjectMeta{Name: "new", Namespace: "default"}, Spec: api.ResourceQuotaSpec{Hard: l("pods", "0")}}
	if charged, err := resourcequota.Admit([]*api.ResourceQuota{fresh}, resourcequota.PodObject(pod("c", "", "")), "c", t0); err != nil || charged != nil {
		t.Errorf("unsynced quota: %v %v", charged, err)
	}
	fresh.Status.Hard = l("pods", "5")
	if _, err := resourcequota.Admit([]*api.ResourceQuota{fresh}, resourcequota.PodObject(pod("c", "", "")), "c", t0); err == nil || !strings.HasSuffix(err.Error(), "status unknown for quota: new, resources: pods") {
		t.Errorf("got %v", err)
	}
	// Scopes: a BestEffort quota does not count a pod with requests; a
	// scoped quota counts no other object.
	be := synced(t, l("pods", "0"))
	be.Spec.Scopes = []string{api.QuotaScopeBestEffort}
	if _, err := resourcequota.Admit([]*api.ResourceQuota{be}, resourcequota.PodObject(pod("r", "100m", "")), "r", t0); err != nil {
		t.Errorf("BestEffort quota refused a burstable pod: %v", err)
	}
	if _, err := resourcequota.Admit([]*api.ResourceQuota{be}, resourcequota.PodObject(pod("e", "", "")), "e", t0); err == nil {
		t.Error("BestEffort quota admitted a best-effort pod beyond pods=0")
	}
	// Object counts, legacy and count/ names.
	dep := resourcequota.Object{Kind: "Deployment", Resource: "deployments.apps", Object: &api.Deployment{}}
	q = synced(t, l("count/deployments.apps", "1"), dep)
	if _, err := resourcequota.Admit([]*api.ResourceQuota{q}, dep, "second", t0); err == nil ||
		err.Error() != `deployments.apps "second" is forbidden: exceeded quota: q, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1` {
		t.Errorf("got %v", err)
	}
}

// TestQuotaProperties: admitting pods one by one against a synced quota
// charges exactly what the controller's recalculation then finds, and
// never lets used pass hard.
func TestQuotaProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		hard := api.ResourceList{"pods": api.NewQuantity(int64(rapid.IntRange(0, 6).Draw(t, "pods")), api.DecimalSI),
			"requests.cpu": api.NewMilliQuantity(int64(rapid.IntRange(0, 2000).Draw(t, "cpu")), api.DecimalSI)}
		q := &api.ResourceQuota{ObjectMeta: api.ObjectMeta{Name: "q", Namespace: "default"}, Spec: api.ResourceQuotaSpec{Hard: hard}}
		st, _, err := resourcequota.Status(q, nil, t0)
		if err != nil {
			t.Fatal(err)
		}
		q.Status = st
		var admitted []resourcequota.Object
		for i := 0; i < 10; i++ {
			p := pod("p", api.NewMilliQuantity(int64(rapid.IntRange(1, 600).Draw(t, "req")), api.DecimalSI).String(), "")
			charged, err := resourcequota.Admit([]*api.ResourceQuota{q}, resourcequota.PodObject(p), "p", t0)
			if err != nil {
				continue
			}
			admitted = append(admitted, resourcequota.PodObject(p))
			q = charged[0]
			for n, v := range q.Status.Used {
				if v.Cmp(q.Status.Hard[n]) > 0 {
					t.Fatalf("%s used %v beyond hard %v", n, v, q.Status.Hard[n])
				}
			}
			st, changed, err := resourcequota.Status(q, admitted, t0)
			if err != nil || changed {
				t.Fatalf("recalculated %v, charged %v (%v)", st.Used, q.Status.Used, err)
			}
		}
	})
}

var nilCases = map[string]func(t *testing.T){
	"Admit": func(t *testing.T) {
		charged, err := resourcequota.Admit(nil, resourcequota.Object{}, "", t0)
		niltest.Zero(t, charged)
		niltest.Zero(t, err)
	},
	"Matches": func(t *testing.T) {
		ok, err := resourcequota.Matches(nil, resourcequota.Object{})
		niltest.Zero(t, ok)
		niltest.Invalid(t, err, api.ErrInvalidInput, "quota")
	},
	"Status": func(t *testing.T) {
		st, changed, err := resourcequota.Status(nil, nil, t0)
		niltest.Zero(t, st)
		niltest.Zero(t, changed)
		niltest.Invalid(t, err, api.ErrInvalidInput, "quota")
	},
	"Tracks": func(t *testing.T) { niltest.Zero(t, resourcequota.Tracks(nil, resourcequota.Object{})) },
	"PodObject": func(t *testing.T) {
		o := resourcequota.PodObject(nil)
		niltest.Zero(t, o.Object)
		if u := resourcequota.Usage(o, t0); len(u) != 0 {
			t.Errorf("a nil pod costs %v, want nothing", u)
		}
	},
	"PodCounted": func(t *testing.T) {
		niltest.Zero(t, resourcequota.PodCounted(nil, t0))
	},
}

func TestNil(t *testing.T) { niltest.Run(t, nilCases) }

func TestNilTableComplete(t *testing.T) { niltest.Check(t, ".", nilCases, nil) }
