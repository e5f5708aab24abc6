package api

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// ErrInvalidCronSchedule is wrapped by every error about a CronJob's
// spec.schedule: those ParseCronSchedule returns and CronLocationError's.
var ErrInvalidCronSchedule = errors.New("invalid cron schedule")

// CronScheduleError is why a CronJob's spec.schedule does not parse. Its
// Error is the text Kubernetes v1.36.3 shows for the same spec: the API
// server's CronJob validation in the field.Invalid message for
// spec.schedule, the CronJob controller in its UnparseableSchedule event.
// Both parse with pkg/util/parsers.ParseCronScheduleWithPanicRecovery, which
// is github.com/robfig/cron/v3 v3.0.1's cron.ParseStandard with its one
// panic turned into an error, so the text is robfig's error word for word
// (see Panic for the exception). It wraps ErrInvalidCronSchedule.
type CronScheduleError struct {
	// Message is robfig's err.Error().
	Message string
	// TimeZone is the zone a TZ= or CRON_TZ= prefix names, as
	// CronSchedule.TimeZone would report it; "" when there is none. robfig
	// loads the zone before it reads the rest of the spec, so when the
	// caller cannot resolve TimeZone, robfig's error is the one
	// CronLocationError makes, not Message.
	TimeZone string
	// Panic is set for the one spec robfig answers with a panic rather
	// than an error: a TZ= or CRON_TZ= prefix with no space anywhere after
	// it (robfig ends the zone name at the first space, and slices out of
	// range when there is none). Message is then what Kubernetes' recovery
	// makes of it: "invalid schedule format: " and the runtime error.
	Panic bool

	cause error
}

// Error is robfig's message; "" for a nil error.
func (e *CronScheduleError) Error() string {
	if e == nil {
		return ""
	}
	return e.Message
}

// Unwrap gives ErrInvalidCronSchedule and, for CronLocationError's
// errors, the error that resolving the zone failed with (none for a nil
// error).
func (e *CronScheduleError) Unwrap() []error {
	if e == nil {
		return nil
	}
	if e.cause != nil {
		return []error{ErrInvalidCronSchedule, e.cause}
	}
	return []error{ErrInvalidCronSchedule}
}

// CronLocationError is the error robfig/cron's parser gives when the zone
// a schedule's TZ= or CRON_TZ= prefix names does not load: "provided bad
// location <name>: <err>", err being what time.LoadLocation(name) failed
// with. ParseCronSchedule loads nothing (it does no I/O), so a caller that
// resolves CronSchedule.TimeZone — or CronScheduleError.TimeZone, for a
// spec whose rest is bad too — and fails, reports this error in place of
// the parse's outcome, as robfig would.
func CronLocationError(name string, err error) error {
	return &CronScheduleError{
		Message:  fmt.Sprintf("provided bad location %s: %v", name, err),
		TimeZone: name,
		cause:    err,
	}
}

// CronSchedule is a CronJob's spec.schedule, parsed once: five cron fields
// (minute, hour, day of month, month, day of week) or a descriptor, with
// the zone of an optional TZ= prefix, as github.com/robfig/cron/v3's
// ParseStandard reads it for the API server's validation and the CronJob
// controller (pkg/controller/cronjob). Its Next is when the controller's
// next Job is due. Build it with ParseCronSchedule; use it from any number
// of goroutines.
type CronSchedule struct {
	// Bit v is set when value v is allowed: minute 0-59, hour 0-23, day of
	// month 1-31, month 1-12, day of week 0-6 (Sunday 0).
	minute, hour, dom, month, dow uint64
	// dayAnd is set when the day of month or the day of week was written
	// with a star (* or ? unstepped or stepped by 1): a day must then
	// match both fields, otherwise either one.
	dayAnd bool
	// never is set when no time can match (a field that was only commas).
	never bool
	// every is the delay of an @every schedule, 0 for any other.
	every time.Duration
	zone  string
}

// cronBounds are the values a field allows and the names it accepts.
type cronBounds struct {
	min, max uint
	names    []string // value i is called names[i] ("" for none)
}

