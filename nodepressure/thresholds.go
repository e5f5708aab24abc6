package nodepressure

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
)

// Resources the eviction manager reclaims besides memory and
// ephemeral-storage; they exist only inside the kubelet
// (pkg/kubelet/eviction), in its messages and events.
const (
	ResourceInodes api.ResourceName = "inodes"
	ResourcePIDs   api.ResourceName = "pids"
)

// numSignals is the number of eviction signals the kubelet knows; each has
// a fixed index (signalIndex) in the order of the Signal constants.
const numSignals = 9

// signalIndex is s's place among the known signals, -1 for an unknown one.
func signalIndex(s Signal) int {
	switch s {
	case SignalMemoryAvailable:
		return 0
	case SignalAllocatableMemoryAvailable:
		return 1
	case SignalNodeFsAvailable:
		return 2
	case SignalNodeFsInodesFree:
		return 3
	case SignalImageFsAvailable:
		return 4
	case SignalImageFsInodesFree:
		return 5
	case SignalContainerFsAvailable:
		return 6
	case SignalContainerFsInodesFree:
		return 7
	case SignalPIDAvailable:
		return 8
	}
	return -1
}

// signalAt is the inverse of signalIndex.
func signalAt(i int) Signal {
	switch i {
	case 0:
		return SignalMemoryAvailable
	case 1:
		return SignalAllocatableMemoryAvailable
	case 2:
		return SignalNodeFsAvailable
	case 3:
		return SignalNodeFsInodesFree
	case 4:
		return SignalImageFsAvailable
	case 5:
		return SignalImageFsInodesFree
	case 6:
		return SignalContainerFsAvailable
	case 7:
		return SignalContainerFsInodesFree
	case 8:
		return SignalPIDAvailable
	}
	return ""
}

// Valid reports whether the kubelet knows the signal; its settings reject
// any other name.
func (s Signal) Valid() bool { return signalIndex(s) >= 0 }

// Resource is the resource the kubelet reclaims when a threshold of the
// signal is met (pkg/kubelet/eviction signalToResource): memory for the
// memory signals, ephemeral-storage for the *.available disk signals,
// ResourceInodes for the *.inodesFree ones, ResourcePIDs for pid.available;
// "" for an unknown signal.
func (s Signal) Resource() api.ResourceName {
	switch s {
	case SignalMemoryAvailable, SignalAllocatableMemoryAvailable:
		return api.ResourceMemory
	case SignalNodeFsAvailable, SignalImageFsAvailable, SignalContainerFsAvailable:
		return api.ResourceEphemeralStorage
	case SignalNodeFsInodesFree, SignalImageFsInodesFree, SignalContainerFsInodesFree:
		return ResourceInodes
	case SignalPIDAvailable:
		return ResourcePIDs
	}
	return ""
}

// NodeCondition is the node condition the kubelet reports while a
// threshold of the signal is met (signalToNodeCondition): MemoryPressure,
// DiskPressure or PIDPressure; "" for an unknown signal.
func (s Signal) NodeCondition() api.NodeConditionType {
	switch s.Resource() {
	case api.ResourceMemory:
		return api.NodeMemoryPressure
	case api.ResourceEphemeralStorage, ResourceInodes:
		return api.NodeDiskPressure
	case ResourcePIDs:
		return api.NodePIDPressure
	}
	return ""
}

// isMemory reports the signals the eviction manager reclaims before all
// others (byEvictionPriority).
func (s Signal) isMemory() bool {
	return s == SignalMemoryAvailable || s == SignalAllocatableMemoryAvailable
}

// ThresholdOperator compares an observed signal with a threshold. The
// kubelet knows one, LessThan: a threshold is met when what is available
// falls below it.
type ThresholdOperator string

// OpLessThan is the operator of every eviction threshold.
const OpLessThan ThresholdOperator = "LessThan"

// ThresholdValue is an amount of a signal: an absolute quantity, or a
// fraction of the signal's capacity (evictionapi.ThresholdValue).
type ThresholdValue struct {
	// Quantity is the absolute amount (bytes, inodes or process IDs); nil
	// when the value is a percentage.
	Quantity *api.Quantity
	// Percentage is the fraction of capacity (0.1 for "10%"), held as a
	// float32 as the kubelet holds it; used when Quantity is nil.
	Percentage float32
}

