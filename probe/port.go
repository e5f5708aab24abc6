package probe

import (
	"fmt"
	"strconv"

	"github.com/podsem/podsem/api"
)

// PortError is why a probe's port did not resolve. Its text is the
// kubelet's own (e.g. `invalid port number: 0`, or strconv's
// `strconv.Atoi: parsing "web": invalid syntax` for a name that is neither
// a declared port nor a number); it matches api.ErrInvalidInput with errors.Is.
type PortError struct {
	// Port is the port as the probe wrote it.
	Port api.IntOrString
	// Err is the underlying error (a *strconv.NumError for an unparsable
	// name), or nil when the number is out of range.
	Err error
	// Number is the resolved number that was out of range.
	Number int
}

// Error returns the kubelet's text for the failure; a nil *PortError's is
// "".
func (e *PortError) Error() string {
	if e == nil {
		return ""
	}
	if e.Err != nil {
		return e.Err.Error()
	}
	return fmt.Sprintf("invalid port number: %d", e.Number)
}

// Unwrap exposes api.ErrInvalidInput and the underlying error; a nil *PortError
// wraps nothing.
func (e *PortError) Unwrap() []error {
	if e == nil {
		return nil
	}
	if e.Err != nil {
		return []error{errInvalidInput, e.Err}
	}
	return []error{errInvalidInput}
}

// ResolvePort turns a probe's port (httpGet.port, tcpSocket.port) into a
// number the way the kubelet does (pkg/probe ResolveContainerPort): a
// number is taken as is; a name is looked up among the container's ports
// by name, and when no port has that name the name itself is parsed as a
// decimal number (so "8080" works without a declared port). The result
// must lie in 1..65535. A nil container declares no ports.
func ResolvePort(port api.IntOrString, c *api.Container) (int, error) {
	n := int(port.IntVal)
	if port.IsString {
		found := false
		if c != nil {
			for i := range c.Ports {
				if c.Ports[i].Name == port.StrVal {
					n, found = int(c.Ports[i].ContainerPort), true
					break
				}
			}
		}
		if !found {
			v, err := strconv.Atoi(port.StrVal)
			if err != nil {
				return 0, &PortError{Port: port, Err: err}
			}
			n = v
		}
	}
	if n > 0 && n < 65536 {
		return n, nil
	}
	return n, &PortError{Port: port, Number: n}
}