var (
	cronMinutes = cronBounds{0, 59, nil}
	cronHours   = cronBounds{0, 23, nil}
	cronDoms    = cronBounds{1, 31, nil}
	cronMonths  = cronBounds{1, 12, []string{"", "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}}
	cronDows    = cronBounds{0, 6, []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}}
)

// cronBits is the set of values lo through hi of every step-th.
func cronBits(lo, hi, step uint) uint64 {
	if step == 1 {
		return (^uint64(0) >> (63 - hi)) &^ (1<<lo - 1)
	}
	var bits uint64
	for v := lo; v <= hi; v += step {
		bits |= 1 << v
	}
	return bits
}

func cronAll(b cronBounds) uint64 { return cronBits(b.min, b.max, 1) }

// cronMaxYear bounds the years Next searches from: far beyond it Go's time
// arithmetic saturates, and a search that cannot move forward would not
// end (robfig's would not either).
const cronMaxYear = 1 << 32

// ParseCronSchedule parses a CronJob's spec.schedule as Kubernetes v1.36.3
// does for its validation and its CronJob controller — with
// github.com/robfig/cron/v3 v3.0.1's cron.ParseStandard — accepting exactly
// what it accepts and refusing the rest with its text (see
// CronScheduleError).
//
// The spec is five fields separated by white space: minute (0-59), hour
// (0-23), day of month (1-31), month (1-12 or JAN-DEC) and day of week (0-6
// or SUN-SAT, Sunday 0; 7 is refused), names in any case. A field is a
// comma-separated list (empty items are skipped, so a field of only commas
// allows nothing and the schedule never fires) of *, ? (the same as *), a
// value, a range a-b, or any of these with a step /n; a/n means a through
// the field's maximum. Anything after * or ? and before a / is ignored
// (*-5 is *). Or the spec is a descriptor, matched exactly: @yearly,
// @annually, @monthly, @weekly (Sundays), @daily, @midnight, @hourly, or
// @every <duration> (time.ParseDuration syntax; less than a second is a
// second, the rest is cut to whole seconds). Either may follow a TZ=<zone>
// or CRON_TZ=<zone> prefix, the name ending at the first space (the
// controller writes one itself for spec.timeZone).
//
// robfig loads the zone there; this parser does no I/O and only records
// its name (TimeZone). The caller resolves it — time.LoadLocation — and
// passes the location to Next; a name it cannot resolve is refused with
// CronLocationError's message, which robfig gives before looking at the
// rest of the spec (so a refused spec reports its zone in
// CronScheduleError.TimeZone too).
//
// Parsing allocates only the result (and the error). It never panics.
func ParseCronSchedule(spec string) (*CronSchedule, error) {
	if spec == "" {
		return nil, &CronScheduleError{Message: "empty spec string"}
	}
	rest, zone := spec, ""
	if strings.HasPrefix(spec, "TZ=") || strings.HasPrefix(spec, "CRON_TZ=") {
		sp := strings.IndexByte(spec, ' ')
		if sp < 0 {
			return nil, &CronScheduleError{Message: "invalid schedule format: runtime error: slice bounds out of range [:-1]", Panic: true}
		}
		zone = cronZone(spec[strings.IndexByte(spec, '=')+1 : sp])
		rest = strings.TrimSpace(spec[sp:])
	}
	s, err := parseCronRest(rest)
	if err != nil {
		err.TimeZone = zone
		return nil, err
	}
	s.zone = zone
	return s, nil
}

// cronZone is the zone name a prefix gives as TimeZone reports it:
// time.LoadLocation reads "" as UTC, and "Local" as time.Local, which
// robfig treats as no zone of the schedule's own.
func cronZone(name string) string {
	switch name {
	case "":
		return "UTC"
	case "Local":
		return ""
	}
	return name
}

// parseCronRest parses the spec after its zone prefix.
func parseCronRest(spec string) (*CronSchedule, *CronScheduleError) {
	if strings.HasPrefix(spec, "@") {
		return parseCronDescriptor(spec)
	}
	fields, n := cronFields(spec)
	if n != 5 {
		return nil, &CronScheduleError{Message: fmt.Sprintf("expected exactly 5 fields, found %d: %s", n, strings.Fields(spec))}
	}
	s := &CronSchedule{}
	var domStar, dowStar bool
	var err *CronScheduleError
	if s.minute, _, err = parseCronField(fields[0], cronMinutes); err != nil {
		return nil, err
	}
	if s.hour, _, err = parseCronField(fields[1], cronHours); err != nil {
		return nil, err
	}
	if s.dom, domStar, err = parseCronField(fields[2], cronDoms); err != nil {
		return nil, err
	}
	if s.month, _, err = parseCronField(fields[3], cronMonths); err != nil {
		return nil, err
	}
	if s.dow, dowStar, err = parseCronField(fields[4], cronDows); err != nil {
		return nil, err
	}
	s.dayAnd = domStar || dowStar
	s.never = s.minute == 0 || s.hour == 0 || s.month == 0 ||
		(s.dayAnd && (s.dom == 0 || s.dow == 0)) || (s.dom == 0 && s.dow == 0)
	return s, nil
}

// parseCronDescriptor parses an @ spec. The descriptors are fixed field
// sets; which of their day fields count as starred decides the day rule
// (Jan 1 for @yearly, every Sunday for @weekly).
func parseCronDescriptor(spec string) (*CronSchedule, *CronScheduleError) {
	const every = "@every "
	if strings.HasPrefix(spec, every) {
		d, err := time.ParseDuration(spec[len(every):])
		if err != nil {
			return nil, &CronScheduleError{Message: fmt.Sprintf("failed to parse duration %s: %s", spec, err)}
		}
		d = max(d, time.Second)
		return &CronSchedule{every: d - d%time.Second}, nil
	}
	minute, hour, dom, month, dow := uint64(1), uint64(1), cronAll(cronDoms), cronAll(cronMonths), cronAll(cronDows)
	switch spec {
	case "@yearly", "@annually":
		dom, month = 1<<1, 1<<1
	case "@monthly":
		dom = 1 << 1
	case "@weekly":
		dow = 1
	case "@daily", "@midnight":
	case "@hourly":
		hour = cronAll(cronHours)
	default:
		return nil, &CronScheduleError{Message: "unrecognized descriptor: " + spec}
	}
	return &CronSchedule{minute: minute, hour: hour, dom: dom, month: month, dow: dow, dayAnd: true}, nil
}

// cronFields splits spec at runs of Unicode white space, as strings.Fields
// does, keeping the first five fields and counting them all.
func cronFields(spec string) (fields [5]string, n int) {
	start := -1
	for i := 0; i < len(spec); {
		r, w := rune(spec[i]), 1
		if r >= utf8.RuneSelf {
			r, w = utf8.DecodeRuneInString(spec[i:])
		}
		if unicode.IsSpace(r) {
			if start >= 0 {
				if n < len(fields) {
					fields[n] = spec[start:i]
				}
				n++
				start = -1
			}
		} else if start < 0 {
			start = i
		}
		i += w
	}
	if start >= 0 {
		if n < len(fields) {
			fields[n] = spec[start:]
		}
		n++
	}
	return fields, n
}

// parseCronField parses one field: its allowed values, and whether any
// item was a star that no step above 1 thinned.
func parseCronField(field string, b cronBounds) (bits uint64, star bool, err *CronScheduleError) {
	for field != "" {
		item := field
		if i := strings.IndexByte(field, ','); i >= 0 {
			item, field = field[:i], field[i+1:]
		} else {
			field = ""
		}
		if item == "" {
			continue
		}
		ib, is, err := parseCronItem(item, b)
		if err != nil {
			return 0, false, err
		}
		bits |= ib
		star = star || is
	}
	return bits, star, nil
}

// parseCronItem parses one item of a field: [* | ? | a | a-b][/n]. The
// checks run in robfig's order, so the first fault found is the one it
// reports.
func parseCronItem(item string, b cronBounds) (bits uint64, star bool, err *CronScheduleError) {
	span, stepText := item, ""
	slashes := strings.Count(item, "/")
	if slashes > 0 {
		i := strings.IndexByte(item, '/')
		span, stepText = item[:i], item[i+1:]
	}
	hyphens := strings.Count(span, "-")
	low, high := span, ""
	if hyphens > 0 {
		i := strings.IndexByte(span, '-')
		low, high = span[:i], span[i+1:]
	}

	var lo, hi uint
	if low == "*" || low == "?" {
		lo, hi, star = b.min, b.max, true
	} else {
		if lo, err = cronValue(low, b.names); err != nil {
			return 0, false, err
		}
		switch hyphens {
		case 0:
			hi = lo
		case 1:
			if hi, err = cronValue(high, b.names); err != nil {
				return 0, false, err
			}
		default:
			return 0, false, &CronScheduleError{Message: "too many hyphens: " + item}
		}
	}

	step := uint(1)
	switch slashes {
	case 0:
	case 1:
		if step, err = cronNumber(stepText); err != nil {
			return 0, false, err
		}
		if hyphens == 0 {
			hi = b.max
		}
		if step > 1 {
			star = false
		}
	default:
		return 0, false, &CronScheduleError{Message: "too many slashes: " + item}
	}

	switch {
	case lo < b.min:
		return 0, false, &CronScheduleError{Message: fmt.Sprintf("beginning of range (%d) below minimum (%d): %s", lo, b.min, item)}
	case hi > b.max:
		return 0, false, &CronScheduleError{Message: fmt.Sprintf("end of range (%d) above maximum (%d): %s", hi, b.max, item)}
	case lo > hi:
		return 0, false, &CronScheduleError{Message: fmt.Sprintf("beginning of range (%d) beyond end of range (%d): %s", lo, hi, item)}
	case step == 0:
		return 0, false, &CronScheduleError{Message: "step of range should be a positive number: " + item}
	}
	return cronBits(lo, hi, step), star, nil
}

// cronValue is a field value: one of the field's names, compared as
// strings.ToLower folds them (so the Kelvin sign and a dotted capital I
// fold to ASCII too), or a number.
func cronValue(text string, names []string) (uint, *CronScheduleError) {
	if names != nil {
		if v, ok := cronName(text, names); ok {
			return v, nil
		}
	}
	return cronNumber(text)
}

// cronName looks text up among names, folding case as strings.ToLower
// does (in place for ASCII, which is all a name can match but for the two
// runes noted above).
func cronName(text string, names []string) (uint, bool) {
	var buf [3]byte
	if !cronASCII(text) {
		text = strings.ToLower(text)
	} else if len(text) == len(buf) {
		for i := range buf {
			c := text[i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			buf[i] = c
		}
		for v, name := range names {
			if name != "" && name == string(buf[:]) {
				return uint(v), true
			}
		}
		return 0, false
	}
	for v, name := range names {
		if name != "" && name == text {
			return uint(v), true
		}
	}
	return 0, false
}

func cronASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// cronNumber is a number as strconv.Atoi reads it (an optional sign,
// decimal digits), refused when negative.
func cronNumber(text string) (uint, *CronScheduleError) {
	n, err := strconv.Atoi(text)
	if err != nil {
		return 0, &CronScheduleError{Message: fmt.Sprintf("failed to parse int from %s: %s", text, err)}
	}
	if n < 0 {
		return 0, &CronScheduleError{Message: fmt.Sprintf("negative number (%d) not allowed: %s", n, text)}
	}
	return uint(n), nil
}

// TimeZone is the zone named by a TZ= or CRON_TZ= prefix, "" when none.
// It is the name time.LoadLocation would be given, except that an empty
// name is reported as "UTC" (what LoadLocation makes of it) and "Local" as
// "" (robfig evaluates a schedule whose zone is time.Local in the location
// of the time given to Next, as if it had no zone). Kubernetes refuses a
// prefix in a new CronJob's schedule and points to spec.timeZone; the
// CronJob controller adds "TZ=<spec.timeZone> " itself to a schedule
// without one.
func (s *CronSchedule) TimeZone() string {
	if s == nil {
		return ""
	}
	return s.zone
}

// Next is the first activation strictly after t, computed in loc (t's own
// location when loc is nil); the zero time when there is none within five
// years. The result is in t's location. It is robfig's SpecSchedule.Next,
// step for step, since its steps decide what happens around changes of a
// zone's offset: a time that a spring-forward change skips does not fire
// that day (an hourly schedule goes from 01:00 to 03:00, a daily 02:30 not
// at all), an hour that a fall-back change repeats fires twice (01:00 EDT,
// then 01:00 EST), and a day whose midnight is skipped has no activation
// at 00:00. The day of month and the day of week must both match when
// either field was written with a star, otherwise either one is enough.
// Activations fall on whole minutes of loc.
//
// An @every schedule ignores loc: Next is t plus the delay, less t's
// nanoseconds. The zero time also comes back for a nil schedule, for a t
// more than 2³² years from year 0, where time arithmetic no longer moves,
// and where a zone skips a whole day (Pacific/Apia, 30 December 2011) on
// the way to a matching one: robfig's search never ends there.
func (s *CronSchedule) Next(t time.Time, loc *time.Location) time.Time {
	if s == nil {
		return time.Time{}
	}
	if s.every > 0 {
		return t.Add(s.every - time.Duration(t.Nanosecond()))
	}
	if s.never {
		return time.Time{}
	}
	orig := t.Location()
	if loc == nil {
		loc = orig
	} else {
		t = t.In(loc)
	}
	if y := t.Year(); y < -cronMaxYear || y > cronMaxYear {
		return time.Time{}
	}

	// From the next whole second, find the first month that matches, then
	// the first day in it, hour, minute and second, each time moving t to
	// the start of the unit first (once: later moves keep that alignment).
	// When a unit rolls over into the next larger one, the larger fields
	// may no longer match: start over from the month.
	t = t.Add(time.Second - time.Duration(t.Nanosecond()))
	aligned := false
	limit := t.Year() + 5
search:
	for t.Year() <= limit {
		for s.month&(1<<uint(t.Month())) == 0 {
			if !aligned {
				aligned = true
				t = time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, loc)
			}
			t = t.AddDate(0, 1, 0)
			if t.Month() == time.January {
				continue search
			}
		}
		for !s.dayMatches(t) {
			if !aligned {
				aligned = true
				t = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc)
			}
			prev := t
			t = t.AddDate(0, 0, 1)
			// Where a change of offset moved the day's start off midnight,
			// go to the nearest midnight.
			if h := t.Hour(); h > 12 {
				t = t.Add(time.Duration(24-h) * time.Hour)
			} else if h > 0 {
				t = t.Add(-time.Duration(h) * time.Hour)
			}
			if !t.After(prev) {
				// A day the zone skips whole (Pacific/Apia's 30 December
				// 2011) leads back to the same midnight, and robfig's
				// search never ends.
				return time.Time{}
			}
			if t.Day() == 1 {
				continue search
			}
		}
		for s.hour&(1<<uint(t.Hour())) == 0 {
			if !aligned {
				aligned = true
				t = time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), 0, 0, 0, loc)
			}
			t = t.Add(time.Hour)
			if t.Hour() == 0 {
				continue search
			}
		}
		for s.minute&(1<<uint(t.Minute())) == 0 {
			if !aligned {
				aligned = true
				t = t.Truncate(time.Minute)
			}
			t = t.Add(time.Minute)
			if t.Minute() == 0 {
				continue search
			}
		}
		if t.Second() != 0 {
			if !aligned {
				aligned = true
				t = t.Truncate(time.Second)
			}
			for {
				t = t.Add(time.Second)
				if t.Second() == 0 {
					continue search
				}
			}
		}
		return t.In(orig)
	}
	return time.Time{}
}

// dayMatches reports whether t's day is one of the schedule's, by the
// star rule of the day-of-month and day-of-week fields.
func (s *CronSchedule) dayMatches(t time.Time) bool {
	dom := s.dom&(1<<uint(t.Day())) != 0
	dow := s.dow&(1<<uint(t.Weekday())) != 0
	if s.dayAnd {
		return dom && dow
	}
	return dom || dow
}
