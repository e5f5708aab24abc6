package scheduling

import (
	"sort"
	"strings"

	"github.com/podsem/podsem/api"
)

// ImageLocality's score bounds (pkg/scheduler/framework/plugins/
// imagelocality): a node's summed image score below 23 MiB counts as
// nothing, and 1000 MiB per image of the pod counts as everything.
const (
	imageMinThreshold          int64 = 23 * 1024 * 1024
	imageMaxContainerThreshold int64 = 1000 * 1024 * 1024
)

// imageIndex is the scheduler cache's image states: every image name some
// node lists in status.images, with the size recorded when the first node
// listing it arrived and the number of nodes listing it now. Names are
// interned to small ids; each node keeps the sorted ids of its names.
type imageIndex struct {
	ids    map[string]int32
	states []imageState
}

type imageState struct {
	size  int64
	nodes int
}

// nodeAdded counts the node's image names (cache.addNodeImageStates): a
// name no node lists yet takes this node's size for it.
func (x *imageIndex) nodeAdded(ni *NodeInfo) {
	ni.images = ni.images[:0]
	for _, img := range ni.node.Status.Images {
		for _, name := range img.Names {
			id, ok := x.ids[name]
			if !ok {
				if x.ids == nil {
					x.ids = map[string]int32{}
				}
				id = int32(len(x.states))
				x.ids[name] = id
				x.states = append(x.states, imageState{})
			}
			if hasImage(ni.images, id) {
				continue
			}
			st := &x.states[id]
			if st.nodes == 0 {
				st.size = img.SizeBytes
			}
			st.nodes++
			i := sort.Search(len(ni.images), func(i int) bool { return ni.images[i] >= id })
			ni.images = append(ni.images, 0)
			copy(ni.images[i+1:], ni.images[i:])
			ni.images[i] = id
		}
	}
}

// nodeRemoved uncounts the node's image names
// (cache.removeNodeImageStates).
func (x *imageIndex) nodeRemoved(ni *NodeInfo) {
	for _, id := range ni.images {
		x.states[id].nodes--
	}
	ni.images = ni.images[:0]
}

// hasImage reports whether the sorted ids hold id.
func hasImage(ids []int32, id int32) bool {
	i := sort.Search(len(ids), func(i int) bool { return ids[i] >= id })
	return i < len(ids) && ids[i] == id
}

// NormalizedImageName is the name ImageLocality looks a container's image up
// by in the nodes' status.images (normalizedImageName): the image as
// written, with ":latest" appended when it carries no tag (no ':' after the
// last '/'). Nothing else is normalized: "nginx:1.25" does not match a
// node's "docker.io/library/nginx:1.25".
func NormalizedImageName(image string) string {
	if strings.LastIndex(image, ":") <= strings.LastIndex(image, "/") {
		return image + ":latest"
	}
	return image
}

// imageLocalityPlugin is ImageLocality, the score-only plugin that favours
// nodes already holding the pod's images: for each image of the pod's init
// containers and containers found on the node, its size scaled by the share
// of nodes holding it (size × nodesWithImage / allNodes, the spread that
// keeps pods from heaping on one node), summed, then mapped linearly from
// [23 MiB, 1000 MiB × images] to 0..100 (calculatePriority). It has no
// PreScore and no normalization: every feasible node gets its score, 0
// where none of the images are present.
type imageLocalityPlugin struct {
	basePlugin
	c   *Cluster
	pod *api.Pod
	// ids are the pod's images, one per container, resolved to image ids
	// (-1: on no node); n is their count.
	ids    []int32
	n      int
	any    bool
	idsBuf [4]int32
}

func newImageLocalityPlugin(c *Cluster, p *PodInfo) imageLocalityPlugin {
	return imageLocalityPlugin{c: c, pod: p.pod}
}

func (pl *imageLocalityPlugin) name() string            { return PluginImageLocality }
func (pl *imageLocalityPlugin) clone() cyclePlugin      { return pl }
func (pl *imageLocalityPlugin) filter(*nodeView) Status { return Status{} }

// preFilter is Skip: the plugin only scores.
func (pl *imageLocalityPlugin) preFilter() Status { return Status{Code: Skip} }

// preScore resolves the pod's images; the plugin always scores.
func (pl *imageLocalityPlugin) preScore([]*NodeInfo) Status {
	pl.ids = pl.ids[:0]
	if pl.ids == nil {
		pl.ids = pl.idsBuf[:0]
	}
	pl.any = false
	add := func(cs []api.Container) {
		for i := range cs {
			id, ok := pl.c.images.ids[NormalizedImageName(cs[i].Image)]
			if !ok || pl.c.images.states[id].nodes == 0 {
				id = -1
			} else {
				pl.any = true
			}
			pl.ids = append(pl.ids, id)
		}
	}
	add(pl.pod.Spec.InitContainers)
	add(pl.pod.Spec.Containers)
	pl.n = len(pl.ids)
	return Status{}
}

func (pl *imageLocalityPlugin) score(n *NodeInfo) int64 {
	if !pl.any || pl.n == 0 {
		return 0
	}
	total := len(pl.c.nodes)
	var sum int64
	for _, id := range pl.ids {
		if id >= 0 && hasImage(n.images, id) {
			st := &pl.c.images.states[id]
			spread := float64(st.nodes) / float64(total)
			sum = satAdd(sum, api.SaturatingInt64(float64(st.size)*spread))
		}
	}
	maxThreshold := satMul(imageMaxContainerThreshold, int64(pl.n))
	sum = min(max(sum, imageMinThreshold), maxThreshold)
	return MaxNodeScore * (sum - imageMinThreshold) / (maxThreshold - imageMinThreshold)
}