// Of is the amount the value stands for against capacity, as the
// kubelet's GetThresholdQuantity computes it: the quantity itself, or
// int64(capacity × percentage) with the float32 percentage widened to
// float64 — so 10% of 100Gi is 10737418400 bytes, not 10737418240 — in
// binary-SI notation.
func (v ThresholdValue) Of(capacity api.Quantity) api.Quantity {
	if v.Quantity != nil {
		return *v.Quantity
	}
	return api.NewQuantity(int64(float64(capacity.Value())*float64(v.Percentage)), api.BinarySI)
}

// String renders the value as the settings spell it: "100Mi" or "10%"
// (the percentage to six significant digits, which hides the float32
// rounding: 15% is held as 0.150000006).
func (v ThresholdValue) String() string {
	if v.Quantity != nil {
		return v.Quantity.String()
	}
	return strconv.FormatFloat(float64(v.Percentage)*100, 'g', 6, 64) + "%"
}

// sameValue is the kubelet's compareThresholdValue: equal quantities, or
// equal percentages.
func sameValue(a, b ThresholdValue) bool {
	if a.Quantity != nil || b.Quantity != nil {
		return a.Quantity != nil && b.Quantity != nil && a.Quantity.Cmp(*b.Quantity) == 0
	}
	return a.Percentage == b.Percentage
}

// Threshold is one eviction threshold (evictionapi.Threshold): the kubelet
// acts when Signal's available amount is below Value. A hard threshold
// (GracePeriod 0) is acted on at once; a soft one only once it has held
// for GracePeriod.
type Threshold struct {
	Signal   Signal
	Operator ThresholdOperator
	Value    ThresholdValue
	// GracePeriod is the evictionSoftGracePeriod of a soft threshold; 0 for
	// a hard one (and for a soft one configured with "0s", which the
	// kubelet then treats as hard in every respect).
	GracePeriod time.Duration
	// MinReclaim is the signal's evictionMinimumReclaim entry, nil when it
	// has none: once met, the threshold stays in force until the signal is
	// back above Value plus MinReclaim.
	MinReclaim *ThresholdValue
}

// Hard reports whether the kubelet treats the threshold as hard (no grace
// period): it acts at once and gives evicted pods a 1 s grace period.
func (t Threshold) Hard() bool { return t.GracePeriod == 0 }

// String renders the threshold as the kubelet's flags spell it, e.g.
// "memory.available<100Mi" or "nodefs.available<15% (grace 1m30s)".
func (t Threshold) String() string {
	s := string(t.Signal) + "<" + t.Value.String()
	if t.GracePeriod != 0 {
		s += " (grace " + t.GracePeriod.String() + ")"
	}
	if t.MinReclaim != nil {
		s += " (minimum reclaim " + t.MinReclaim.String() + ")"
	}
	return s
}

// sameThreshold is the kubelet's hasThreshold: the same signal, operator,
// grace period and value (the minimum reclaim is not compared).
func sameThreshold(a, b *Threshold) bool {
	return a.Signal == b.Signal && a.Operator == b.Operator && a.GracePeriod == b.GracePeriod && sameValue(a.Value, b.Value)
}

