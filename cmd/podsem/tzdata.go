package main

// The IANA time zone database, embedded, so that a CronJob's
// spec.timeZone resolves on a machine without one (time.LoadLocation
// falls back to it).
import _ "time/tzdata"
