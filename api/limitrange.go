package api

// LimitRange is a core/v1 LimitRange: the defaults and bounds the
// LimitRanger admission plugin applies to the containers and pods (and
// the storage requests of the claims) created in its namespace.
type LimitRange struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitzero"`
	Spec       LimitRangeSpec `json:"spec,omitzero"`
}

// LimitRangeSpec is a LimitRange's list of limits.
type LimitRangeSpec struct {
	Limits []LimitRangeItem `json:"limits"`
}

// LimitRangeItem is one limit of a LimitRange: for objects of Type, the
// maximum and minimum of each resource, the default limit and request a
// container without them gets (Container only), and the greatest limit to
// request ratio.
type LimitRangeItem struct {
	Type                 LimitType    `json:"type"`
	Max                  ResourceList `json:"max,omitempty"`
	Min                  ResourceList `json:"min,omitempty"`
	Default              ResourceList `json:"default,omitempty"`
	DefaultRequest       ResourceList `json:"defaultRequest,omitempty"`
	MaxLimitRequestRatio ResourceList `json:"maxLimitRequestRatio,omitempty"`
}

// LimitType is what a LimitRangeItem limits.
type LimitType string

// The limit types: each container (and init container) of a pod, the pod
// as a whole, a claim's storage request.
const (
	LimitTypePod                   LimitType = "Pod"
	LimitTypeContainer             LimitType = "Container"
	LimitTypePersistentVolumeClaim LimitType = "PersistentVolumeClaim"
)

// DefaultLimitRange is the API defaulting of a LimitRange
// (SetDefaults_LimitRangeItem): for a Container item, a resource with a
// max but no default limit gets the max as its default limit; one with a
// default limit but no default request gets the limit as its default
// request; one with a min but still no default request gets the min. Other
// types are left alone; so is a nil LimitRange.
func DefaultLimitRange(lr *LimitRange) {
	if lr == nil {
		return
	}
	for i := range lr.Spec.Limits {
		it := &lr.Spec.Limits[i]
		if it.Type != LimitTypeContainer {
			continue
		}
		if it.Default == nil {
			it.Default = ResourceList{}
		}
		if it.DefaultRequest == nil {
			it.DefaultRequest = ResourceList{}
		}
		for k, v := range it.Max {
			if _, ok := it.Default[k]; !ok {
				it.Default[k] = v
			}
		}
		for k, v := range it.Default {
			if _, ok := it.DefaultRequest[k]; !ok {
				it.DefaultRequest[k] = v
			}
		}
		for k, v := range it.Min {
			if _, ok := it.DefaultRequest[k]; !ok {
				it.DefaultRequest[k] = v
			}
		}
	}
}
