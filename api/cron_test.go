package api_test

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
)

// The refusals of robfig/cron v3.0.1's ParseStandard, message for message
// (the cases of its parser_test.go and spec_test.go, and the order its
// checks run in).
func TestParseCronScheduleRefused(t *testing.T) {
	for _, tc := range []struct {
		spec, want string
		zone       string
		panics     bool
	}{
		{spec: "", want: "empty spec string"},
		{spec: " ", want: "expected exactly 5 fields, found 0: []"},
		{spec: "xyz", want: "expected exactly 5 fields, found 1: [xyz]"},
		{spec: "* * * *", want: "expected exactly 5 fields, found 4: [* * * *]"},
		{spec: "0 * * * * *", want: "expected exactly 5 fields, found 6: [0 * * * * *]"},
		{spec: " @daily", want: "expected exactly 5 fields, found 1: [@daily]"},
		{spec: "5 j * * *", want: `failed to parse int from j: strconv.Atoi: parsing "j": invalid syntax`},
		{spec: "60 0 * * *", want: "end of range (60) above maximum (59): 60"},
		{spec: "0 24 * * *", want: "end of range (24) above maximum (23): 24"},
		{spec: "0 0 0 * *", want: "beginning of range (0) below minimum (1): 0"},
		{spec: "0 0 32 * *", want: "end of range (32) above maximum (31): 32"},
		{spec: "0 0 * 0 *", want: "beginning of range (0) below minimum (1): 0"},
		{spec: "0 0 * 13 *", want: "end of range (13) above maximum (12): 13"},
		{spec: "0 0 * * 7", want: "end of range (7) above maximum (6): 7"},
		{spec: "0 0 * * SUN-7", want: "end of range (7) above maximum (6): SUN-7"},
		{spec: "0 0 * * XYZ", want: `failed to parse int from XYZ: strconv.Atoi: parsing "XYZ": invalid syntax`},
		{spec: "0 0 * * L", want: `failed to parse int from L: strconv.Atoi: parsing "L": invalid syntax`},
		{spec: "0 0 * jan-x *", want: `failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax`},
		{spec: "0 0 * JANUARY *", want: `failed to parse int from JANUARY: strconv.Atoi: parsing "JANUARY": invalid syntax`},
		{spec: "0 0 * * */mon", want: `failed to parse int from mon: strconv.Atoi: parsing "mon": invalid syntax`},
		{spec: "0-0-0 * * * *", want: "too many hyphens: 0-0-0"},
		{spec: "1-a-3 * * * *", want: "too many hyphens: 1-a-3"},
		{spec: "a-1-3 * * * *", want: `failed to parse int from a: strconv.Atoi: parsing "a": invalid syntax`},
		{spec: "-5 * * * *", want: `failed to parse int from : strconv.Atoi: parsing "": invalid syntax`},
		{spec: "*/5/5 * * * *", want: "too many slashes: */5/5"},
		{spec: "*//2 * * * *", want: "too many slashes: *//2"},
		{spec: "x/1/2 * * * *", want: `failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax`},
		{spec: "59-2 * * * *", want: "beginning of range (59) beyond end of range (2): 59-2"},
		{spec: "60/0 * * * *", want: "beginning of range (60) beyond end of range (59): 60/0"},
		{spec: "1-60/0 * * * *", want: "end of range (60) above maximum (59): 1-60/0"},
		{spec: "*/0 * * * *", want: "step of range should be a positive number: */0"},
		{spec: "5/-0 * * * *", want: "step of range should be a positive number: 5/-0"},
		{spec: "*/-12 * * * *", want: "negative number (-12) not allowed: -12"},
		{spec: "1,,2,x * * * *", want: `failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax`},
		{spec: "99999999999999999999 * * * *", want: `failed to parse int from 99999999999999999999: strconv.Atoi: parsing "99999999999999999999": value out of range`},
		{spec: "9223372036854775807 * * * *", want: "end of range (9223372036854775807) above maximum (59): 9223372036854775807"},
		{spec: "0 0 * * \u00e9", want: `failed to parse int from é: strconv.Atoi: parsing "é": invalid syntax`},
		{spec: "@unrecognized", want: "unrecognized descriptor: @unrecognized"},
		{spec: "@DAILY", want: "unrecognized descriptor: @DAILY"},
		{spec: "@daily ", want: "unrecognized descriptor: @daily "},
		{spec: "@every", want: "unrecognized descriptor: @every"},
		{spec: "@every Xm", want: `failed to parse duration @every Xm: time: invalid duration "Xm"`},
		{spec: "@every  1h", want: `failed to parse duration @every  1h: time: invalid duration " 1h"`},
		{spec: "@every 5", want: `failed to parse duration @every 5: time: missing unit in duration "5"`},
		// The prefix: the zone is recorded, the rest parsed.
		{spec: "TZ=America/New_York 15/0 * * * *", want: "step of range should be a positive number: 15/0", zone: "America/New_York"},
		{spec: "TZ=Bogus * * * *", want: "expected exactly 5 fields, found 4: [* * * *]", zone: "Bogus"},
		{spec: "CRON_TZ=UTC ", want: "expected exactly 5 fields, found 0: []", zone: "UTC"},
		{spec: "TZ=UTC TZ=UTC * * * *", want: `failed to parse int from TZ=UTC: strconv.Atoi: parsing "TZ=UTC": invalid syntax`, zone: "UTC"},
		{spec: "TZ=Europe/Paris @weekly!", want: "unrecognized descriptor: @weekly!", zone: "Europe/Paris"},
		{spec: "tz=UTC * * * * *", want: "expected exactly 5 fields, found 6: [tz=UTC * * * * *]"},
		// robfig panics where the prefix has no space after it; Kubernetes
		// recovers the panic into an error.
		{spec: "TZ=UTC", want: "invalid schedule format: runtime error: slice bounds out of range [:-1]", panics: true},
		{spec: "TZ=", want: "invalid schedule format: runtime error: slice bounds out of range [:-1]", panics: true},
		{spec: "CRON_TZ=UTC\t*\t*\t*\t*\t*", want: "invalid schedule format: runtime error: slice bounds out of range [:-1]", panics: true},
		// The name ends at the first space, not at a tab.
		{spec: "CRON_TZ=UTC\t* * * * *", want: "expected exactly 5 fields, found 4: [* * * *]", zone: "UTC\t*"},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			s, err := api.ParseCronSchedule(tc.spec)
			if s != nil || err == nil {
				t.Fatalf("ParseCronSchedule(%q) = %v, %v; want an error", tc.spec, s, err)
			}
			if err.Error() != tc.want {
				t.Errorf("ParseCronSchedule(%q): %q\nwant %q", tc.spec, err, tc.want)
			}
			var ce *api.CronScheduleError
			if !errors.As(err, &ce) || !errors.Is(err, api.ErrInvalidCronSchedule) {
				t.Fatalf("error %v (%T) is not a CronScheduleError wrapping ErrInvalidCronSchedule", err, err)
			}
			if ce.TimeZone != tc.zone || ce.Panic != tc.panics {
				t.Errorf("TimeZone %q, Panic %v; want %q, %v", ce.TimeZone, ce.Panic, tc.zone, tc.panics)
			}
		})
	}
}