// Settings are the kubelet's eviction settings as its
// configuration file (KubeletConfiguration) and flags spell them. The zero
// value is Kubernetes v1.36.3's Linux default.
type Settings struct {
	// Hard is evictionHard (--eviction-hard): signal → threshold, a
	// quantity ("100Mi", "1000") or a percentage of capacity ("10%"). nil
	// means DefaultEvictionHard; a non-nil map, even an empty one, replaces
	// the default.
	Hard map[string]string
	// Soft is evictionSoft (--eviction-soft), spelled like Hard; every soft
	// signal needs a SoftGracePeriod entry.
	Soft map[string]string
	// SoftGracePeriod is evictionSoftGracePeriod: signal → Go duration
	// ("1m30s").
	SoftGracePeriod map[string]string
	// MinimumReclaim is evictionMinimumReclaim: signal → quantity or
	// percentage, attached to every threshold of the signal.
	MinimumReclaim map[string]string
	// PressureTransitionPeriod is evictionPressureTransitionPeriod, a Go
	// duration: how long a pressure condition stays reported after its
	// last breach. "" means DefaultPressureTransitionPeriod; "0s" means
	// the conditions are never reported.
	PressureTransitionPeriod string
	// MaxPodGracePeriodSeconds is evictionMaxPodGracePeriod: the grace
	// period a soft eviction grants, capped by the pod's own. The kubelet's
	// default is 0 and it does not validate the value.
	MaxPodGracePeriodSeconds int64
	// EnforceNodeAllocatable is enforceNodeAllocatable; nil means ["pods"].
	// With "pods" in it, every hard memory.available threshold is also an
	// allocatableMemory.available threshold.
	EnforceNodeAllocatable []string
}

// DefaultPressureTransitionPeriod is the kubelet's default
// evictionPressureTransitionPeriod.
const DefaultPressureTransitionPeriod = 5 * time.Minute

// NodeAllocatableEnforcementPods is the enforceNodeAllocatable entry that
// makes the kubelet guard the pods' cgroup, adding allocatable memory
// thresholds.
const NodeAllocatableEnforcementPods = "pods"

// DefaultEvictionHard is the kubelet's default evictionHard on Linux
// (pkg/kubelet/eviction defaults_linux.go), a fresh map on each call.
func DefaultEvictionHard() map[string]string {
	return map[string]string{
		string(SignalMemoryAvailable):   "100Mi",
		string(SignalNodeFsAvailable):   "10%",
		string(SignalNodeFsInodesFree):  "5%",
		string(SignalImageFsAvailable):  "15%",
		string(SignalImageFsInodesFree): "5%",
	}
}

// Policy is what the kubelet makes of its eviction settings (the eviction
// manager's Config in pkg/kubelet/eviction).
type Policy struct {
	// Thresholds are the parsed thresholds: hard ones, then soft ones,
	// then the allocatable copies of hard memory.available thresholds.
	// Within hard and soft, signals come in the order of the Signal
	// constants (upstream keeps Go map order, which is random).
	Thresholds []Threshold
	// PressureTransitionPeriod is how long a pressure condition outlives
	// its last breach.
	PressureTransitionPeriod time.Duration
	// MaxPodGracePeriodSeconds is evictionMaxPodGracePeriod.
	MaxPodGracePeriodSeconds int64
}

// ErrInvalidSetting is wrapped by the errors ParseSettings and ParseFlag
// return.
var ErrInvalidSetting = errors.New("invalid eviction setting")

func settingError(field string, signal, value, detail string) error {
	return fmt.Errorf("%w: %s[%q] = %q: %s", ErrInvalidSetting, field, signal, value, detail)
}

