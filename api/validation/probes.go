package validation

import (
	"strconv"
	"strings"

	"github.com/podsem/podsem/api"
)

// probeKind selects the per-kind probe rules.
type probeKind uint8

const (
	probeLiveness probeKind = iota
	probeReadiness
	probeStartup
)

// validateProbe checks one probe as core validation does: exactly one
// handler, non-negative timings, a positive probe-level grace period, a
// successThreshold of 1 for liveness and startup probes, and no grace
// period on readiness probes (they never kill the container).
func validateProbe(pr *api.Probe, kind probeKind, grace *int64, p api.Path) api.FieldErrors {
	if pr == nil {
		return nil
	}
	h := handler{exec: pr.Exec, httpGet: pr.HTTPGet, tcpSocket: pr.TCPSocket, grpc: pr.GRPC}
	errs := validateHandler(h, grace, p)
	for _, f := range []struct {
		name string
		v    int32
	}{
		{"initialDelaySeconds", pr.InitialDelaySeconds},
		{"timeoutSeconds", pr.TimeoutSeconds},
		{"periodSeconds", pr.PeriodSeconds},
		{"successThreshold", pr.SuccessThreshold},
		{"failureThreshold", pr.FailureThreshold},
	} {
		if f.v < 0 {
			errs = append(errs, api.Invalid(p.Child(f.name), int64(f.v), "must be greater than or equal to 0"))
		}
	}
	if g := pr.TerminationGracePeriodSeconds; g != nil && *g <= 0 {
		errs = append(errs, api.Invalid(p.Child("terminationGracePeriodSeconds"), *g, "must be greater than 0"))
	}
	switch kind {
	case probeLiveness, probeStartup:
		if pr.SuccessThreshold != 1 {
			errs = append(errs, api.Invalid(p.Child("successThreshold"), pr.SuccessThreshold, "must be 1"))
		}
	case probeReadiness:
		if pr.TerminationGracePeriodSeconds != nil {
			errs = append(errs, api.Invalid(p.Child("terminationGracePeriodSeconds"), pr.TerminationGracePeriodSeconds, "must not be set for readinessProbes"))
		}
	}
	return errs
}

// validateLifecycle checks the postStart and preStop hooks and the stop
// signal of a container.
func validateLifecycle(lc *api.Lifecycle, grace *int64, os *api.PodOS, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	if h := lc.PostStart; h != nil {
		errs = append(errs, validateHandler(handler{exec: h.Exec, httpGet: h.HTTPGet, tcpSocket: h.TCPSocket, sleep: h.Sleep}, grace, p.Child("postStart"))...)
	}
	if h := lc.PreStop; h != nil {
		errs = append(errs, validateHandler(handler{exec: h.Exec, httpGet: h.HTTPGet, tcpSocket: h.TCPSocket, sleep: h.Sleep}, grace, p.Child("preStop"))...)
	}
	if lc.StopSignal != nil {
		errs = append(errs, validateStopSignal(*lc.StopSignal, os, p.Child("stopSignal"))...)
	}
	return errs
}

// validateStopSignal checks a container's stop signal against the pod's
// OS: the OS must be named, Windows knows only SIGKILL and SIGTERM, Linux
// the standard and real-time signals. (The ContainerStopSignals gate is
// off by default in v1.36.3, so a new pod's stop signals are dropped
// before validation; an update still validates them.)
func validateStopSignal(sig string, os *api.PodOS, p api.Path) api.FieldErrors {
	switch {
	case os == nil:
		return api.FieldErrors{api.Forbidden(p, "may not be set for containers with empty `spec.os.name`")}
	case os.Name == api.Windows:
		if sig != "SIGKILL" && sig != "SIGTERM" {
			return api.FieldErrors{api.NotSupported(p, sig, []string{"SIGKILL", "SIGTERM"})}
		}
	case os.Name == api.Linux:
		if !linuxStopSignal(sig) {
			return api.FieldErrors{api.NotSupported(p, sig, linuxStopSignals())}
		}
	}
	return nil
}

// linuxStopSignals lists the accepted Linux stop signals, for messages.
func linuxStopSignals() []string {
	out := []string{"SIGABRT", "SIGALRM", "SIGBUS", "SIGCHLD", "SIGCLD", "SIGCONT", "SIGFPE", "SIGHUP",
		"SIGILL", "SIGINT", "SIGIO", "SIGIOT", "SIGKILL", "SIGPIPE", "SIGPOLL", "SIGPROF",
		"SIGPWR", "SIGQUIT", "SIGSEGV", "SIGSTKFLT", "SIGSTOP", "SIGSYS", "SIGTERM", "SIGTRAP",
		"SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGUSR1", "SIGUSR2", "SIGVTALRM", "SIGWINCH",
		"SIGXCPU", "SIGXFSZ", "SIGRTMIN"}
	for i := 1; i <= 15; i++ {
		out = append(out, "SIGRTMIN+"+strconv.Itoa(i))
	}
	for i := 14; i >= 1; i-- {
		out = append(out, "SIGRTMAX-"+strconv.Itoa(i))
	}
	return append(out, "SIGRTMAX")
}