// cronAt reads the times of robfig's spec tests: "Mon Jul 9 14:45 2012"
// (UTC here), with seconds, or with an offset ("2012-03-11T00:00:00-0500").
func cronAt(t *testing.T, value string) time.Time {
	t.Helper()
	if value == "" {
		return time.Time{}
	}
	for _, layout := range []string{"Mon Jan 2 15:04 2006", "Mon Jan 2 15:04:05 2006", "2006-01-02T15:04:05-0700"} {
		if at, err := time.Parse(layout, value); err == nil {
			return at
		}
	}
	t.Fatalf("bad time %q", value)
	return time.Time{}
}

// Specs robfig accepts, some of them surprising, with their zone.
func TestParseCronScheduleAccepted(t *testing.T) {
	for _, tc := range []struct{ spec, zone string }{
		{"5 * * * *", ""},
		{"? ? ? ? ?", ""},
		{"*/15 9-17 * * MON-FRI", ""},
		{"0 0 1,15 jan-JUN,Dec sun,Sat", ""},
		{"0 0 1,,15, * *", ""},
		{", * * * *", ""}, // allows no minute: never fires
		{"*-5 * * * *", ""},
		{"*-x-y/2 * * * *", ""},
		{"+5 007 * * *", ""},
		{"0 0 * * FR\u0130", ""}, // strings.ToLower folds İ to i
		{"0\u00a00 * *\u3000*", ""},
		{"\t0 0 * * *\n", ""},
		{"59 23 31 12 6", ""},
		{"0 0 30 2 *", ""}, // 30 February: never fires
		{"@yearly", ""}, {"@annually", ""}, {"@monthly", ""}, {"@weekly", ""},
		{"@daily", ""}, {"@midnight", ""}, {"@hourly", ""},
		{"@every 1h30m", ""}, {"@every -5s", ""}, {"@every 0", ""},
		{"CRON_TZ=UTC  5 * * * *", "UTC"},
		{"TZ=Asia/Tokyo @midnight", "Asia/Tokyo"},
		{"TZ=UTC   @daily  ", "UTC"},
		{"TZ=America/New_York @every 1h", "America/New_York"},
		{"TZ= * * * * *", "UTC"},   // time.LoadLocation("") is UTC
		{"TZ=Local 0 0 * * *", ""}, // time.Local: no zone of its own
		{"TZ=a=b\t* * * * * *", "a=b\t*"},
	} {
		s, err := api.ParseCronSchedule(tc.spec)
		if err != nil {
			t.Errorf("ParseCronSchedule(%q): %v", tc.spec, err)
			continue
		}
		if got := s.TimeZone(); got != tc.zone {
			t.Errorf("ParseCronSchedule(%q).TimeZone() = %q, want %q", tc.spec, got, tc.zone)
		}
	}
}

