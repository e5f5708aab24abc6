package validation_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
)

// tTemplate is a valid pod template labelled app=web, as a workload's
// defaulting leaves it.
func tTemplate() api.PodTemplateSpec {
	d := &api.Deployment{Spec: api.DeploymentSpec{Template: api.PodTemplateSpec{
		ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.27"}}},
	}}}
	api.DefaultDeployment(d)
	return d.Spec.Template
}

// tSelector selects app=web.
func tSelector() *api.LabelSelector {
	return &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
}

func tDeployment(edit func(*api.Deployment)) *api.Deployment {
	d := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.DeploymentSpec{Selector: tSelector(), Template: tTemplate()}}
	api.DefaultDeployment(d)
	if edit != nil {
		edit(d)
	}
	return d
}

// tErrs renders errors one per line, as the API server prints them.
func tErrs(errs api.FieldErrors) []string {
	out := []string{}
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func TestValidatePodTemplateSpec(t *testing.T) {
	p := api.NewPath("spec", "template")
	cases := []struct {
		name string
		edit func(*api.PodTemplateSpec)
		opts validation.Options
		want []string
	}{
		{name: "valid"},
		{name: "no labels at all", edit: func(t *api.PodTemplateSpec) { t.Labels = nil }},
		{
			name: "bad label key",
			edit: func(t *api.PodTemplateSpec) { t.Labels = map[string]string{"a b": "c"} },
			want: []string{"spec.template.labels: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"},
		},
		{
			name: "privileged container refused by default",
			edit: func(t *api.PodTemplateSpec) {
				t.Spec.Containers[0].SecurityContext = &api.SecurityContext{Privileged: vPtr(true)}
			},
			want: []string{"spec.template.spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy"},
		},
		{
			name: "privileged container with --allow-privileged",
			edit: func(t *api.PodTemplateSpec) {
				t.Spec.Containers[0].SecurityContext = &api.SecurityContext{Privileged: vPtr(true)}
			},
			opts: validation.Options{AllowPrivileged: true},
		},
		{
			name: "missing container image",
			edit: func(t *api.PodTemplateSpec) { t.Spec.Containers[0].Image = "" },
			want: []string{"spec.template.spec.containers[0].image: Required value"},
		},
		{
			name: "ephemeral containers",
			edit: func(t *api.PodTemplateSpec) {
				t.Spec.EphemeralContainers = []api.EphemeralContainer{{Container: api.Container{
					Name: "debug", Image: "busybox", ImagePullPolicy: api.PullIfNotPresent,
					TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: "File"}}}
			},
			want: []string{"spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template"},
		},
		{
			name: "a template may name no pod", // metadata.name is not checked
			edit: func(t *api.PodTemplateSpec) { t.Name = "Not_A_Name" },
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tmpl := tTemplate()
			if c.edit != nil {
				c.edit(&tmpl)
			}
			got := tErrs(c.opts.ValidatePodTemplateSpec(&tmpl, p))
			if c.want == nil {
				c.want = []string{}
			}
			if d := cmp.Diff(c.want, got); d != "" {
				t.Errorf("errors (-want +got):\n%s", d)
			}
		})
	}
}