// ParseSettings parses the kubelet's eviction settings the way
// ParseThresholdConfig (pkg/kubelet/eviction) does, checking in the same
// order (hard thresholds, soft thresholds, grace periods, minimum
// reclaims, then the grace period of each soft threshold):
//
//   - every signal must be one the kubelet knows (Signal.Valid);
//   - a threshold ending in "%" is a percentage: all trailing "%" are
//     trimmed ("10%%" is 10%), the number is read as a float32 and must be
//     within 0–100; exactly "0%" and "100%" are silently dropped. Anything
//     else is a quantity, which must be positive;
//   - a grace period is a Go duration, not negative;
//   - a minimum reclaim is a percentage above 0 or a quantity of at least 0;
//   - grace periods and minimum reclaims of signals without a threshold are
//     accepted and unused.
//
// Errors wrap ErrInvalidSetting and name the setting, the signal
// and the value; with several bad entries in one map, the one of the
// earliest signal (in Signal constant order) is reported.
func ParseSettings(s Settings) (Policy, error) {
	hardSpec := s.Hard
	if hardSpec == nil {
		hardSpec = DefaultEvictionHard()
	}
	hard, err := parseThresholds("evictionHard", hardSpec)
	if err != nil {
		return Policy{}, err
	}
	soft, err := parseThresholds("evictionSoft", s.Soft)
	if err != nil {
		return Policy{}, err
	}
	graces, err := parseGracePeriods(s.SoftGracePeriod)
	if err != nil {
		return Policy{}, err
	}
	reclaims, err := parseMinimumReclaims(s.MinimumReclaim)
	if err != nil {
		return Policy{}, err
	}
	for i := range soft {
		g, ok := graces[soft[i].Signal]
		if !ok {
			return Policy{}, fmt.Errorf("%w: evictionSoft[%q]: a soft threshold needs an evictionSoftGracePeriod entry", ErrInvalidSetting, soft[i].Signal)
		}
		soft[i].GracePeriod = g
	}
	all := append(hard, soft...)
	for i := range all {
		if r, ok := reclaims[all[i].Signal]; ok {
			all[i].MinReclaim = &r
		}
	}
	enforce := s.EnforceNodeAllocatable
	if enforce == nil {
		enforce = []string{NodeAllocatableEnforcementPods}
	}
	for _, k := range enforce {
		if k != NodeAllocatableEnforcementPods {
			continue
		}
		for i, n := 0, len(all); i < n; i++ {
			if t := all[i]; t.Signal == SignalMemoryAvailable && t.Hard() {
				all = append(all, Threshold{Signal: SignalAllocatableMemoryAvailable, Operator: t.Operator, Value: t.Value, MinReclaim: t.MinReclaim})
			}
		}
		break
	}
	p := Policy{
		Thresholds:               all,
		PressureTransitionPeriod: DefaultPressureTransitionPeriod,
		MaxPodGracePeriodSeconds: s.MaxPodGracePeriodSeconds,
	}
	if v := s.PressureTransitionPeriod; v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return Policy{}, fmt.Errorf("%w: evictionPressureTransitionPeriod = %q: %v", ErrInvalidSetting, v, err)
		}
		p.PressureTransitionPeriod = d
	}
	return p, nil
}

// sortedSignals returns m's keys with the known signals first in Signal
// constant order, then unknown names alphabetically, so that the first
// bad entry reported does not depend on map order.
func sortedSignals(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := signalIndex(Signal(keys[i])), signalIndex(Signal(keys[j]))
		if a < 0 {
			a = numSignals
		}
		if b < 0 {
			b = numSignals
		}
		if a != b {
			return a < b
		}
		return keys[i] < keys[j]
	})
	return keys
}

func parseThresholds(field string, m map[string]string) ([]Threshold, error) {
	var out []Threshold
	for _, k := range sortedSignals(m) {
		v := m[k]
		t, keep, err := parseThreshold(field, Signal(k), v)
		if err != nil {
			return nil, err
		}
		if keep {
			out = append(out, t)
		}
	}
	return out, nil
}

// parseThreshold reads one threshold statement; keep is false for the
// "0%" and "100%" the kubelet ignores.
func parseThreshold(field string, signal Signal, v string) (t Threshold, keep bool, err error) {
	if !signal.Valid() {
		return Threshold{}, false, settingError(field, string(signal), v, "unsupported eviction signal")
	}
	t = Threshold{Signal: signal, Operator: OpLessThan}
	if strings.HasSuffix(v, "%") {
		if v == "0%" || v == "100%" {
			return Threshold{}, false, nil
		}
		p, err := parsePercentage(v)
		if err != nil {
			return Threshold{}, false, settingError(field, string(signal), v, err.Error())
		}
		if p < 0 {
			return Threshold{}, false, settingError(field, string(signal), v, "a percentage threshold must be >= 0%")
		}
		if p > 1 {
			return Threshold{}, false, settingError(field, string(signal), v, "a percentage threshold must be <= 100%")
		}
		t.Value.Percentage = p
		return t, true, nil
	}
	q, err := api.ParseQuantity(v)
	if err != nil {
		return Threshold{}, false, settingError(field, string(signal), v, err.Error())
	}
	if q.Sign() <= 0 {
		return Threshold{}, false, settingError(field, string(signal), v, "a threshold quantity must be positive")
	}
	t.Value.Quantity = &q
	return t, true, nil
}

