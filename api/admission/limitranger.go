package admission

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/podsem/podsem/api"
)

// AnnotationLimitRanger is the annotation the LimitRanger admission plugin
// writes on a pod whose resources it defaulted, naming what it set.
const AnnotationLimitRanger = "kubernetes.io/limit-ranger"

// LimitRangerDefaults is the LimitRanger admission plugin's mutation of a
// pod being created, for each LimitRange of its namespace in turn: the
// default limits and requests of the range's Container items (already
// API-defaulted, api.DefaultLimitRange) are given to every container and
// init container that lacks them, and the pod is annotated
// AnnotationLimitRanger "LimitRanger plugin set: cpu, memory request for
// container app; cpu limit for container app" (each range that sets
// something rewrites it). Pod updates are not mutated; a nil pod is left
// alone.
func LimitRangerDefaults(pod *api.Pod, ranges []*api.LimitRange) {
	if pod == nil {
		return
	}
	for _, lr := range ranges {
		if lr == nil {
			continue
		}
		var limits, requests api.ResourceList
		for _, it := range lr.Spec.Limits {
			if it.Type != api.LimitTypeContainer {
				continue
			}
			limits = mergeList(limits, it.Default)
			requests = mergeList(requests, it.DefaultRequest)
		}
		var notes []string
		for i := range pod.Spec.Containers {
			notes = defaultContainer(&pod.Spec.Containers[i], limits, requests, "container", notes)
		}
		for i := range pod.Spec.InitContainers {
			notes = defaultContainer(&pod.Spec.InitContainers[i], limits, requests, "init container", notes)
		}
		if len(notes) > 0 {
			pod.Annotations = maps.Clone(pod.Annotations)
			if pod.Annotations == nil {
				pod.Annotations = map[string]string{}
			}
			pod.Annotations[AnnotationLimitRanger] = "LimitRanger plugin set: " + strings.Join(notes, "; ")
		}
	}
}

// mergeList sets dst's entries from src (a later item of a range wins).
func mergeList(dst, src api.ResourceList) api.ResourceList {
	if len(src) == 0 {
		return dst
	}
	if dst == nil {
		dst = api.ResourceList{}
	}
	for k, v := range src {
		dst[k] = v
	}
	return dst
}