// The zone a caller cannot load is reported in robfig's words.
func TestCronLocationError(t *testing.T) {
	s, err := api.ParseCronSchedule("TZ=Mars/Olympus_Mons 0 0 * * *")
	if err != nil {
		t.Fatal(err)
	}
	cause := errors.New("unknown time zone Mars/Olympus_Mons")
	err = api.CronLocationError(s.TimeZone(), cause)
	if want := "provided bad location Mars/Olympus_Mons: unknown time zone Mars/Olympus_Mons"; err.Error() != want {
		t.Errorf("CronLocationError: %q, want %q", err, want)
	}
	if !errors.Is(err, api.ErrInvalidCronSchedule) || !errors.Is(err, cause) {
		t.Errorf("CronLocationError does not wrap ErrInvalidCronSchedule and its cause: %v", err)
	}
	// What the caller does with time.LoadLocation's own error.
	if _, lerr := time.LoadLocation("Mars/Olympus_Mons"); lerr != nil {
		err := api.CronLocationError("Mars/Olympus_Mons", lerr)
		if !strings.HasPrefix(err.Error(), "provided bad location Mars/Olympus_Mons: ") || !errors.Is(err, lerr) {
			t.Errorf("CronLocationError with LoadLocation's error: %v", err)
		}
		if errors.Is(lerr, fs.ErrNotExist) != errors.Is(err, fs.ErrNotExist) {
			t.Errorf("CronLocationError hides its cause: %v", err)
		}
	}
	if got, want := api.CronLocationError("X", nil).Error(), "provided bad location X: <nil>"; got != want {
		t.Errorf("CronLocationError(X, nil) = %q, want %q", got, want)
	}
}

// mustCron parses spec or fails the test.
func mustCron(t testing.TB, spec string) *api.CronSchedule {
	t.Helper()
	s, err := api.ParseCronSchedule(spec)
	if err != nil {
		t.Fatalf("ParseCronSchedule(%q): %v", spec, err)
	}
	return s
}

