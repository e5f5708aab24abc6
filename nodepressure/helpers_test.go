package nodepressure_test

import (
	"time"

	"github.com/podsem/podsem/api"
)

var t0 = time.Date(2025, 3, 1, 8, 0, 0, 0, time.UTC)

func names(pods []*api.Pod) []string {
	out := make([]string, len(pods))
	for i, p := range pods {
		if p == nil {
			out[i] = "<nil>"
			continue
		}
		out[i] = p.Name
	}
	return out
}
