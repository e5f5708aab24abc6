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
	// aligned: list holds one status per spec container in spec order
	// and no two containers of the pod share a name, so the entry after
	// the one found last, when it has the name, is the only one; callers
	// walk the spec in order, which makes that the usual case.
	aligned bool
	next    int
}

// specPositions maps each container name of a pod spec to its first
// position in its list (init, regular, ephemeral). For a caller whose
// status lists hold one status per spec container in spec order, as the
// Machine's do, it finds a status without building an index per call. A
// nil *specPositions means the lists follow no order: each is indexed
// anew.
type specPositions struct {
	init, regular, ephemeral map[string]int
	unique                   bool // no two containers share a name
}

func newSpecPositions(spec *api.PodSpec) *specPositions {
	first := func(n int, name func(int) string) map[string]int {
		m := make(map[string]int, n)
		for i := range n {
			if _, dup := m[name(i)]; !dup {
				m[name(i)] = i
			}
		}
		return m
	}
	p := &specPositions{
		init:      first(len(spec.InitContainers), func(i int) string { return spec.InitContainers[i].Name }),
		regular:   first(len(spec.Containers), func(i int) string { return spec.Containers[i].Name }),
		ephemeral: first(len(spec.EphemeralContainers), func(i int) string { return spec.EphemeralContainers[i].Name }),
	}
	names := map[string]bool{}
	for _, m := range [3]map[string]int{p.init, p.regular, p.ephemeral} {
		for name := range m {
			names[name] = true
		}
	}
	p.unique = len(names) == len(spec.InitContainers)+len(spec.Containers)+len(spec.EphemeralContainers)
	return p
}

// initIndex, regularIndex and ephemeralIndex index a status list of the
// kind.
func (p *specPositions) initIndex(list []api.ContainerStatus) statusIndex {
	if p == nil {
		return newStatusIndex(list)
	}
	return statusIndex{list: list, first: p.init, aligned: p.unique}
}

func (p *specPositions) regularIndex(list []api.ContainerStatus) statusIndex {
	if p == nil {
		return newStatusIndex(list)
	}
	return statusIndex{list: list, first: p.regular, aligned: p.unique}
}

func (p *specPositions) ephemeralIndex(list []api.ContainerStatus) statusIndex {
	if p == nil {
		return newStatusIndex(list)
	}
	return statusIndex{list: list, first: p.ephemeral, aligned: p.unique}
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
	if x.aligned && x.next < len(x.list) && x.list[x.next].Name == name {
		x.next++
		return &x.list[x.next-1]
	}
	if x.first == nil {
		return api.ContainerStatusByName(x.list, name)
	}
	if i, ok := x.first[name]; ok && i < len(x.list) {
		x.next = i + 1
		return &x.list[i]
	}
	return nil
}
