package probe

import (
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/podsem/podsem/api"
)

// GRPCTarget is the address and service name the kubelet checks for a grpc
// probe: the pod IP (a grpc action has no host field) and the action's
// port, and the action's service ("" when unset, meaning the server as a
// whole). A nil action is an error wrapping api.ErrInvalidInput.
func GRPCTarget(podIP string, action *api.GRPCAction) (addr, service string, err error) {
	if action == nil {
		return "", "", fmt.Errorf("%w: grpc action: nil", errInvalidInput)
	}
	if action.Port < 1 || action.Port > 65535 {
		return "", "", &PortError{Port: api.FromInt32(action.Port), Number: int(action.Port)}
	}
	if action.Service != nil {
		service = *action.Service
	}
	return net.JoinHostPort(podIP, strconv.Itoa(int(action.Port))), service, nil
}

// GRPCAnswer is what a grpc probe's client observed: whether it could
// connect, how the grpc.health.v1.Health/Check call ended, and the serving
// status it returned. The caller fills it from its gRPC client.
type GRPCAnswer struct {
	// DialErr is the connection error, nil when connected; DialTimedOut
	// reports that the probe's timeout ran out while connecting.
	DialErr      error
	DialTimedOut bool
	// CheckErr is the Check call's error, nil when it answered. CheckCode
	// is the gRPC status code's name when the error carries one
	// ("Unimplemented", "DeadlineExceeded", ...), and CheckMessage the
	// status message.
	CheckErr     error
	CheckCode    string
	CheckMessage string
	// Status is the response's serving status name: "SERVING",
	// "NOT_SERVING", "UNKNOWN" or "SERVICE_UNKNOWN".
	Status string
}

// GRPCOutcome interprets a grpc probe (pkg/probe/grpc): every problem is a
// failure, as grpc_health_probe reports it, and only a SERVING answer is
// success ("service healthy"). addr and timeout appear in the output.
func GRPCOutcome(addr string, timeout time.Duration, a GRPCAnswer) (Outcome, string) {
	switch {
	case a.DialErr != nil && a.DialTimedOut:
		return OutcomeFailure, fmt.Sprintf("timeout: failed to connect service %q within %v: %+v", addr, timeout, a.DialErr)
	case a.DialErr != nil:
		return OutcomeFailure, fmt.Sprintf("error: failed to connect service at %q: %+v", addr, a.DialErr)
	case a.CheckErr != nil && a.CheckCode == "Unimplemented":
		return OutcomeFailure, "error: this server does not implement the grpc health protocol (grpc.health.v1.Health): " + a.CheckMessage
	case a.CheckErr != nil && a.CheckCode == "DeadlineExceeded":
		return OutcomeFailure, fmt.Sprintf("timeout: health rpc did not complete within %v", timeout)
	case a.CheckErr != nil:
		return OutcomeFailure, fmt.Sprintf("error: health rpc probe failed: %+v", a.CheckErr)
	case a.Status != "SERVING":
		return OutcomeFailure, fmt.Sprintf("service unhealthy (responded with %q)", a.Status)
	}
	return OutcomeSuccess, "service healthy"
}