// defaultContainer gives c the default limits and requests it lacks and
// appends the annotation's notes for it.
func defaultContainer(c *api.Container, limits, requests api.ResourceList, what string, notes []string) []string {
	var setReq, setLim []string
	for _, k := range slices.Sorted(maps.Keys(limits)) {
		if _, ok := c.Resources.Limits[k]; !ok {
			c.Resources.Limits = maps.Clone(c.Resources.Limits)
			if c.Resources.Limits == nil {
				c.Resources.Limits = api.ResourceList{}
			}
			c.Resources.Limits[k] = limits[k]
			setLim = append(setLim, string(k))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(requests)) {
		if _, ok := c.Resources.Requests[k]; !ok {
			c.Resources.Requests = maps.Clone(c.Resources.Requests)
			if c.Resources.Requests == nil {
				c.Resources.Requests = api.ResourceList{}
			}
			c.Resources.Requests[k] = requests[k]
			setReq = append(setReq, string(k))
		}
	}
	if len(setReq) > 0 {
		notes = append(notes, strings.Join(setReq, ", ")+" request for "+what+" "+c.Name)
	}
	if len(setLim) > 0 {
		notes = append(notes, strings.Join(setLim, ", ")+" limit for "+what+" "+c.Name)
	}
	return notes
}

// LimitRangerCheck is the LimitRanger admission plugin's validation of a
// pod being created (after LimitRangerDefaults): against each LimitRange
// of its namespace in turn, every container's and init container's
// requests and limits within the Container items' min, max and
// maxLimitRequestRatio, and the pod's (containers summed, sidecars
// included, the largest init container taken when larger) within the Pod
// items'. The first range broken refuses the pod: a Forbidden *Error
// ("pods \"web-1\" is forbidden: maximum cpu usage per Container is 500m,
// but limit is 1"), its violations joined as upstream's aggregate error
// joins them, in the order of the items, containers and resource names
// (upstream's follows Go's map order). name is the pod's name: the
// plugin validates after the API server generated it. Nil for a nil pod.
func LimitRangerCheck(pod *api.Pod, name string, ranges []*api.LimitRange) error {
	if pod == nil {
		return nil
	}
	for _, lr := range ranges {
		if lr == nil {
			continue
		}
		var errs []string
		for _, it := range lr.Spec.Limits {
			switch it.Type {
			case api.LimitTypeContainer:
				for _, cs := range [][]api.Container{pod.Spec.Containers, pod.Spec.InitContainers} {
					for i := range cs {
						errs = append(errs, bounds(string(it.Type), it, cs[i].Resources.Requests, cs[i].Resources.Limits)...)
					}
				}
			case api.LimitTypePod:
				req, lim := limitRangerPodTotals(pod)
				errs = append(errs, bounds(string(it.Type), it, req, lim)...)
			}
		}
		if len(errs) > 0 {
			return &Error{Reason: "Forbidden", Resource: "pods", Name: name, Detail: aggregate(errs)}
		}
	}
	return nil
}

// LimitRangerCheckClaim is the LimitRanger admission plugin's validation
// of a PersistentVolumeClaim being created or updated: its requests
// within the PersistentVolumeClaim items' min and max (limits are not
// read). Nil for a nil claim.
func LimitRangerCheckClaim(pvc *api.PersistentVolumeClaim, ranges []*api.LimitRange) error {
	if pvc == nil {
		return nil
	}
	for _, lr := range ranges {
		if lr == nil {
			continue
		}
		var errs []string
		for _, it := range lr.Spec.Limits {
			if it.Type != api.LimitTypePersistentVolumeClaim {
				continue
			}
			typ := string(it.Type)
			req := pvc.Spec.Resources.Requests
			for _, k := range slices.Sorted(maps.Keys(it.Min)) {
				if e := minBound(typ, k, it.Min[k], req, nil); e != "" {
					errs = append(errs, e)
				}
			}
			for _, k := range slices.Sorted(maps.Keys(it.Max)) {
				// The max bounds the request: a claim's limits are not read.
				r, ok := req[k]
				if !ok {
					errs = append(errs, fmt.Sprintf("maximum %s usage per %s is %s.  No request is specified", k, typ, it.Max[k].String()))
				} else if c := milliCompare(r, api.Quantity{}, it.Max[k]); c.req > c.enforced {
					errs = append(errs, fmt.Sprintf("maximum %s usage per %s is %s, but request is %s", k, typ, it.Max[k].String(), r.String()))
				}
			}
		}
		if len(errs) > 0 {
			return &Error{Reason: "Forbidden", Resource: "persistentvolumeclaims", Name: pvc.Name, Detail: aggregate(errs)}
		}
	}
	return nil
}

// bounds checks one item's min, max and ratio against requests and
// limits, resource names in order.
func bounds(typ string, it api.LimitRangeItem, req, lim api.ResourceList) []string {
	var errs []string
	for _, k := range slices.Sorted(maps.Keys(it.Min)) {
		if e := minBound(typ, k, it.Min[k], req, lim); e != "" {
			errs = append(errs, e)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(it.Max)) {
		if e := maxBound(typ, k, it.Max[k], req, lim); e != "" {
			errs = append(errs, e)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(it.MaxLimitRequestRatio)) {
		if e := ratioBound(typ, k, it.MaxLimitRequestRatio[k], req, lim); e != "" {
			errs = append(errs, e)
		}
	}
	return errs
}

// compared are a request, a limit and a bound in one unit: milli-units
// when none of them overflows there, whole units otherwise.
type compared struct{ req, lim, enforced int64 }

func milliCompare(req, lim, enforced api.Quantity) compared {
	c := compared{req.Value(), lim.Value(), enforced.Value()}
	if c.req <= api.MaxMilliValue && c.lim <= api.MaxMilliValue && c.enforced <= api.MaxMilliValue {
		c = compared{req.MilliValue(), lim.MilliValue(), enforced.MilliValue()}
	}
	return c
}

func minBound(typ string, k api.ResourceName, enforced api.Quantity, req, lim api.ResourceList) string {
	r, hasReq := req[k]
	l, hasLim := lim[k]
	c := milliCompare(r, l, enforced)
	switch {
	case !hasReq:
		return fmt.Sprintf("minimum %s usage per %s is %s.  No request is specified", k, typ, enforced.String())
	case c.req < c.enforced:
		return fmt.Sprintf("minimum %s usage per %s is %s, but request is %s", k, typ, enforced.String(), r.String())
	case hasLim && c.lim < c.enforced:
		return fmt.Sprintf("minimum %s usage per %s is %s, but limit is %s", k, typ, enforced.String(), l.String())
	}
	return ""
}

func maxBound(typ string, k api.ResourceName, enforced api.Quantity, req, lim api.ResourceList) string {
	r, hasReq := req[k]
	l, hasLim := lim[k]
	c := milliCompare(r, l, enforced)
	switch {
	case !hasLim:
		return fmt.Sprintf("maximum %s usage per %s is %s.  No limit is specified", k, typ, enforced.String())
	case c.lim > c.enforced:
		return fmt.Sprintf("maximum %s usage per %s is %s, but limit is %s", k, typ, enforced.String(), l.String())
	case hasReq && c.req > c.enforced:
		return fmt.Sprintf("maximum %s usage per %s is %s, but request is %s", k, typ, enforced.String(), r.String())
	}
	return ""
}

func ratioBound(typ string, k api.ResourceName, enforced api.Quantity, req, lim api.ResourceList) string {
	r, hasReq := req[k]
	l, hasLim := lim[k]
	c := milliCompare(r, l, enforced)
	switch {
	case !hasReq || c.req == 0:
		return fmt.Sprintf("%s max limit to request ratio per %s is %s, but no request is specified or request is 0", k, typ, enforced.String())
	case !hasLim || c.lim == 0:
		return fmt.Sprintf("%s max limit to request ratio per %s is %s, but no limit is specified or limit is 0", k, typ, enforced.String())
	}
	ratio := float64(c.lim) / float64(c.req)
	observed, bound := ratio, float64(enforced.Value())
	if enforced.Value() <= api.MaxMilliValue {
		observed, bound = ratio*1000, float64(enforced.MilliValue())
	}
	if observed > bound {
		return fmt.Sprintf("%s max limit to request ratio per %s is %s, but provided ratio is %f", k, typ, enforced.String(), ratio)
	}
	return ""
}

// limitRangerPodTotals are the pod's requests and limits as the plugin
// sums them: the containers and sidecars added up, each regular init
// container (with the sidecars started before it) taken when larger.
func limitRangerPodTotals(pod *api.Pod) (req, lim api.ResourceList) {
	total := func(get func(*api.Container) api.ResourceList) api.ResourceList {
		out := api.ResourceList{}
		for i := range pod.Spec.Containers {
			addList(out, get(&pod.Spec.Containers[i]))
		}
		sidecars, inits := api.ResourceList{}, api.ResourceList{}
		for i := range pod.Spec.InitContainers {
			c := &pod.Spec.InitContainers[i]
			var this api.ResourceList
			if c.IsSidecar() {
				addList(out, get(c))
				addList(sidecars, get(c))
				this = sidecars
			} else {
				this = api.ResourceList{}
				addList(this, get(c))
				addList(this, sidecars)
			}
			maxList(inits, this)
		}
		maxList(out, inits)
		return out
	}
	return total(func(c *api.Container) api.ResourceList { return c.Resources.Requests }),
		total(func(c *api.Container) api.ResourceList { return c.Resources.Limits })
}

func addList(dst, src api.ResourceList) {
	for k, v := range src {
		if cur, ok := dst[k]; ok {
			dst[k] = cur.Add(v)
		} else {
			dst[k] = v
		}
	}
}

func maxList(dst, src api.ResourceList) {
	for k, v := range src {
		if cur, ok := dst[k]; !ok || v.Cmp(cur) > 0 {
			dst[k] = v
		}
	}
}

// aggregate joins messages as k8s.io/apimachinery's aggregate error does:
// one alone as it is, several without repeats in brackets.
func aggregate(msgs []string) string {
	var seen []string
	for _, m := range msgs {
		if !slices.Contains(seen, m) {
			seen = append(seen, m)
		}
	}
	if len(seen) == 1 {
		return seen[0]
	}
	return "[" + strings.Join(seen, ", ") + "]"
}
