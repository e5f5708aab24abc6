package api

import (
	"errors"
	"time"
)

// CronJob is a batch/v1 CronJob: a Job template that kube-controller-
// manager's cronjob controller instantiates at each time its cron
// schedule names.
type CronJob struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitzero"`
	Spec       CronJobSpec   `json:"spec,omitzero"`
	Status     CronJobStatus `json:"status,omitzero"`
}

// CronJobSpec is a CronJob's schedule, its rules for late and
// overlapping runs, and the Job it makes.
type CronJobSpec struct {
	// Schedule is the cron schedule in the standard five-field syntax
	// (minute hour day-of-month month day-of-week) or a descriptor
	// (@hourly, @every 5m, ...).
	Schedule string `json:"schedule"`
	// TimeZone is the IANA time zone the schedule is read in; nil is the
	// time zone of kube-controller-manager.
	TimeZone *string `json:"timeZone,omitempty"`
	// StartingDeadlineSeconds is how late a scheduled run may still
	// start; a run missed by more is skipped (MissSchedule).
	StartingDeadlineSeconds *int64 `json:"startingDeadlineSeconds,omitempty"`
	// ConcurrencyPolicy is Allow (the default), Forbid (skip a run while
	// one is active) or Replace (delete the active runs first).
	ConcurrencyPolicy string `json:"concurrencyPolicy,omitempty"`
	// Suspend stops new runs; the active ones go on.
	Suspend *bool `json:"suspend,omitempty"`
	// JobTemplate is the Job each run creates.
	JobTemplate JobTemplateSpec `json:"jobTemplate"`
	// SuccessfulJobsHistoryLimit and FailedJobsHistoryLimit are how many
	// finished Jobs of each outcome are kept (API defaults 3 and 1).
	SuccessfulJobsHistoryLimit *int32 `json:"successfulJobsHistoryLimit,omitempty"`
	FailedJobsHistoryLimit     *int32 `json:"failedJobsHistoryLimit,omitempty"`
}

// JobTemplateSpec is the metadata (labels, annotations) and spec of the
// Jobs a CronJob creates.
type JobTemplateSpec struct {
	ObjectMeta `json:"metadata,omitzero"`
	Spec       JobSpec `json:"spec,omitzero"`
}

// CronJobStatus is what the cronjob controller reports: the Jobs it
// started that have not finished, and the times of its last run and last
// success.
type CronJobStatus struct {
	Active             []ObjectReference `json:"active,omitempty"`
	LastScheduleTime   *Time             `json:"lastScheduleTime,omitempty"`
	LastSuccessfulTime *Time             `json:"lastSuccessfulTime,omitempty"`
}

// Values of a CronJob's spec.concurrencyPolicy (k8s.io/api batch/v1
// ConcurrencyPolicy).
const (
	AllowConcurrent   = "Allow"
	ForbidConcurrent  = "Forbid"
	ReplaceConcurrent = "Replace"
)

// AnnotationCronJobScheduledTimestamp is the annotation the cronjob
// controller writes on each Job it creates: the run's scheduled time in
// RFC 3339, in the CronJob's time zone (k8s.io/api batch/v1
// CronJobScheduledTimestampAnnotation; feature CronJobsScheduledAnnotation,
// on by default).
const AnnotationCronJobScheduledTimestamp = "batch.kubernetes.io/cronjob-scheduled-timestamp"

// DefaultCronJob applies the batch/v1 defaulting to cj in place
// (SetDefaults_CronJob): concurrencyPolicy Allow, suspend false,
// successfulJobsHistoryLimit 3, failedJobsHistoryLimit 1, and the pod
// spec defaults of the Job template's pod template (the Job template's
// own spec gets no Job defaults: each Job created from it does). A nil
// CronJob is left alone.
func DefaultCronJob(cj *CronJob) {
	if cj == nil {
		return
	}
	s := &cj.Spec
	if s.ConcurrencyPolicy == "" {
		s.ConcurrencyPolicy = AllowConcurrent
	}
	if s.Suspend == nil {
		f := false
		s.Suspend = &f
	}
	if s.SuccessfulJobsHistoryLimit == nil {
		s.SuccessfulJobsHistoryLimit = ptrInt32(3)
	}
	if s.FailedJobsHistoryLimit == nil {
		s.FailedJobsHistoryLimit = ptrInt32(1)
	}
	defaultTemplate(&s.JobTemplate.Spec.Template)
}

// LoadLocationUTC is the time zone database that knows only UTC: "" and
// "UTC" give time.UTC, every other name the error time.LoadLocation gives
// for a zone it cannot find ("unknown time zone <name>"). It stands in
// where a caller gives no database (the semantic packages read no
// files); pass time.LoadLocation for the system's.
func LoadLocationUTC(name string) (*time.Location, error) {
	if name == "" || name == "UTC" {
		return time.UTC, nil
	}
	return nil, errors.New("unknown time zone " + name)
}