// robfig's TestNext and TestActivation (five fields, in UTC), and more:
// the next activation from a time.
func TestCronScheduleNext(t *testing.T) {
	for _, tc := range []struct{ from, spec, want string }{
		{"Mon Jul 9 14:45 2012", "0/15 * * * *", "Mon Jul 9 15:00 2012"},
		{"Mon Jul 9 14:59 2012", "0/15 * * * *", "Mon Jul 9 15:00 2012"},
		{"Mon Jul 9 14:59:59 2012", "0/15 * * * *", "Mon Jul 9 15:00 2012"},
		{"Mon Jul 9 15:00 2012", "0/15 * * * *", "Mon Jul 9 15:15 2012"}, // strictly after
		{"Mon Jul 9 15:45 2012", "20-35/15 * * * *", "Mon Jul 9 16:20 2012"},
		{"Mon Jul 9 23:46 2012", "*/15 * * * *", "Tue Jul 10 00:00 2012"},
		{"Mon Jul 9 23:45 2012", "20-35/15 * * * *", "Tue Jul 10 00:20 2012"},
		{"Mon Jul 9 23:35:51 2012", "20-35/15 1/2 * * *", "Tue Jul 10 01:20 2012"},
		{"Mon Jul 9 23:35:51 2012", "20-35/15 10-12 * * *", "Tue Jul 10 10:20 2012"},
		{"Mon Jul 9 23:35:51 2012", "20-35/15 1/2 */2 * *", "Wed Jul 11 01:20 2012"},
		{"Mon Jul 9 23:35:51 2012", "20-35/15 * 9-20 Jul *", "Tue Jul 10 00:20 2012"},
		{"Mon Jul 9 23:35 2012", "0 0 9 Apr-Oct ?", "Thu Aug 9 00:00 2012"},
		// */5 thins the star away: the 1st, 6th, ... or any Monday.
		{"Mon Jul 9 23:35 2012", "0 0 */5 Apr,Aug,Oct Mon", "Wed Aug 1 00:00 2012"},
		{"Mon Jul 9 23:35 2012", "0 0 */5 Oct Mon", "Mon Oct 1 00:00 2012"},
		{"Mon Jul 9 23:35 2012", "0 0 * Feb Mon", "Mon Feb 4 00:00 2013"},
		{"Mon Jul 9 23:35 2012", "0 0 * Feb Mon/2", "Fri Feb 1 00:00 2013"},
		{"Mon Dec 31 23:59:45 2012", "* * * * *", "Tue Jan 1 00:00 2013"},
		{"Mon Jul 9 23:35 2012", "0 0 29 Feb ?", "Mon Feb 29 00:00 2016"},
		{"Mon Jul 9 23:35 2012", "0 0 30 Feb ?", ""},
		{"Mon Jul 9 23:35 2012", "0 0 31 Apr ?", ""},
		{"Mon Jul 9 23:35 2012", ", * * * *", ""},
		{"Mon Jul 9 23:35 2012", "0 0 , * 1", "Mon Jul 16 00:00 2012"}, // no day of month, no star: Mondays
		{"Mon Jul 9 23:35 2012", "0 0 , * *", ""},
		{"Thu Mar 1 00:00 2096", "0 0 29 2 *", ""}, // 2100 is no leap year, 2104 too far
		{"Sat Jan 1 00:00 2094", "0 0 29 2 *", "Wed Feb 29 00:00 2096"},
		// TestActivation: the schedule fires at the second time.
		{"Mon Jul 9 15:04:59 2012", "5/15 * * * *", "Mon Jul 9 15:05 2012"},
		{"Sun Jul 15 15:04:59 2012", "0/15 * * Jul *", "Sun Jul 15 15:15 2012"},
		{"Sun Jul 15 08:29:59 2012", "30 08 ? Jul Sun", "Sun Jul 15 08:30 2012"},
		{"Sun Jul 15 08:29:59 2012", "30 08 15 Jul ?", "Sun Jul 15 08:30 2012"},
		{"Mon Jul 16 08:29:59 2012", "30 08 ? Jul Sun", "Sun Jul 22 08:30 2012"},
		{"Mon Jul 16 08:29:59 2012", "30 08 15 Jul ?", "Mon Jul 15 08:30 2013"},
		// The day rule: with no star, either day field; with one, both.
		{"Sat Jul 14 23:59:59 2012", "0 * 1,15 * Sun", "Sun Jul 15 00:00 2012"},
		{"Thu Jun 14 23:59:59 2012", "0 * 1,15 * Sun", "Fri Jun 15 00:00 2012"},
		{"Tue Jul 31 23:59:59 2012", "0 * 1,15 * Sun", "Wed Aug 1 00:00 2012"},
		{"Mon Jul 16 00:00 2012", "0 0 1,15 * Sun", "Sun Jul 22 00:00 2012"},
		{"Sat Jul 14 23:59:59 2012", "0 * */10 * Sun", "Sun Jul 15 00:00 2012"},
		{"Sat Jul 14 23:59:59 2012", "0 * * * Mon", "Mon Jul 16 00:00 2012"},
		{"Sun Jul 8 23:59:59 2012", "0 * 1,15 * *", "Sun Jul 15 00:00 2012"},
		{"Sat Jul 14 23:59:59 2012", "0 * */2 * Sun", "Sun Jul 15 00:00 2012"},
		{"Mon Jul 9 00:00 2012", "0 0 */1 * Sun", "Sun Jul 15 00:00 2012"}, // */1 keeps the star
		{"Mon Jul 9 00:00 2012", "0 0 1-31 * Sun", "Tue Jul 10 00:00 2012"},
		{"Mon Jul 9 00:00 2012", "0 0 13 * 5", "Fri Jul 13 00:00 2012"},
		{"Mon Jul 9 00:00 2012", "0 0 13 * ?", "Fri Jul 13 00:00 2012"},
		{"Mon Jul 9 00:00 2012", "0 0 13 */1 5", "Fri Jul 13 00:00 2012"},
		{"Sat Jul 14 00:00 2012", "0 0 13 ?,1 5", "Fri Jul 20 00:00 2012"}, // a star in the month: no matter
		{"Sat Jul 14 00:00 2012", "0 0 13,* * 5", "Fri Jul 20 00:00 2012"}, // a star in the list: all days, and Fridays
		// Descriptors.
		{"Mon Jul 9 14:59:59 2012", "@hourly", "Mon Jul 9 15:00 2012"},
		{"Mon Jul 9 15:00 2012", "@hourly", "Mon Jul 9 16:00 2012"},
		{"Mon Jul 9 15:00 2012", "@daily", "Tue Jul 10 00:00 2012"},
		{"Mon Jul 9 15:00 2012", "@midnight", "Tue Jul 10 00:00 2012"},
		{"Mon Jul 9 15:00 2012", "@weekly", "Sun Jul 15 00:00 2012"},
		{"Mon Jul 9 15:00 2012", "@monthly", "Wed Aug 1 00:00 2012"},
		{"Mon Jul 9 15:00 2012", "@yearly", "Tue Jan 1 00:00 2013"},
		{"Mon Jul 9 15:00 2012", "@annually", "Tue Jan 1 00:00 2013"},
		// robfig's TestNextWithTz: t's own fixed offset is the zone.
		{"2016-01-03T13:09:03+0530", "14 14 * * *", "2016-01-03T14:14:00+0530"},
		{"2016-01-03T04:09:03+0530", "14 14 * * ?", "2016-01-03T14:14:00+0530"},
		{"2016-01-03T14:09:03+0530", "14 14 * * *", "2016-01-03T14:14:00+0530"},
		{"2016-01-03T14:00:00+0530", "14 14 * * ?", "2016-01-03T14:14:00+0530"},
	} {
		got := mustCron(t, tc.spec).Next(cronAt(t, tc.from), nil)
		if want := cronAt(t, tc.want); !got.Equal(want) {
			t.Errorf("%q.Next(%s) = %v, want %v", tc.spec, tc.from, got, want)
		}
	}
}

