package lifecycle

import "github.com/podsem/podsem/api"

// indexAbove is the length from which a statusIndex builds a map: below
// it a scan is cheaper than hashing.
const indexAbove = 16

// statusIndex finds container statuses by name as api.ContainerStatusByName
// does — the first entry of that name, nil when there is none — in
// constant time once the list is long, so that a calculator walking every
// container of a big pod stays linear in its containers.
type statusIndex struct {
	list  []api.ContainerStatus
	first map[string]int
}

func newStatusIndex(list []api.ContainerStatus) statusIndex {
	x := statusIndex{list: list}
	if len(list) > indexAbove {
		x.first = make(map[string]int, len(list))
		for i := range list {
			if _, dup := x.first[list[i].Name]; !dup {
				x.first[list[i].Name] = i
			}
		}
	}
	return x
}

// find returns the first status named name, nil when there is none.
func (x *statusIndex) find(name string) *api.ContainerStatus {
	if x.first == nil {
		return api.ContainerStatusByName(x.list, name)
	}
	if i, ok := x.first[name]; ok {
		return &x.list[i]
	}
	return nil
}
