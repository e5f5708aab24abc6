package workloads

import (
	"errors"
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
)

// deploymentMaxRetries is pkg/controller/deployment's maxRetries: a
// failed sync is retried with the work queue's back-off (retryDelay) and
// dropped after 15 retries until the Deployment changes again.
const deploymentMaxRetries = 15

// DeploymentInput is what the Deployment controller observes when it
// syncs one Deployment: the Deployment, every ReplicaSet of its namespace
// in its cache, and the pods of those ReplicaSets (read only by a Recreate
// rollout). A tick — time passed, nothing changed — is a Step with the
// objects as they now are.
type DeploymentInput struct {
	Deployment  *api.Deployment
	ReplicaSets []*api.ReplicaSet
	Pods        []*api.Pod
}

// DeploymentController is kube-controller-manager's Deployment controller
// for one Deployment as a state machine of podsem's one convention: each
// Step runs SyncDeployment on the observed objects and returns its writes
// as values; the controller remembers only what upstream's work queue
// does — the failures of consecutive syncs, for the retry back-off — and
// when it must look again. Upstream keeps no expectations for
// Deployments: it reads ReplicaSets from its cache, which is why the
// caller feeds them in each Step.
//
// The zero value is the controller as v1.36.3 ships it (see
// DeploymentOptions); NewDeploymentController sets the options.
type DeploymentController struct {
	// Options are the options every sync runs with.
	Options DeploymentOptions

	failures int
	next     time.Time
}

// NewDeploymentController returns a Deployment controller whose syncs use
// opts.
func NewDeploymentController(opts DeploymentOptions) *DeploymentController {
	return &DeploymentController{Options: opts}
}

// Step syncs in.Deployment at now (SyncDeployment) and returns what the
// sync writes. An error upstream's sync returns comes back with the writes
// made before it, and the controller retries after its back-off (5 ms
// doubling per consecutive failure, at most 1000 s; after 15 retries it
// gives up until the next Step). Bad input (see SyncDeployment) is an
// error wrapping api.ErrInvalidInput, and a request SyncDeployment does
// not model one wrapping errors.ErrUnsupported; both leave the controller
// as it was. A nil controller is an error.
func (c *DeploymentController) Step(in DeploymentInput, now time.Time) (DeploymentSync, error) {
	if c == nil {
		return DeploymentSync{}, fmt.Errorf("%w: DeploymentController: nil", errInvalidInput)
	}
	res, err := SyncDeployment(in.Deployment, in.ReplicaSets, in.Pods, c.Options, now)
	switch {
	case err == nil:
		c.failures = 0
		c.next = res.NextCheck
	case errors.Is(err, api.ErrInvalidInput), errors.Is(err, errors.ErrUnsupported):
	default:
		c.next = time.Time{}
		if c.failures < deploymentMaxRetries {
			c.next = now.Add(retryDelay(c.failures + 1))
			c.failures++
		} else {
			c.failures = 0
		}
	}
	return res, err
}

// NextDeadline is when the controller must sync the Deployment again
// even if nothing changes: the progress-deadline check upstream's
// requeueStuckDeployment schedules (one second after the Progressing
// condition's lastUpdateTime + progressDeadlineSeconds, while a rollout is
// neither complete nor timed out), or the retry of a failed sync. The
// Deployment controller has no minReadySeconds requeue of its own: the
// ReplicaSet controller's status updates bring the change. Zero when
// none; a nil controller has none.
func (c *DeploymentController) NextDeadline() time.Time {
	if c == nil {
		return time.Time{}
	}
	return c.next
}