// Next reads the calendar of loc and answers in t's location; a nil loc
// is t's own.
func TestCronScheduleNextLocation(t *testing.T) {
	s := mustCron(t, "0 9 * * *")
	kolkata := time.FixedZone("IST", 5*3600+1800)
	from := time.Date(2026, 3, 1, 4, 0, 0, 0, time.UTC) // 09:30 in Kolkata
	got := s.Next(from, kolkata)
	if want := time.Date(2026, 3, 2, 9, 0, 0, 0, kolkata); !got.Equal(want) || got.Location() != time.UTC {
		t.Errorf("Next in Kolkata = %v, want %v in UTC", got, want)
	}
	if got, want := s.Next(from, nil), time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC); !got.Equal(want) {
		t.Errorf("Next in UTC = %v, want %v", got, want)
	}
	if got, want := s.Next(from.In(kolkata), nil), time.Date(2026, 3, 2, 9, 0, 0, 0, kolkata); !got.Equal(want) || got.Location() != kolkata {
		t.Errorf("Next from a Kolkata time = %v, want %v", got, want)
	}
	var none *api.CronSchedule
	if !none.Next(from, nil).IsZero() || none.TimeZone() != "" {
		t.Error("a nil schedule has a next time or a zone")
	}
	// Times so far out that time arithmetic saturates.
	for _, far := range []time.Time{time.Unix(1<<62, 0), time.Unix(-1<<62, 0), time.Unix(1<<63-1, 999999999)} {
		if got := mustCron(t, "0 0 * * *").Next(far, nil); !got.IsZero() {
			t.Errorf("Next(%v) = %v, want the zero time", far, got)
		}
	}
}