func TestValidateWorkloadTemplate(t *testing.T) {
	mismatch := "`selector` does not match template `labels`"
	cases := []struct {
		name string
		obj  api.Object
		want []string
	}{
		{name: "valid Deployment", obj: tDeployment(nil)},
		{
			name: "Deployment without a selector",
			obj:  tDeployment(func(d *api.Deployment) { d.Spec.Selector = nil }),
			want: []string{
				"spec.selector: Required value",
				`spec.template.metadata.labels: Invalid value: {"app":"web"}: ` + mismatch,
			},
		},
		{
			name: "Deployment with an empty selector",
			obj:  tDeployment(func(d *api.Deployment) { d.Spec.Selector = &api.LabelSelector{} }),
			want: []string{"spec.selector: Invalid value: "},
		},
		{
			name: "Deployment selector not matching",
			obj: tDeployment(func(d *api.Deployment) {
				d.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "api"}}
			}),
			want: []string{`spec.template.metadata.labels: Invalid value: {"app":"web"}: ` + mismatch},
		},
		{
			name: "Deployment with restartPolicy OnFailure",
			obj:  tDeployment(func(d *api.Deployment) { d.Spec.Template.Spec.RestartPolicy = api.RestartPolicyOnFailure }),
			want: []string{`spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"`},
		},
		{
			name: "Deployment with activeDeadlineSeconds",
			obj:  tDeployment(func(d *api.Deployment) { d.Spec.Template.Spec.ActiveDeadlineSeconds = vPtr(int64(30)) }),
			want: []string{"spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported"},
		},
		{
			name: "Deployment with an invalid selector",
			obj: tDeployment(func(d *api.Deployment) {
				d.Spec.Selector.MatchExpressions = []api.LabelSelectorRequirement{{Key: "tier", Operator: "Near"}}
			}),
			want: []string{"spec.selector: Invalid value: "},
		},
		{
			name: "ReplicaSet names the Deployment in its empty-selector message",
			obj:  &api.ReplicaSet{Spec: api.ReplicaSetSpec{Selector: &api.LabelSelector{}, Template: tTemplate()}},
			want: []string{"spec.selector: Invalid value: "},
		},
		{
			name: "StatefulSet: hostname, subdomain and claim template mounts are the controller's",
			obj: func() api.Object {
				s := &api.StatefulSet{Spec: api.StatefulSetSpec{Selector: tSelector(), Template: tTemplate(),
					VolumeClaimTemplates: []api.PersistentVolumeClaim{{ObjectMeta: api.ObjectMeta{Name: "data"}}}}}
				s.Spec.Template.Spec.Hostname = "Not_A_Hostname"
				s.Spec.Template.Spec.Containers[0].VolumeMounts = []api.VolumeMount{{Name: "data", MountPath: "/data"}}
				return s
			}(),
		},
		{
			name: "StatefulSet checks the template's labels twice, as upstream does",
			obj: func() api.Object {
				s := &api.StatefulSet{Spec: api.StatefulSetSpec{Selector: tSelector(), Template: tTemplate()}}
				s.Spec.Template.Labels["-bad"] = "x"
				return s
			}(),
			want: []string{"spec.template.labels: Invalid value: ", "spec.template.labels: Invalid value: "},
		},
		{
			name: "DaemonSet without a selector: only the mismatch",
			obj:  &api.DaemonSet{Spec: api.DaemonSetSpec{Template: tTemplate()}},
			want: []string{`spec.template.metadata.labels: Invalid value: {"app":"web"}: ` + mismatch},
		},
		{
			name: "DaemonSet with activeDeadlineSeconds",
			obj: func() api.Object {
				ds := &api.DaemonSet{Spec: api.DaemonSetSpec{Selector: tSelector(), Template: tTemplate()}}
				ds.Spec.Template.Spec.ActiveDeadlineSeconds = vPtr(int64(1))
				return ds
			}(),
			want: []string{"spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported"},
		},
		{
			name: "Job with restartPolicy Always",
			obj:  &api.Job{Spec: api.JobSpec{Selector: tSelector(), Template: tTemplate()}},
			want: []string{`spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"`},
		},
		{
			name: "Job with OnFailure and a podFailurePolicy",
			obj: func() api.Object {
				j := &api.Job{Spec: api.JobSpec{Selector: tSelector(), Template: tTemplate(), PodFailurePolicy: &api.PodFailurePolicy{}}}
				j.Spec.Template.Spec.RestartPolicy = api.RestartPolicyOnFailure
				return j
			}(),
			want: []string{`spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified`},
		},
		{
			name: "Job without a selector",
			obj: func() api.Object {
				j := &api.Job{Spec: api.JobSpec{Template: tTemplate()}}
				j.Spec.Template.Spec.RestartPolicy = api.RestartPolicyNever
				return j
			}(),
			want: []string{"spec.selector: Required value", `spec.template.metadata.labels: Invalid value: {"app":"web"}: ` + mismatch},
		},
		{
			name: "not a workload",
			obj:  &api.Pod{},
			want: []string{`kind: Invalid value: "*api.Pod": not a Deployment, ReplicaSet, StatefulSet, DaemonSet or Job`},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := tErrs(validation.ValidateWorkloadTemplate(c.obj))
			if len(got) != len(c.want) {
				t.Fatalf("got %q, want %q", got, c.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], c.want[i]) {
					t.Errorf("error %d: got %s, want it to start with %s", i, got[i], c.want[i])
				}
			}
		})
	}
}

// The API server refuses a Deployment whose pod template asks for a
// privileged container when kube-apiserver runs without
// --allow-privileged (its default); `kubectl apply` prints the 422
// answer: Deployment.apps "web" is invalid: followed by these errors.
func ExampleValidateWorkloadTemplate() {
	d := &api.Deployment{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.DeploymentSpec{
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec: api.PodSpec{Containers: []api.Container{{
					Name: "nginx", Image: "nginx:1.27",
					SecurityContext: &api.SecurityContext{Privileged: func(b bool) *bool { return &b }(true)},
				}}},
			},
		},
	}
	api.DefaultDeployment(d)
	fmt.Println(validation.ValidateWorkloadTemplate(d))

	// A cluster started with --allow-privileged=true (kubeadm, kind)
	// accepts it.
	fmt.Println(len(validation.Options{AllowPrivileged: true}.ValidateWorkloadTemplate(d)))

	// A Job's pods must not restart forever.
	job := &api.Job{Spec: api.JobSpec{
		Selector: d.Spec.Selector,
		Template: api.PodTemplateSpec{
			ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
			Spec:       api.PodSpec{Containers: []api.Container{{Name: "pi", Image: "perl:5.34"}}},
		},
	}}
	api.DefaultJob(job)
	fmt.Println(validation.ValidateWorkloadTemplate(job))
	// Output:
	// spec.template.spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy
	// 0
	// spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"
}

// A pod template is checked as the pod it makes would be, at paths under
// the template's own: here a template with a debugging ephemeral
// container, which only a running pod may get.
func ExampleValidatePodTemplateSpec() {
	t := &api.PodTemplateSpec{
		ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec: api.PodSpec{
			Containers:          []api.Container{{Name: "nginx", Image: "nginx:1.27"}},
			EphemeralContainers: []api.EphemeralContainer{{Container: api.Container{Name: "debug", Image: "busybox"}}},
		},
	}
	// The API server defaults a template as part of its workload.
	d := &api.Deployment{Spec: api.DeploymentSpec{Template: *t}}
	api.DefaultDeployment(d)
	for _, e := range validation.ValidatePodTemplateSpec(&d.Spec.Template, api.NewPath("spec", "template")) {
		fmt.Println(e)
	}
	// Output:
	// spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template
}
