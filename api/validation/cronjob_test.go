package validation_test

import (
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
)

func validCronJob() *api.CronJob {
	cj := &api.CronJob{ObjectMeta: api.ObjectMeta{Name: "tick", Namespace: "default"},
		Spec: api.CronJobSpec{Schedule: "*/5 * * * *", JobTemplate: api.JobTemplateSpec{Spec: api.JobSpec{
			Template: api.PodTemplateSpec{Spec: api.PodSpec{RestartPolicy: api.RestartPolicyNever,
				Containers: []api.Container{{Name: "c", Image: "busybox"}}}}}}}}
	api.DefaultCronJob(cj)
	return cj
}

// TestValidateCronJob: batch validation's CronJob rules, each refusal
// with upstream's path and wording.
func TestValidateCronJob(t *testing.T) {
	str := func(s string) *string { return &s }
	for _, tc := range []struct {
		name   string
		change func(*api.CronJob)
		want   string // "" for valid
	}{
		{"valid", func(*api.CronJob) {}, ""},
		{"valid time zone", func(cj *api.CronJob) { cj.Spec.TimeZone = str("UTC") }, ""},
		{"no schedule", func(cj *api.CronJob) { cj.Spec.Schedule = "" }, "spec.schedule: Required value"},
		{"bad schedule", func(cj *api.CronJob) { cj.Spec.Schedule = "error" },
			`spec.schedule: Invalid value: "error": expected exactly 5 fields, found 1: [error]`},
		{"range", func(cj *api.CronJob) { cj.Spec.Schedule = "60 * * * *" },
			`spec.schedule: Invalid value: "60 * * * *": end of range (60) above maximum (59): 60`},
		{"TZ in schedule", func(cj *api.CronJob) { cj.Spec.Schedule = "TZ=UTC 0 * * * *" },
			`spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead`},
		{"empty time zone", func(cj *api.CronJob) { cj.Spec.TimeZone = str("") },
			`spec.timeZone: Invalid value: "": timeZone must be nil or non-empty string`},
		{"Local", func(cj *api.CronJob) { cj.Spec.TimeZone = str("Local") },
			`spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones`},
		{"bad characters", func(cj *api.CronJob) { cj.Spec.TimeZone = str("America/New York") },
			`spec.timeZone: Invalid value: "America/New York": unknown time zone America/New York`},
		{"unknown zone", func(cj *api.CronJob) { cj.Spec.TimeZone = str("Mars/Olympus") },
			`spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus`},
		{"policy", func(cj *api.CronJob) { cj.Spec.ConcurrencyPolicy = "Sometimes" },
			`spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"`},
		{"deadline", func(cj *api.CronJob) { d := int64(-1); cj.Spec.StartingDeadlineSeconds = &d },
			`spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0`},
		{"history", func(cj *api.CronJob) { n := int32(-1); cj.Spec.FailedJobsHistoryLimit = &n },
			`spec.failedJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0`},
		{"selector", func(cj *api.CronJob) {
			cj.Spec.JobTemplate.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"a": "b"}}
		}, "spec.jobTemplate.spec.selector: Invalid value:"},
		{"manual selector", func(cj *api.CronJob) { b := true; cj.Spec.JobTemplate.Spec.ManualSelector = &b },
			`spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: "nil", "false"`},
		{"restart policy", func(cj *api.CronJob) { cj.Spec.JobTemplate.Spec.Template.Spec.RestartPolicy = api.RestartPolicyAlways },
			`spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"`},
		{"job spec", func(cj *api.CronJob) { p := int32(-1); cj.Spec.JobTemplate.Spec.Parallelism = &p },
			`spec.jobTemplate.spec.parallelism: Invalid value: -1: must be greater than or equal to 0`},
		{"long name", func(cj *api.CronJob) { cj.Name = strings.Repeat("a", 53) },
			`metadata.name: Invalid value: "` + strings.Repeat("a", 53) + `": must be no more than 52 characters`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cj := validCronJob()
			tc.change(cj)
			errs := validation.ValidateCronJob(cj)
			switch {
			case tc.want == "" && len(errs) > 0:
				t.Fatalf("refused: %v", errs)
			case tc.want != "" && !strings.Contains(errs.Error(), tc.want):
				t.Fatalf("got %q, want %q", errs.Error(), tc.want)
			}
		})
	}
	// With the system's time zone database, a real zone passes.
	o := validation.Options{LoadLocation: time.LoadLocation}
	cj := validCronJob()
	cj.Spec.TimeZone = str("America/New_York")
	if _, err := time.LoadLocation("America/New_York"); err == nil {
		if errs := o.ValidateCronJob(cj); len(errs) > 0 {
			t.Errorf("America/New_York refused: %v", errs)
		}
	}
	// An update may keep a TZ= its stored schedule has, but not beside a
	// timeZone; the name limit does not apply.
	old := validCronJob()
	old.Spec.Schedule = "TZ=UTC 0 * * * *"
	old.Name = strings.Repeat("b", 60)
	old.ResourceVersion = "1"
	n := old.DeepCopy()
	if errs := validation.ValidateCronJobUpdate(n, old); len(errs) > 0 {
		t.Errorf("update keeping TZ refused: %v", errs)
	}
	n.Spec.TimeZone = str("UTC")
	if errs := validation.ValidateCronJobUpdate(n, old); !strings.Contains(errs.Error(), "cannot use both timeZone field and TZ or CRON_TZ in schedule") {
		t.Errorf("got %v, want the TZ-with-timeZone refusal", errs)
	}
	if errs := validation.ValidateCronJob(nil); len(errs) != 1 {
		t.Errorf("nil: %v", errs)
	}
}
