package workloads

import "time"

// The requeue back-off of a controller whose sync failed: client-go's
// default per-item exponential rate limiter (workqueue
// DefaultTypedControllerRateLimiter), 5 ms doubling per consecutive
// failure up to 1000 s. Its overall 10 qps token bucket, shared by all
// objects of a controller, is not modelled: it never binds for one object.
const (
	retryBackoffBase = 5 * time.Millisecond
	retryBackoffMax  = 1000 * time.Second
)

// retryDelay is the work queue's delay before the retry that follows
// failures consecutive failed syncs (failures ≥ 1): 5 ms, 10 ms, 20 ms, …,
// at most 1000 s.
func retryDelay(failures int) time.Duration {
	if failures < 1 {
		failures = 1
	}
	if failures > 40 {
		return retryBackoffMax
	}
	return min(retryBackoffBase<<(failures-1), retryBackoffMax)
}
