package validation

import (
	"regexp"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
)

// cronJobNameMax is the longest CronJob name: the cronjob controller
// names each Job <cronjob>-<minutes since the epoch> (11 more
// characters), and a Job's name must be a DNS label of at most 63.
const cronJobNameMax = 63 - 11

// validTimeZonePart is the IANA naming rule each "/"-separated part of a
// spec.timeZone must follow (letters, digits, ".", "-", "_", "+"; 1 to 14
// characters), as batch validation checks it.
var validTimeZonePart = regexp.MustCompile(`^[A-Za-z.\-_0-9+]{1,14}$`)

// ValidateCronJob returns the field errors kube-apiserver v1.36.3 gives
// when asked to create the CronJob cj (batch validation's
// ValidateCronJobCreate): the object metadata (a DNS subdomain name),
// then the spec — schedule required and parsed as the cronjob
// controller parses it (api.ParseCronSchedule, the parser's message as
// the detail), no TZ= or CRON_TZ= in it ("use timeZone field instead"),
// startingDeadlineSeconds not negative, timeZone (not empty, IANA name
// characters, not "Local", known to the time zone database
// Options.LoadLocation reads), concurrencyPolicy Allow, Forbid or
// Replace, the Job template's spec as a Job's (parallelism, completions,
// deadlines, the pod template with restartPolicy OnFailure or Never, ...)
// without a selector or manualSelector (both generated for each Job), and
// the history limits not negative — and finally the name at most 52
// characters. cj is expected defaulted (api.DefaultCronJob). A refusal
// reads `CronJob.batch "x" is invalid: ...`. A nil cj gives a Required
// error at spec. cj is not modified.
func ValidateCronJob(cj *api.CronJob) api.FieldErrors {
	return Options{}.ValidateCronJob(cj)
}

// ValidateCronJob is the package's ValidateCronJob under these
// kube-apiserver options.
func (o Options) ValidateCronJob(cj *api.CronJob) api.FieldErrors {
	if cj == nil {
		return api.FieldErrors{api.Required(api.NewPath("spec"), "a CronJob is required")}
	}
	errs := validateObjectMeta(&cj.ObjectMeta, api.NewPath("metadata"))
	errs = append(errs, o.validateCronJobSpec(&cj.Spec, nil)...)
	if len(cj.Name) > cronJobNameMax {
		errs = append(errs, api.Invalid(api.NewPath("metadata").Child("name"), cj.Name, "must be no more than 52 characters"))
	}
	return errs
}

// ValidateCronJobUpdate returns the field errors kube-apiserver v1.36.3
// gives when asked to update the stored CronJob old to cj
// (ValidateCronJobUpdate): the metadata update rules and the spec rules
// of ValidateCronJob, except that a TZ= prefix already in old's schedule
// may stay (but not beside a timeZone), the time zone is checked only
// when it changed, and the 52-character name limit is not applied. Both
// are expected defaulted; a nil cj or old gives a Required error at
// metadata. Neither is modified.
func ValidateCronJobUpdate(cj, old *api.CronJob) api.FieldErrors {
	return Options{}.ValidateCronJobUpdate(cj, old)
}

// ValidateCronJobUpdate is the package's ValidateCronJobUpdate under these
// kube-apiserver options.
func (o Options) ValidateCronJobUpdate(cj, old *api.CronJob) api.FieldErrors {
	if cj == nil || old == nil {
		return api.FieldErrors{api.Required(api.NewPath("metadata"), "both the new and the old CronJob are required")}
	}
	errs := validateObjectMetaUpdate(&cj.ObjectMeta, &old.ObjectMeta, api.NewPath("metadata"))
	return append(errs, o.validateCronJobSpec(&cj.Spec, &old.Spec)...)
}

