package validation_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
)

// The checks of a projected volume's sources, as the API server runs them
// on a pod create (core validation's validateProjectionSources).
func TestProjectedVolumeSources(t *testing.T) {
	i64 := func(v int64) *int64 { return &v }
	mode := int32(0o644)
	tests := []struct {
		name    string
		sources []api.VolumeProjection
		want    []string // the errors as the API server words them, in its order
	}{
		{name: "secret, configMap, downward API and token", sources: []api.VolumeProjection{
			{Secret: &api.SecretProjection{LocalObjectReference: api.LocalObjectReference{Name: "tls"}, Items: []api.KeyToPath{{Key: "tls.crt", Path: "tls.crt", Mode: &mode}}}},
			{ConfigMap: &api.ConfigMapProjection{LocalObjectReference: api.LocalObjectReference{Name: "ca"}, Items: []api.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
			{DownwardAPI: &api.DownwardAPIProjection{Items: []api.DownwardAPIVolumeFile{{Path: "labels", FieldRef: &api.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.labels"}}}}},
			{ServiceAccountToken: &api.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: i64(3600)}},
		}, want: []string{}},
		{name: "a source with nothing in it passes", sources: []api.VolumeProjection{{}}, want: []string{}},
		{name: "one path twice across sources", sources: []api.VolumeProjection{
			{Secret: &api.SecretProjection{LocalObjectReference: api.LocalObjectReference{Name: "tls"}, Items: []api.KeyToPath{{Key: "a", Path: "cert"}}}},
			{ConfigMap: &api.ConfigMapProjection{LocalObjectReference: api.LocalObjectReference{Name: "ca"}, Items: []api.KeyToPath{{Key: "b", Path: "cert"}}}},
			{DownwardAPI: &api.DownwardAPIProjection{Items: []api.DownwardAPIVolumeFile{{Path: "cert", FieldRef: &api.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}}}},
		}, want: []string{
			`spec.volumes[0].projected: Invalid value: "ca": conflicting duplicate paths`,
			`spec.volumes[0].projected: Invalid value: "cert": conflicting duplicate paths`,
		}},
		{name: "two kinds in one source, reported after the source's own errors", sources: []api.VolumeProjection{
			{Secret: &api.SecretProjection{Items: []api.KeyToPath{{Key: "a", Path: "a"}}}, ConfigMap: &api.ConfigMapProjection{LocalObjectReference: api.LocalObjectReference{Name: "ca"}}},
		}, want: []string{
			`spec.volumes[0].projected.sources[0].secret.name: Required value`,
			`spec.volumes[0].projected.sources[0]: Forbidden: may not specify more than 1 volume type per source`,
		}},
		{name: "token: lifetime bounds and a path outside the volume", sources: []api.VolumeProjection{
			{ServiceAccountToken: &api.ServiceAccountTokenProjection{Path: "../token", ExpirationSeconds: i64(1<<32 + 1)}},
			{ServiceAccountToken: &api.ServiceAccountTokenProjection{ExpirationSeconds: i64(599)}},
		}, want: []string{
			`spec.volumes[0].projected.sources[0].serviceAccountToken.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds`,
			`spec.volumes[0].projected.path: Invalid value: "../token": must not contain '..'`,
			`spec.volumes[0].projected.sources[1].serviceAccountToken.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes`,
			`spec.volumes[0].projected.path: Required value`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := vBasePod()
			p.Spec.ServiceAccountName = "default"
			p.Spec.Volumes = []api.Volume{{Name: "creds", VolumeSource: api.VolumeSource{Projected: &api.ProjectedVolumeSource{Sources: tt.sources}}}}
			got := []string{}
			for _, e := range validation.ValidatePodCreate(p) {
				if strings.HasPrefix(e.Field, "spec.volumes") {
					got = append(got, e.Error())
				}
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("errors (-want +got):\n%s", d)
			}
		})
	}
}