// parsePercentage reads "12.5%" (any number of trailing "%") as the
// float32 fraction 0.125, as the kubelet's parsePercentage does.
func parsePercentage(v string) (float32, error) {
	f, err := strconv.ParseFloat(strings.TrimRight(v, "%"), 32)
	if err != nil {
		return 0, err
	}
	return float32(f) / 100, nil
}

func parseGracePeriods(m map[string]string) (map[Signal]time.Duration, error) {
	out := make(map[Signal]time.Duration, len(m))
	for _, k := range sortedSignals(m) {
		v := m[k]
		if !Signal(k).Valid() {
			return nil, settingError("evictionSoftGracePeriod", k, v, "unsupported eviction signal")
		}
		d, err := time.ParseDuration(v)
		if err != nil {
			return nil, settingError("evictionSoftGracePeriod", k, v, err.Error())
		}
		if d < 0 {
			return nil, settingError("evictionSoftGracePeriod", k, v, "a grace period must not be negative")
		}
		out[Signal(k)] = d
	}
	return out, nil
}

func parseMinimumReclaims(m map[string]string) (map[Signal]ThresholdValue, error) {
	out := make(map[Signal]ThresholdValue, len(m))
	for _, k := range sortedSignals(m) {
		v := m[k]
		if !Signal(k).Valid() {
			return nil, settingError("evictionMinimumReclaim", k, v, "unsupported eviction signal")
		}
		if strings.HasSuffix(v, "%") {
			p, err := parsePercentage(v)
			if err != nil {
				return nil, settingError("evictionMinimumReclaim", k, v, err.Error())
			}
			if p <= 0 {
				return nil, settingError("evictionMinimumReclaim", k, v, "a minimum reclaim percentage must be positive")
			}
			out[Signal(k)] = ThresholdValue{Percentage: p}
			continue
		}
		q, err := api.ParseQuantity(v)
		if err != nil {
			return nil, settingError("evictionMinimumReclaim", k, v, err.Error())
		}
		if q.Sign() < 0 {
			return nil, settingError("evictionMinimumReclaim", k, v, "a minimum reclaim must not be negative")
		}
		out[Signal(k)] = ThresholdValue{Quantity: &q}
	}
	return out, nil
}

