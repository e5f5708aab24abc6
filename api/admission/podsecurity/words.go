package podsecurity

import (
	"slices"
	"strings"

	"github.com/podsem/podsem/api"
)

// The wording helpers of upstream's messages.

// joinQuote renders items as "a", "b", "c"; nothing for no items.
func joinQuote(items []string) string {
	if len(items) == 0 {
		return ""
	}
	return `"` + strings.Join(items, `", "`) + `"`
}

// pluralize picks the singular for exactly one, else the plural.
func pluralize(singular, plural string, n int) string {
	if n == 1 {
		return singular
	}
	return plural
}

// set sorts items and drops repeats: what upstream's string sets print.
func set(items []string) []string {
	slices.Sort(items)
	return slices.Compact(items)
}

// containersPhrase is `container "a"` or `containers "a", "b"`.
func containersPhrase(names []string) string {
	return pluralize("container", "containers", len(names)) + " " + joinQuote(names)
}

// eachContainer calls fn for every container of the pod in the order
// upstream's checks visit them: init containers, containers, ephemeral
// containers. Sidecars are init containers like any other here.
func eachContainer(spec *api.PodSpec, fn func(c *api.Container)) {
	for i := range spec.InitContainers {
		fn(&spec.InitContainers[i])
	}
	for i := range spec.Containers {
		fn(&spec.Containers[i])
	}
	for i := range spec.EphemeralContainers {
		fn(&spec.EphemeralContainers[i].Container)
	}
}

// badSetters names who sets a forbidden value, as upstream's messages
// list them: "pod" when podBad, then `container "a"` or `containers "a",
// "b"` for the containers containerBad picks, in visiting order.
func badSetters(pod *api.Pod, podBad bool, containerBad func(c *api.Container) bool) []string {
	var setters, containers []string
	if podBad {
		setters = append(setters, "pod")
	}
	eachContainer(&pod.Spec, func(c *api.Container) {
		if containerBad(c) {
			containers = append(containers, c.Name)
		}
	})
	if len(containers) > 0 {
		setters = append(setters, containersPhrase(containers))
	}
	return setters
}