// Daylight saving in America/New_York, the cases of robfig's spec_test.go:
// a skipped hour does not fire, a repeated one fires twice. The zone is
// the schedule's TZ= prefix, loaded by the test, or t's own.
func TestCronScheduleNextDST(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skipf("America/New_York: %v", err)
	}
	inNY := func(value string) time.Time { return cronAt(t, value).In(ny) }
	for _, tc := range []struct {
		from, spec, want string
		fromNY           bool // from is a time in America/New_York, the spec has no prefix
	}{
		// 2am EST -> 3am EDT.
		{from: "2012-03-11T00:00:00-0500", spec: "TZ=America/New_York 30 2 11 Mar ?", want: "2013-03-11T02:30:00-0400"},
		{from: "2012-03-11T00:00:00-0500", spec: "TZ=America/New_York 0 * * * ?", want: "2012-03-11T01:00:00-0500"},
		{from: "2012-03-11T01:00:00-0500", spec: "TZ=America/New_York 0 * * * ?", want: "2012-03-11T03:00:00-0400"},
		{from: "2012-03-11T03:00:00-0400", spec: "TZ=America/New_York 0 * * * ?", want: "2012-03-11T04:00:00-0400"},
		{from: "2012-03-11T04:00:00-0400", spec: "TZ=America/New_York 0 * * * ?", want: "2012-03-11T05:00:00-0400"},
		{from: "2012-03-11T01:00:00-0500", spec: "CRON_TZ=America/New_York 0 * * * ?", want: "2012-03-11T03:00:00-0400"},
		{from: "2012-03-11T00:00:00-0500", spec: "TZ=America/New_York 0 1 * * ?", want: "2012-03-11T01:00:00-0500"},
		{from: "2012-03-11T01:00:00-0500", spec: "TZ=America/New_York 0 1 * * ?", want: "2012-03-12T01:00:00-0400"},
		{from: "2012-03-11T00:00:00-0500", spec: "TZ=America/New_York 0 2 * * ?", want: "2012-03-12T02:00:00-0400"},
		{from: "2012-03-11T01:59:00-0500", spec: "TZ=America/New_York * * * * *", want: "2012-03-11T03:00:00-0400"},
		// 2am EDT -> 1am EST.
		{from: "2012-11-04T00:00:00-0400", spec: "TZ=America/New_York 30 2 04 Nov ?", want: "2012-11-04T02:30:00-0500"},
		{from: "2012-11-04T01:45:00-0400", spec: "TZ=America/New_York 30 1 04 Nov ?", want: "2012-11-04T01:30:00-0500"},
		{from: "2012-11-04T00:00:00-0400", spec: "TZ=America/New_York 0 * * * ?", want: "2012-11-04T01:00:00-0400"},
		{from: "2012-11-04T01:00:00-0400", spec: "TZ=America/New_York 0 * * * ?", want: "2012-11-04T01:00:00-0500"},
		{from: "2012-11-04T01:00:00-0500", spec: "TZ=America/New_York 0 * * * ?", want: "2012-11-04T02:00:00-0500"},
		{from: "2012-11-04T00:00:00-0400", spec: "TZ=America/New_York 0 1 * * ?", want: "2012-11-04T01:00:00-0400"},
		{from: "2012-11-04T01:00:00-0400", spec: "TZ=America/New_York 0 1 * * ?", want: "2012-11-04T01:00:00-0500"},
		{from: "2012-11-04T01:00:00-0500", spec: "TZ=America/New_York 0 1 * * ?", want: "2012-11-05T01:00:00-0500"},
		{from: "2012-11-04T00:00:00-0400", spec: "TZ=America/New_York 0 2 * * ?", want: "2012-11-04T02:00:00-0500"},
		{from: "2012-11-04T02:00:00-0500", spec: "TZ=America/New_York 0 2 * * ?", want: "2012-11-05T02:00:00-0500"},
		{from: "2012-11-04T00:00:00-0400", spec: "TZ=America/New_York 0 3 * * ?", want: "2012-11-04T03:00:00-0500"},
		{from: "2012-11-04T03:00:00-0500", spec: "TZ=America/New_York 0 3 * * ?", want: "2012-11-05T03:00:00-0500"},
		// The same, the zone being t's.
		{from: "2012-11-04T00:00:00-0400", spec: "0 * * * ?", want: "2012-11-04T01:00:00-0400", fromNY: true},
		{from: "2012-11-04T01:00:00-0400", spec: "0 * * * ?", want: "2012-11-04T01:00:00-0500", fromNY: true},
		{from: "2012-11-04T01:00:00-0500", spec: "0 * * * ?", want: "2012-11-04T02:00:00-0500", fromNY: true},
		{from: "2012-11-04T01:00:00-0400", spec: "0 1 * * ?", want: "2012-11-04T01:00:00-0500", fromNY: true},
		{from: "2012-11-04T01:00:00-0500", spec: "0 1 * * ?", want: "2012-11-05T01:00:00-0500", fromNY: true},
		{from: "2012-11-04T00:00:00-0400", spec: "0 3 3 * ?", want: "2012-12-03T03:00:00-0500", fromNY: true},
		{from: "2012-11-04T00:00:00-0400", spec: "TZ=Local 0 3 3 * ?", want: "2012-12-03T03:00:00-0500", fromNY: true},
	} {
		s := mustCron(t, tc.spec)
		from := cronAt(t, tc.from)
		var loc *time.Location
		if tc.fromNY {
			from = inNY(tc.from)
		}
		if z := s.TimeZone(); z != "" {
			if loc, err = time.LoadLocation(z); err != nil {
				t.Fatal(api.CronLocationError(z, err))
			}
		}
		got := s.Next(from, loc)
		if want := cronAt(t, tc.want); !got.Equal(want) || got.Location() != from.Location() {
			t.Errorf("%q.Next(%s) = %v, want %v (in %v)", tc.spec, tc.from, got, want, from.Location())
		}
	}

	// Samoa skipped 30 December 2011: robfig's day search never ends, Next
	// gives up.
	if apia, err := time.LoadLocation("Pacific/Apia"); err == nil {
		from := time.Date(2011, 12, 1, 0, 0, 0, 0, apia)
		if got := mustCron(t, "0 0 1 * *").Next(from, nil); !got.IsZero() {
			t.Errorf("Apia: Next(%v) = %v, want the zero time", from, got)
		}
		if got, want := mustCron(t, "0 0 * * *").Next(from.AddDate(0, 0, 28), nil), time.Date(2011, 12, 31, 0, 0, 0, 0, apia); !got.Equal(want) {
			t.Errorf("Apia: daily Next = %v, want %v", got, want)
		}
	}

	// robfig's issue 157: São Paulo's 2018 change moved midnight to 01:00.
	if sp, err := time.LoadLocation("America/Sao_Paulo"); err == nil {
		for _, tc := range []struct{ from, spec, want string }{
			{"2018-10-17T05:00:00-0400", "0 9 10 * ?", "2018-11-10T06:00:00-0500"},
			{"2018-02-14T05:00:00-0500", "0 9 22 * ?", "2018-02-22T07:00:00-0500"},
			// 4 November has no midnight: robfig skips the day.
			{"2018-11-03T12:00:00-0300", "0 0 * * *", "2018-11-05T00:00:00-0200"},
		} {
			got := mustCron(t, tc.spec).Next(cronAt(t, tc.from), sp)
			if want := cronAt(t, tc.want); !got.Equal(want) {
				t.Errorf("São Paulo %q.Next(%s) = %v, want %v", tc.spec, tc.from, got, want)
			}
		}
	}
}