// ParseFlag reads the command-line spelling of one of the kubelet's
// eviction map flags into the map Settings holds:
// --eviction-hard and --eviction-soft take "signal<value" pairs
// ("memory.available<100Mi,nodefs.available<10%"),
// --eviction-soft-grace-period and --eviction-minimum-reclaim take
// "signal=value" pairs. Pairs are separated by commas, empty pairs are
// skipped, keys and values are trimmed of spaces, and a later pair for the
// same signal wins — as the kubelet's flag parsing does. name is the flag
// without dashes ("eviction-hard"). The values themselves are checked by
// ParseSettings.
func ParseFlag(name, value string) (map[string]string, error) {
	var sep string
	switch name {
	case "eviction-hard", "eviction-soft":
		sep = "<"
	case "eviction-soft-grace-period", "eviction-minimum-reclaim":
		sep = "="
	default:
		return nil, fmt.Errorf("%w: unknown eviction flag %q", ErrInvalidSetting, name)
	}
	out := map[string]string{}
	for _, pair := range strings.Split(value, ",") {
		if pair == "" {
			continue
		}
		k, v, ok := strings.Cut(pair, sep)
		if !ok {
			return nil, fmt.Errorf("%w: --%s: malformed pair %q, want signal%svalue", ErrInvalidSetting, name, pair, sep)
		}
		out[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return out, nil
}

// SignalObservation is what the kubelet observes of one signal in a
// Summary (makeSignalObservations).
type SignalObservation struct {
	Signal Signal
	// Available is the amount left: bytes (binary-SI), inodes or process
	// IDs (decimal-SI).
	Available api.Quantity
	// Capacity is the total that percentages are taken of.
	Capacity api.Quantity
	// Time is when the statistics were read (zero when they carry none).
	Time time.Time
}

// observations is one pass's observations indexed by signalIndex.
type observations struct {
	obs   [numSignals]SignalObservation
	found [numSignals]bool
}

func (o *observations) set(s Signal, avail, capacity api.Quantity, t api.Time) {
	i := signalIndex(s)
	o.obs[i] = SignalObservation{Signal: s, Available: avail, Capacity: capacity, Time: t.Time}
	o.found[i] = true
}

// observe derives the signals from a Summary as the kubelet's
// makeSignalObservations does on Linux (swap not counted): a signal is
// observed only when both of its numbers are present.
func (o *observations) observe(s *Summary) {
	*o = observations{}
	if s == nil {
		return
	}
	n := &s.Node
	if m := n.Memory; m != nil && m.AvailableBytes != nil && m.WorkingSetBytes != nil {
		o.set(SignalMemoryAvailable, api.NewQuantity(int64(*m.AvailableBytes), api.BinarySI),
			api.NewQuantity(int64(*m.AvailableBytes+*m.WorkingSetBytes), api.BinarySI), m.Time)
	}
	for i := range n.SystemContainers {
		if n.SystemContainers[i].Name != SystemContainerPods {
			continue
		}
		if m := n.SystemContainers[i].Memory; m != nil && m.AvailableBytes != nil && m.WorkingSetBytes != nil {
			o.set(SignalAllocatableMemoryAvailable, api.NewQuantity(int64(*m.AvailableBytes), api.BinarySI),
				api.NewQuantity(int64(*m.AvailableBytes+*m.WorkingSetBytes), api.BinarySI), m.Time)
		}
		break
	}
	o.fs(n.Fs, SignalNodeFsAvailable, SignalNodeFsInodesFree)
	if r := n.Runtime; r != nil {
		o.fs(r.ImageFs, SignalImageFsAvailable, SignalImageFsInodesFree)
		o.fs(r.ContainerFs, SignalContainerFsAvailable, SignalContainerFsInodesFree)
	}
	if r := n.Rlimit; r != nil && r.NumOfRunningProcesses != nil && r.MaxPID != nil {
		o.set(SignalPIDAvailable, api.NewQuantity(*r.MaxPID-*r.NumOfRunningProcesses, api.DecimalSI),
			api.NewQuantity(*r.MaxPID, api.DecimalSI), r.Time)
	}
}

func (o *observations) fs(fs *FsStats, bytes, inodes Signal) {
	if fs == nil {
		return
	}
	if fs.AvailableBytes != nil && fs.CapacityBytes != nil {
		o.set(bytes, api.NewQuantity(int64(*fs.AvailableBytes), api.BinarySI), api.NewQuantity(int64(*fs.CapacityBytes), api.BinarySI), fs.Time)
	}
	if fs.InodesFree != nil && fs.Inodes != nil {
		o.set(inodes, api.NewQuantity(int64(*fs.InodesFree), api.DecimalSI), api.NewQuantity(int64(*fs.Inodes), api.DecimalSI), fs.Time)
	}
}

// ObserveSignals returns the signals the kubelet observes in summary, in
// the order of the Signal constants: memory.available (availableBytes,
// capacity available + working set), allocatableMemory.available (the
// same from the "pods" system container), nodefs.* (node.fs), imagefs.*
// and containerfs.* (node.runtime), pid.available (rlimit maxpid −
// curproc). A signal whose numbers are missing is not observed. A nil
// summary observes nothing.
func ObserveSignals(summary *Summary) []SignalObservation {
	var o observations
	o.observe(summary)
	var out []SignalObservation
	for i := range o.obs {
		if o.found[i] {
			out = append(out, o.obs[i])
		}
	}
	return out
}

// Met reports whether the threshold holds against obs as the kubelet's
// thresholdsMet decides: its amount against the observed capacity is
// greater than what is available. With enforceMinReclaim (a threshold
// already in force at the previous pass) the minimum reclaim is added to
// the amount, so the threshold stays in force until the signal has
// recovered past it.
func (t Threshold) Met(obs SignalObservation, enforceMinReclaim bool) bool {
	if t.Operator != OpLessThan {
		return false
	}
	q := t.Value.Of(obs.Capacity)
	if enforceMinReclaim && t.MinReclaim != nil {
		q = q.Add(t.MinReclaim.Of(obs.Capacity))
	}
	return q.Cmp(obs.Available) > 0
}