// validateCronJobSpec is upstream's validateCronJobSpec at spec; old is
// the stored spec on an update, nil on a create.
func (o Options) validateCronJobSpec(s, old *api.CronJobSpec) api.FieldErrors {
	spec := api.NewPath("spec")
	var errs api.FieldErrors
	if s.Schedule == "" {
		errs = append(errs, api.Required(spec.Child("schedule"), ""))
	} else {
		errs = append(errs, validateSchedule(s.Schedule, old != nil && strings.Contains(old.Schedule, "TZ"), s.TimeZone, spec.Child("schedule"))...)
	}
	if s.StartingDeadlineSeconds != nil {
		errs = append(errs, nonNegative(*s.StartingDeadlineSeconds, spec.Child("startingDeadlineSeconds"))...)
	}
	if old == nil || !equalStringPtr(old.TimeZone, s.TimeZone) {
		errs = append(errs, o.validateTimeZone(s.TimeZone, spec.Child("timeZone"))...)
	}
	p := spec.Child("concurrencyPolicy")
	switch s.ConcurrencyPolicy {
	case api.AllowConcurrent, api.ForbidConcurrent, api.ReplaceConcurrent:
	case "":
		errs = append(errs, api.Required(p, ""))
	default:
		errs = append(errs, api.NotSupported(p, s.ConcurrencyPolicy, []string{api.AllowConcurrent, api.ForbidConcurrent, api.ReplaceConcurrent}))
	}
	tmpl := spec.Child("jobTemplate").Child("spec")
	js := &s.JobTemplate.Spec
	errs = append(errs, o.validateJobSpecAt(js, jobOptions{}, tmpl, true)...)
	if js.Selector != nil {
		errs = append(errs, api.Invalid(tmpl.Child("selector"), jsonValue{js.Selector}, "`selector` will be auto-generated"))
	}
	if js.ManualSelector != nil && *js.ManualSelector {
		errs = append(errs, api.NotSupported(tmpl.Child("manualSelector"), true, []string{"nil", "false"}))
	}
	if s.SuccessfulJobsHistoryLimit != nil {
		errs = append(errs, nonNegative(int64(*s.SuccessfulJobsHistoryLimit), spec.Child("successfulJobsHistoryLimit"))...)
	}
	if s.FailedJobsHistoryLimit != nil {
		errs = append(errs, nonNegative(int64(*s.FailedJobsHistoryLimit), spec.Child("failedJobsHistoryLimit"))...)
	}
	return errs
}

// validateSchedule is upstream's validateScheduleFormat: the schedule
// parses, and carries no TZ (unless allowTZ, an update keeping one, and
// then not beside a timeZone).
func validateSchedule(schedule string, allowTZ bool, timeZone *string, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	if _, err := api.ParseCronSchedule(schedule); err != nil {
		errs = append(errs, api.Invalid(p, schedule, err.Error()))
	}
	hasTZ := strings.Contains(schedule, "TZ")
	switch {
	case allowTZ && hasTZ && timeZone != nil:
		errs = append(errs, api.Invalid(p, schedule, "cannot use both timeZone field and TZ or CRON_TZ in schedule"))
	case !allowTZ && hasTZ:
		errs = append(errs, api.Invalid(p, schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"))
	}
	return errs
}

// validateTimeZone is upstream's validateTimeZone. The last check is the
// time zone database's: Options.LoadLocation, or, when it is nil, only
// "UTC" is known (the package reads no files).
func (o Options) validateTimeZone(tz *string, p api.Path) api.FieldErrors {
	if tz == nil {
		return nil
	}
	if *tz == "" {
		return api.FieldErrors{api.Invalid(p, "", "timeZone must be nil or non-empty string")}
	}
	for _, part := range strings.Split(*tz, "/") {
		if part == "." || part == ".." || strings.HasPrefix(part, "-") || !validTimeZonePart.MatchString(part) {
			return api.FieldErrors{api.Invalid(p, *tz, "unknown time zone "+*tz)}
		}
	}
	var errs api.FieldErrors
	if strings.EqualFold(*tz, "Local") {
		errs = append(errs, api.Invalid(p, *tz, "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"))
	}
	if _, err := o.loadLocation(*tz); err != nil {
		errs = append(errs, api.Invalid(p, *tz, err.Error()))
	}
	return errs
}

// loadLocation resolves a time zone name through Options.LoadLocation;
// without one, "UTC" (and "", Go's name for it) resolve and every other
// name is unknown, with time.LoadLocation's message.
func (o Options) loadLocation(name string) (*time.Location, error) {
	if o.LoadLocation != nil {
		return o.LoadLocation(name)
	}
	return api.LoadLocationUTC(name)
}

// equalStringPtr reports two optional strings equal: both nil, or both set
// to the same value.
func equalStringPtr(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
