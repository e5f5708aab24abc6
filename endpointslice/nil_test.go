package endpointslice_test

import (
	"strings"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/endpointslice"
	"github.com/podsem/podsem/internal/niltest"
)

func nilService() *api.Service {
	return &api.Service{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "shop"},
		Spec: api.ServiceSpec{Selector: map[string]string{"app": "web"}, ClusterIP: "10.96.0.10"}}
}

// nilCases calls each exported function of endpointslice that can be
// handed nil with nil arguments and checks the documented answer: a nil
// Service is an error wrapping api.ErrInvalidInput (ReceivesTraffic: false
// with that error's text), nil pods and nodes in lists are skipped, and a
// nil pod or port resolves no port. Keyed by the names niltest.Nilable
// lists; TestNilTableComplete keeps it complete.
var nilCases = map[string]func(t *testing.T){
	"Endpoints": func(t *testing.T) {
		_, err := endpointslice.Endpoints(nil, nil, nil)
		niltest.Invalid(t, err, api.ErrInvalidInput, "service")
		res, err := endpointslice.Endpoints(nilService(), []*api.Pod{nil}, []*api.Node{nil})
		if err != nil || len(res.Pods) != 0 || len(res.Slices) != 1 || len(res.Slices[0].Endpoints) != 0 {
			t.Errorf("nil pods and nodes: got %+v, %v; want them skipped and one placeholder slice", res, err)
		}
	},
	"ReceivesTraffic": func(t *testing.T) {
		if ok, why := endpointslice.ReceivesTraffic(nil, &api.Pod{}); ok || !strings.Contains(why, "service: nil") {
			t.Errorf("nil service: got %v %q", ok, why)
		}
		if ok, why := endpointslice.ReceivesTraffic(nilService(), nil); ok || !strings.Contains(why, "pod: nil") {
			t.Errorf("nil pod: got %v %q", ok, why)
		}
	},
	"FindPort": func(t *testing.T) {
		n, ok := endpointslice.FindPort(nil, nil)
		niltest.Zero(t, n, ok)
		n, ok = endpointslice.FindPort(&api.Pod{}, nil)
		niltest.Zero(t, n, ok)
	},
}

func TestNil(t *testing.T) { niltest.Run(t, nilCases) }

// TestNilTableComplete fails naming any exported function or method of
// endpointslice that takes a pointer, slice or map and is missing from
// nilCases.
func TestNilTableComplete(t *testing.T) { niltest.Check(t, ".", nilCases, nil) }
