package probe

import (
	"fmt"
	"net"
	"strconv"

	"github.com/podsem/podsem/api"
)

// TCPAddress is the address the kubelet dials for a tcpSocket probe
// (pkg/kubelet/prober runProbe): the action's host, else the pod IP, and
// the port resolved by ResolvePort, joined as host:port. A nil action is an
// error wrapping api.ErrInvalidInput; a nil container declares no ports.
func TCPAddress(podIP string, container *api.Container, action *api.TCPSocketAction) (string, error) {
	if action == nil {
		return "", fmt.Errorf("%w: tcpSocket action: nil", errInvalidInput)
	}
	port, err := ResolvePort(action.Port, container)
	if err != nil {
		return "", err
	}
	host := action.Host
	if host == "" {
		host = podIP
	}
	return net.JoinHostPort(host, strconv.Itoa(port)), nil
}

// TCPOutcome interprets a tcpSocket probe's dial (pkg/probe/tcp
// DoTCPProbe): a connection that opened (dialErr nil) is success with no
// output, and is closed at once; a failed dial, a timeout included, is
// failure with the dial error's text as output.
func TCPOutcome(dialErr error) (Outcome, string) {
	if dialErr != nil {
		return OutcomeFailure, dialErr.Error()
	}
	return OutcomeSuccess, ""
}