// @every: the delay in whole seconds, at least one; Next keeps t's
// location and drops its nanoseconds, whatever loc.
func TestCronScheduleEvery(t *testing.T) {
	from := time.Date(2012, 7, 9, 14, 45, 0, 5_000_000, time.UTC)
	for _, tc := range []struct {
		spec string
		want time.Duration // from from's whole second
	}{
		{"@every 15m", 15 * time.Minute},
		{"@every 1h30m", 90 * time.Minute},
		{"@every 1.5s", time.Second},
		{"@every 2.999s", 2 * time.Second},
		{"@every 1h1ms", time.Hour},
		{"@every 1ns", time.Second},
		{"@every 0s", time.Second},
		{"@every -24h", time.Second},
		{"TZ=Asia/Tokyo @every 10s", 10 * time.Second},
		{"@every 2562047h", 2562047 * time.Hour},
	} {
		s := mustCron(t, tc.spec)
		want := from.Truncate(time.Second).Add(tc.want)
		for _, loc := range []*time.Location{nil, time.FixedZone("X", 3600)} {
			if got := s.Next(from, loc); !got.Equal(want) || got.Location() != time.UTC {
				t.Errorf("%q.Next(%v, %v) = %v, want %v", tc.spec, from, loc, got, want)
			}
		}
	}
}

// Parsing a usual schedule allocates the schedule alone.
func TestParseCronScheduleAllocs(t *testing.T) {
	for _, spec := range []string{"*/15 9-17 * * MON-FRI", "TZ=Europe/Berlin 0 0 1,15 jan-jun *", "@daily", "@every 90s"} {
		if n := testing.AllocsPerRun(100, func() { _, _ = api.ParseCronSchedule(spec) }); n > 1 {
			t.Errorf("ParseCronSchedule(%q): %v allocations, want 1", spec, n)
		}
	}
}

