package cluster

import (
	"cmp"
	"slices"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/resourcequota"
)

// The resourcequota controller of kube-controller-manager
// (pkg/controller/resourcequota): a ResourceQuota is synced — status.hard
// set to spec.hard, status.used recalculated from the informers' objects
// (resourcequota.Status) — when it is added or its spec.hard changes; when
// an object it tracks is deleted, or a pod stops counting (terminal)
// (its replenishment); and at every full resync, each
// Config.QuotaResyncPeriod from the controller's start
// (--resource-quota-sync-period). The admission plugin's own usage writes
// (store.admitQuota) queue nothing.

// QuotaResyncPeriod is the resourcequota controller's full resync period
// (--resource-quota-sync-period, 5 min).
const QuotaResyncPeriod = 5 * time.Minute

// quotaDeliver is the resourcequota controller's informer event handlers.
func (m *Machine) quotaDeliver(w watchEvent, now time.Time) {
	a := &m.apps
	switch o := w.Object.(type) {
	case *api.ResourceQuota:
		switch w.Type {
		case watchAdded:
			a.quotaDirty[w.Key] = true
		case watchModified:
			if old, ok := w.Old.(*api.ResourceQuota); !ok || !old.Spec.Hard.Equal(o.Spec.Hard) {
				a.quotaDirty[w.Key] = true
			}
		}
		return
	case *api.Pod:
		if w.Type == watchModified {
			old, _ := w.Old.(*api.Pod)
			if !resourcequota.PodCounted(old, now) || resourcequota.PodCounted(o, now) {
				return
			}
		} else if w.Type != watchDeleted {
			return
		}
	default:
		if w.Type != watchDeleted {
			return
		}
	}
	_, meta := objectMeta(w.Object)
	if meta == nil || meta.Namespace == "" {
		return
	}
	obj := quotaObject(w.Kind, w.Object)
	for _, q := range m.cache.quotas(meta.Namespace) {
		if resourcequota.Tracks(q, obj) {
			a.quotaDirty[objectKey(&q.ObjectMeta)] = true
		}
	}
}

// quotaResyncDue is the resourcequota controller's first full resync
// after now (none while there is no quota).
func (m *Machine) quotaResyncDue(now time.Time) time.Time {
	if len(m.cache.list("ResourceQuota")) == 0 {
		return time.Time{}
	}
	period := cmp.Or(m.cfg.QuotaResyncPeriod, QuotaResyncPeriod)
	n := now.Sub(m.start)/period + 1
	return m.start.Add(n * period)
}

// runQuotas syncs the quotas queued, and every quota at a full resync.
func (m *Machine) runQuotas(now time.Time) error {
	a := &m.apps
	a.init()
	if !a.quotaResync.IsZero() && !a.quotaResync.After(now) {
		for _, o := range m.cache.list("ResourceQuota") {
			a.quotaDirty[objectKey(&o.(*api.ResourceQuota).ObjectMeta)] = true
		}
	}
	a.quotaResync = m.quotaResyncDue(now)
	if len(a.quotaDirty) == 0 {
		return nil
	}
	for _, key := range takeMarked(a.quotaDirty) {
		q, _ := m.cache.get("ResourceQuota", key).(*api.ResourceQuota)
		if q == nil {
			continue
		}
		st, changed, err := resourcequota.Status(q, m.quotaObjects(q.Namespace), now)
		if err != nil {
			m.rec.scenario(now, "Warning", "SyncFailed", objRef("ResourceQuota", q.Namespace, q.Name), err.Error())
			continue
		}
		if !changed {
			continue
		}
		if err := m.writeStatus("ResourceQuota", key, q.UID, func(o api.Object) { o.(*api.ResourceQuota).Status = st }); err != nil {
			return err
		}
	}
	return nil
}

// quotaObjects are the objects of namespace the informers hold, as quota
// sees them.
func (m *Machine) quotaObjects(namespace string) []resourcequota.Object {
	var out []resourcequota.Object
	kinds := make([]string, 0, len(m.cache.index.byNamespace))
	for kind := range m.cache.index.byNamespace {
		kinds = append(kinds, kind)
	}
	slices.Sort(kinds)
	for _, kind := range kinds {
		if clusterScoped[kind] {
			continue
		}
		for _, key := range m.cache.namespaceKeys(kind, namespace) {
			out = append(out, quotaObject(kind, m.cache.get(kind, key)))
		}
	}
	return out
}