// linuxStopSignal reports whether sig is one of the signal names the API
// accepts as a Linux container's stop signal.
func linuxStopSignal(sig string) bool {
	switch sig {
	case "SIGABRT", "SIGALRM", "SIGBUS", "SIGCHLD", "SIGCLD", "SIGCONT", "SIGFPE", "SIGHUP",
		"SIGILL", "SIGINT", "SIGIO", "SIGIOT", "SIGKILL", "SIGPIPE", "SIGPOLL", "SIGPROF",
		"SIGPWR", "SIGQUIT", "SIGSEGV", "SIGSTKFLT", "SIGSTOP", "SIGSYS", "SIGTERM", "SIGTRAP",
		"SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGUSR1", "SIGUSR2", "SIGVTALRM", "SIGWINCH",
		"SIGXCPU", "SIGXFSZ", "SIGRTMIN", "SIGRTMAX":
		return true
	}
	// SIGRTMIN+1 .. SIGRTMIN+15 and SIGRTMAX-14 .. SIGRTMAX-1.
	for _, pre := range []string{"SIGRTMIN+", "SIGRTMAX-"} {
		if n, ok := strings.CutPrefix(sig, pre); ok {
			v, err := strconv.Atoi(n)
			lim := 15
			if pre == "SIGRTMAX-" {
				lim = 14
			}
			return err == nil && v >= 1 && v <= lim && strconv.Itoa(v) == n
		}
	}
	return false
}

// handler gathers the mechanisms probes and hooks share.
type handler struct {
	exec      *api.ExecAction
	httpGet   *api.HTTPGetAction
	tcpSocket *api.TCPSocketAction
	grpc      *api.GRPCAction
	sleep     *api.SleepAction
}

// validateHandler requires exactly one mechanism and checks it; a second
// one is reported as Forbidden at its own field.
func validateHandler(h handler, grace *int64, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	n := 0
	more := func(name string) bool {
		if n > 0 {
			errs = append(errs, api.Forbidden(p.Child(name), "may not specify more than 1 handler type"))
			return false
		}
		n++
		return true
	}
	if h.exec != nil && more("exec") && len(h.exec.Command) == 0 {
		errs = append(errs, api.Required(p.Child("exec").Child("command"), ""))
	}
	if h.httpGet != nil && more("httpGet") {
		errs = append(errs, validateHTTPGet(h.httpGet, p.Child("httpGet"))...)
	}
	if h.tcpSocket != nil && more("tcpSocket") {
		errs = append(errs, validatePortNumOrName(h.tcpSocket.Port, p.Child("tcpSocket").Child("port"))...)
	}
	if h.grpc != nil && more("grpc") {
		errs = append(errs, validatePortNumOrName(api.FromInt32(h.grpc.Port), p.Child("grpc").Child("port"))...)
	}
	if h.sleep != nil && more("sleep") {
		// A zero sleep is allowed (PodLifecycleSleepActionAllowZero, on by
		// default); the sleep may not outlast the pod's grace period.
		if grace != nil && (h.sleep.Seconds < 0 || h.sleep.Seconds > *grace) {
			errs = append(errs, api.Invalid(p.Child("sleep"), h.sleep.Seconds,
				"must be non-negative and less than terminationGracePeriodSeconds ("+strconv.FormatInt(*grace, 10)+")"))
		}
	}
	if n == 0 {
		errs = append(errs, api.Required(p, "must specify a handler type"))
	}
	return errs
}

// validateHTTPGet checks an httpGet action: a path, a valid port, an HTTP
// or HTTPS scheme and valid header names.
func validateHTTPGet(h *api.HTTPGetAction, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	if h.Path == "" {
		errs = append(errs, api.Required(p.Child("path"), ""))
	}
	errs = append(errs, validatePortNumOrName(h.Port, p.Child("port"))...)
	if h.Scheme != api.URISchemeHTTP && h.Scheme != api.URISchemeHTTPS {
		errs = append(errs, api.NotSupported(p.Child("scheme"), string(h.Scheme), []string{"HTTP", "HTTPS"}))
	}
	for _, hd := range h.HTTPHeaders {
		if !isHTTPHeaderName(hd.Name) {
			errs = append(errs, api.Invalid(p.Child("httpHeaders"), hd.Name, "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')"))
		}
	}
	return errs
}

func isHTTPHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// validatePortNumOrName checks a port given as a number (1-65535) or an
// IANA service name.
func validatePortNumOrName(port api.IntOrString, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	if port.IsString {
		for _, msg := range isValidPortName(port.StrVal) {
			errs = append(errs, api.Invalid(p, port.StrVal, msg))
		}
		return errs
	}
	if !validPortNum(int64(port.IntVal)) {
		errs = append(errs, api.Invalid(p, int64(port.IntVal), portRangeMsg))
	}
	return errs
}