func BenchmarkParseCronSchedule(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := api.ParseCronSchedule("*/15 9-17 * * MON-FRI"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCronScheduleNext(b *testing.B) {
	s := mustCron(b, "30 2 1,15 * *")
	from := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	for b.Loop() {
		from = s.Next(from, nil)
	}
}

// cronModel is a schedule drawn for the properties, with the values each
// field allows computed apart from the parser.
type cronModel struct {
	spec                          string
	minute, hour, dom, month, dow uint64
	domStar, dowStar              bool
}

func (m cronModel) matches(u time.Time) bool {
	if m.minute&(1<<u.Minute()) == 0 || m.hour&(1<<u.Hour()) == 0 || m.month&(1<<int(u.Month())) == 0 {
		return false
	}
	dom, dow := m.dom&(1<<u.Day()) != 0, m.dow&(1<<int(u.Weekday())) != 0
	if m.domStar || m.dowStar {
		return dom && dow
	}
	return dom || dow
}

var (
	cronMonthNames = []string{"", "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}
	cronDowNames   = []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}
)

// drawCronField draws one field over lo..hi: a list of *, ?, values,
// ranges and steps, values sometimes named in any case.
func drawCronField(t *rapid.T, label string, lo, hi int, names []string) (text string, bits uint64, star bool) {
	value := func(v int) string {
		if names != nil && rapid.Bool().Draw(t, label+"-named") {
			n := []byte(names[v])
			for i := range n {
				if rapid.Bool().Draw(t, label+"-upper") {
					n[i] -= 'a' - 'A'
				}
			}
			return string(n)
		}
		return strconv.Itoa(v)
	}
	set := func(a, b, step int) {
		for v := a; v <= b; v += step {
			bits |= 1 << v
		}
	}
	var items []string
	for range rapid.IntRange(1, 3).Draw(t, label+"-items") {
		a := rapid.IntRange(lo, hi).Draw(t, label+"-a")
		b := rapid.IntRange(a, hi).Draw(t, label+"-b")
		step := rapid.IntRange(1, hi-lo+2).Draw(t, label+"-step")
		switch rapid.IntRange(0, 5).Draw(t, label+"-kind") {
		case 0:
			items = append(items, rapid.SampledFrom([]string{"*", "?"}).Draw(t, label+"-star"))
			set(lo, hi, 1)
			star = true
		case 1:
			items = append(items, "*/"+strconv.Itoa(step))
			set(lo, hi, step)
			star = star || step == 1
		case 2:
			items = append(items, value(a))
			set(a, a, 1)
		case 3:
			items = append(items, value(a)+"-"+value(b))
			set(a, b, 1)
		case 4:
			items = append(items, value(a)+"-"+value(b)+"/"+strconv.Itoa(step))
			set(a, b, step)
		case 5:
			items = append(items, value(a)+"/"+strconv.Itoa(step))
			set(a, hi, step)
		}
	}
	return strings.Join(items, ","), bits, star
}

func drawCronModel(t *rapid.T) cronModel {
	var m cronModel
	var fields [5]string
	fields[0], m.minute, _ = drawCronField(t, "minute", 0, 59, nil)
	fields[1], m.hour, _ = drawCronField(t, "hour", 0, 23, nil)
	fields[2], m.dom, m.domStar = drawCronField(t, "dom", 1, 31, nil)
	fields[3], m.month, _ = drawCronField(t, "month", 1, 12, cronMonthNames)
	fields[4], m.dow, m.dowStar = drawCronField(t, "dow", 0, 6, cronDowNames)
	m.spec = strings.Join(fields[:], " ")
	return m
}

// Next is the first minute after t that the schedule's fields allow: it
// is after t, on a whole minute, allowed, and no minute between is —
// checked minute by minute over the next four days (in UTC, and in a fixed
// zone given as loc).
func TestCronScheduleNextProperties(t *testing.T) {
	const window = 4 * 24 * time.Hour
	rapid.Check(t, func(t *rapid.T) {
		m := drawCronModel(t)
		s, err := api.ParseCronSchedule(m.spec)
		if err != nil {
			t.Fatalf("ParseCronSchedule(%q): %v", m.spec, err)
		}
		zone := time.FixedZone("Z", 60*rapid.IntRange(-12*60, 14*60).Draw(t, "offset-minutes"))
		loc := rapid.SampledFrom([]*time.Location{nil, zone}).Draw(t, "loc")
		from := time.Unix(rapid.Int64Range(946684800, 2208988800).Draw(t, "unix"), rapid.Int64Range(0, 999999999).Draw(t, "nanos")).UTC()
		got := s.Next(from, loc)
		cal := time.UTC
		if loc != nil {
			cal = loc
		}
		var want time.Time
		for u := from.In(cal).Truncate(time.Minute).Add(time.Minute); u.Sub(from) <= window; u = u.Add(time.Minute) {
			if m.matches(u) {
				want = u
				break
			}
		}
		switch {
		case !want.IsZero():
			if !got.Equal(want) {
				t.Fatalf("%q.Next(%v, %v) = %v, want %v", m.spec, from, loc, got, want)
			}
		case got.IsZero():
		case got.Sub(from) <= window || !m.matches(got.In(cal)) || got.In(cal).Second() != 0 || got.Nanosecond() != 0:
			t.Fatalf("%q.Next(%v, %v) = %v: not a later allowed minute", m.spec, from, loc, got)
		}
		if !got.IsZero() && (!got.After(from) || got.Location() != from.Location()) {
			t.Fatalf("%q.Next(%v, %v) = %v: not after t, or not in t's location", m.spec, from, loc, got)
		}
	})
}

// FuzzParseCronSchedule feeds arbitrary specs: parsing never panics, a
// refusal is a CronScheduleError with a message, and an accepted schedule
// answers Next without panicking, with the zero time or a later time.
func FuzzParseCronSchedule(f *testing.F) {
	for _, seed := range []string{
		"", "* * * * *", "*/15 9-17 * * MON-FRI", "0 0 1,15 jan-JUN,Dec sun,Sat", "59-2 * * * *",
		"*/0 * * * *", "*/-1 * * * *", ", * * * *", "*-x * * * *", "0 0 30 2 *", "1-2-3/4/5 * * * *",
		"@every 1h30m", "@every -1s", "@weekly", "@hourly", "@nope", "TZ=UTC", "TZ= * * * * *",
		"CRON_TZ=America/New_York 0 2 * * ?", "TZ=UTC\t* * * * *", "99999999999999999999 * * * *",
		"0 0 * * FR\u0130", "0\u00a00 * *\u3000*", "\xff\xfe * * * *",
	} {
		f.Add(seed)
	}
	from := time.Date(2026, 5, 17, 13, 45, 30, 123, time.UTC)
	zone := time.FixedZone("Z", -(9*3600 + 30*60))
	f.Fuzz(func(t *testing.T, spec string) {
		s, err := api.ParseCronSchedule(spec)
		if err != nil {
			var ce *api.CronScheduleError
			if s != nil || !errors.As(err, &ce) || ce.Message == "" || !errors.Is(err, api.ErrInvalidCronSchedule) {
				t.Fatalf("ParseCronSchedule(%q) = %v, %v (%T)", spec, s, err, err)
			}
			return
		}
		for _, loc := range []*time.Location{nil, zone} {
			if next := s.Next(from, loc); !next.IsZero() && !next.After(from) {
				t.Fatalf("%q.Next(%v, %v) = %v, not after", spec, from, loc, next)
			}
		}
	})
}

// A CronJob's schedule "30 2 * * MON-FRI" with spec.timeZone
// "Europe/Berlin" (here a fixed +01:00, winter time): weekdays at 02:30,
// so after Friday's run the next is Monday's. A schedule the API server
// refuses carries robfig/cron's own message.
func ExampleParseCronSchedule() {
	s, err := api.ParseCronSchedule("30 2 * * MON-FRI")
	if err != nil {
		fmt.Println(err)
		return
	}
	berlin := time.FixedZone("CET", 3600)
	t := time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC) // a Thursday
	for range 3 {
		t = s.Next(t, berlin)
		fmt.Println(t.In(berlin).Format("Mon 2006-01-02 15:04 MST"))
	}

	_, err = api.ParseCronSchedule("0 9 * * 7")
	fmt.Println(err)
	_, err = api.ParseCronSchedule("0 9 * *")
	fmt.Println(err)
	// Output:
	// Fri 2026-01-16 02:30 CET
	// Mon 2026-01-19 02:30 CET
	// Tue 2026-01-20 02:30 CET
	// end of range (7) above maximum (6): 7
	// expected exactly 5 fields, found 4: [0 9 * *]
}
