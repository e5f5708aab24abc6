package workloads

import (
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/podsem/podsem/api"
)

// The pod-template hash of kube-controller-manager (pkg/controller
// ComputeHash) is FNV-32a over hashutil.DeepHashObject's text: the
// go-spew "%#v" dump (k8s.io/utils/dump ForHash: sorted map keys, no
// methods, no pointer addresses) of the core/v1 PodTemplateSpec the
// controller's informer decoded. The dump spells every field of the v1
// Go types, with their type names, in declaration order, so it depends on
// the layout of k8s.io/api v0.36.3 and on the values only. The generated
// templatehash_gen.go writes that layout for podsem's api types; this file
// holds the values whose v1 form is not the plain value podsem keeps: a
// quantity (resource.Quantity's internal representation), an int-or-string
// and a timestamp.
//
// The object the controller sees went through the API server's
// defaulting and the protobuf encoding of its watch: an empty list or map
// arrives as nil (the generated code writes "<nil>" for both), and a
// quantity arrives as resource.ParseQuantity of the string the server
// wrote for it, which is what appendQuantityDump reproduces.

// templateDumpSize is the buffer a typical template's dump fits in
// without growing (one container with resources and a probe is about 4 KiB).
const templateDumpSize = 8 << 10

// DefaultPodTemplateHash is the pod-template-hash kube-controller-manager
// v1.36.3 computes for template (pkg/controller ComputeHash), the value a
// real cluster puts in a Deployment's ReplicaSet name
// (<deployment>-<hash>) and pod-template-hash label, and in a DaemonSet's
// ControllerRevision name and controller-revision-hash label: FNV-32a over
// the go-spew dump of the core/v1 PodTemplateSpec (pkg/util/hash
// DeepHashObject), followed, when collisionCount is set, by eight bytes
// holding it little-endian, the sum written in decimal and re-encoded with
// the alphabet of apimachinery's rand.SafeEncodeString (no vowels, no
// 0/1/3).
//
// template must be the template as the controller sees it: after the API
// server's defaulting (api.DefaultDeployment, api.DefaultDaemonSet). The
// value equals upstream's for every field api models; the fields of the
// v1 layout api does not model (listed in templatehash_gen.go: in-tree
// volume plugins such as glusterfs or cephfs, clusterTrustBundle and
// podCertificate projections, spec.schedulingGroup) hash as unset. Two
// spellings are not reproduced: a template timestamp (metadata
// creationTimestamp or deletionTimestamp, which upstream holds in the
// controller's local time zone), and a quantity written in a
// non-canonical spelling the API server keeps verbatim ("+1", "01").
// A nil template hashes as the empty template.
func DefaultPodTemplateHash(template *api.PodTemplateSpec, collisionCount *int32) string {
	var buf [templateDumpSize]byte
	b := appendPodTemplateDump(buf[:0], template)
	h := fnv.New32a()
	h.Write(b)
	if collisionCount != nil {
		var cc [8]byte
		binary.LittleEndian.PutUint32(cc[:], uint32(*collisionCount))
		h.Write(cc[:])
	}
	return safeEncodeString(strconv.FormatUint(uint64(h.Sum32()), 10))
}

// appendPodTemplateDump appends the dump DeepHashObject hashes for
// template: "(v1.PodTemplateSpec){ObjectMeta:(v1.ObjectMeta){...} Spec:...}".
func appendPodTemplateDump(b []byte, template *api.PodTemplateSpec) []byte {
	if template == nil {
		template = &api.PodTemplateSpec{}
	}
	b = append(b, "(v1.PodTemplateSpec)"...)
	return dumpPodTemplateSpec(b, template)
}

// serviceAccountOf is the service account the API server's conversion
// writes in both serviceAccountName and the deprecated serviceAccount of
// every pod spec it serves: serviceAccountName, or serviceAccount when the
// former is empty.
func serviceAccountOf(s *api.PodSpec) string {
	if s.ServiceAccountName != "" {
		return s.ServiceAccountName
	}
	return s.DeprecatedServiceAccount
}

// sortedKeys is m's keys in the order go-spew's SortKeys prints string
// keys: byte-wise ascending.
func sortedKeys[K ~string, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// derefQuantity is *q, or the zero quantity when q is nil: a downward
// API divisor podsem leaves unset is upstream's zero Quantity.
func derefQuantity(q *api.Quantity) api.Quantity {
	if q == nil {
		return api.Quantity{}
	}
	return *q
}

// claimSpecOf decodes the claim spec of an ephemeral volume's template,
// which api keeps as JSON, into the typed spec the v1 layout has. A spec
// that does not decode hashes as the empty spec.
func claimSpecOf(m map[string]any) *api.PersistentVolumeClaimSpec {
	spec := &api.PersistentVolumeClaimSpec{}
	if len(m) == 0 {
		return spec
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return spec
	}
	if json.Unmarshal(raw, spec) != nil {
		return &api.PersistentVolumeClaimSpec{}
	}
	return spec
}

// appendIntOrStringDump appends intstr.IntOrString's fields:
// {Type:(intstr.Type)0 IntVal:(int32)80 StrVal:(string)}.
func appendIntOrStringDump(b []byte, v api.IntOrString) []byte {
	b = append(b, "{Type:(intstr.Type)"...)
	if v.IsString {
		b = append(b, '1')
	} else {
		b = append(b, '0')
	}
	b = append(b, " IntVal:(int32)"...)
	b = strconv.AppendInt(b, int64(v.IntVal), 10)
	b = append(b, " StrVal:(string)"...)
	b = append(b, v.StrVal...)
	return append(b, '}')
}

// appendTimeDump appends metav1.Time's one field, a time.Time with its
// unexported wall, ext and loc. The zero time (every template's
// creationTimestamp) is exact. Upstream decodes any other timestamp into
// the controller's local zone, whose *time.Location the dump spells out;
// podsem writes the instant as time.Unix does, with no location, so that
// different instants still hash differently.
func appendTimeDump(b []byte, t api.Time) []byte {
	var wall uint64
	var ext int64
	if !t.IsZero() {
		// time.Time without a monotonic reading: wall holds the
		// nanoseconds, ext the seconds since January 1, year 1.
		const unixToInternal = (1969*365 + 1969/4 - 1969/100 + 1969/400) * 86400
		wall = uint64(t.Nanosecond())
		ext = t.Unix() + unixToInternal
	}
	b = append(b, "{Time:(time.Time){wall:(uint64)"...)
	b = strconv.AppendUint(b, wall, 10)
	b = append(b, " ext:(int64)"...)
	b = strconv.AppendInt(b, ext, 10)
	return append(b, " loc:(*time.Location)<nil>}}"...)
}

// appendQuantityDump appends resource.Quantity's internal fields as the
// informer's copy holds them:
//
//	{i:(resource.int64Amount){value:(int64)500 scale:(resource.Scale)-3}
//	 d:(resource.infDecAmount){Dec:(*inf.Dec)<nil>} s:(string)500m
//	 Format:(resource.Format)DecimalSI}
//
// The API server writes a quantity as its canonical string (q.String());
// the informer parses it back with resource.ParseQuantity, which keeps
// the value as an int64 mantissa and scale when it fits (caching the
// string only when it is already in the canonical form that function
// recognizes) and as an inf.Dec otherwise.
func appendQuantityDump(b []byte, q api.Quantity) []byte {
	p := parseForDump(q.String())
	b = append(b, "{i:(resource.int64Amount){value:(int64)"...)
	b = strconv.AppendInt(b, p.value, 10)
	b = append(b, " scale:(resource.Scale)"...)
	b = strconv.AppendInt(b, int64(p.scale), 10)
	b = append(b, "} d:(resource.infDecAmount){Dec:(*inf.Dec)"...)
	if p.dec == nil {
		b = append(b, "<nil>"...)
	} else {
		b = append(b, "{unscaled:(big.Int){neg:(bool)"...)
		b = strconv.AppendBool(b, p.dec.Sign() < 0)
		b = append(b, " abs:(big.nat)"...)
		words := p.dec.Bits()
		if words == nil {
			b = append(b, "<nil>"...)
		} else {
			b = append(b, '[')
			for i, w := range words {
				if i > 0 {
					b = append(b, ' ')
				}
				b = strconv.AppendUint(b, uint64(w), 10)
			}
			b = append(b, ']')
		}
		b = append(b, "} scale:(inf.Scale)"...)
		b = strconv.AppendInt(b, int64(p.decScale), 10)
		b = append(b, '}')
	}
	b = append(b, "} s:(string)"...)
	b = append(b, p.cached...)
	b = append(b, " Format:(resource.Format)"...)
	b = append(b, p.format...)
	return append(b, '}')
}

// quantityRepr is what resource.ParseQuantity stores for a string: either
// an int64 mantissa and decimal scale, or (dec non-nil) an inf.Dec's
// unscaled big integer and scale; the cached string; the format's name.
type quantityRepr struct {
	value    int64
	scale    int32
	dec      *big.Int
	decScale int32
	cached   string
	format   string
}

// parseForDump is resource.ParseQuantity's choice of representation for
// s, a string the API server wrote (podsem's String is upstream's
// canonical form, so s always parses).
func parseForDump(s string) quantityRepr {
	if s == "0" || s == "" {
		return quantityRepr{cached: "0", format: string(api.DecimalSI)}
	}
	positive, value, num, denom, suffix := splitQuantity(s)
	base, exponent, format := quantitySuffix(suffix)
	precision := int32(0)
	scale := int32(0)
	mantissa := int64(1)
	switch format {
	case api.BinarySI:
		if exponent >= 0 && denom == "" {
			mantissa <<= uint(exponent)
			precision = 15 - int32(len(num)) - exponent*3/10 - 1
		} else {
			precision = -1
		}
	default:
		scale = exponent
		precision = 18 - int32(len(num)+len(denom))
	}
	if precision >= 0 {
		scale -= int32(len(denom))
		if scale >= -9 {
			shifted := num + denom
			v, err := strconv.ParseInt(shifted, 10, 64)
			if err == nil {
				if r, ok := mulInt64(v, mantissa); ok {
					if !positive {
						r = -r
					}
					out := quantityRepr{value: r, scale: scale, format: string(format)}
					switch format {
					case api.BinarySI:
						if exponent%10 == 0 && v&0x07 != 0 {
							out.cached = s
						}
					default:
						if scale%3 == 0 && !strings.HasSuffix(shifted, "000") && shifted[0] != '0' {
							out.cached = s
						}
					}
					return out
				}
			}
		}
	}
	// The inf.Dec path: the number as written, the suffix folded in,
	// rounded up (away from zero) to nano precision, BinarySI capped at
	// 2^63-1, and a BinarySI fraction of one printed as DecimalSI.
	intPart, frac, _ := strings.Cut(strings.TrimLeft(value, "+-"), ".")
	unscaled, _ := new(big.Int).SetString(intPart+frac, 10)
	if unscaled == nil {
		unscaled = new(big.Int)
	}
	dscale := int32(len(frac))
	if base == 10 {
		dscale -= exponent
	} else {
		unscaled.Lsh(unscaled, uint(exponent))
	}
	if unscaled.Sign() != 0 && dscale > 9-maxDecDigits && dscale < 9+maxDecDigits {
		unscaled, dscale = roundUpToScale(unscaled, dscale, 9)
	}
	if format == api.BinarySI {
		maxAllowed := new(big.Int).SetUint64(1<<63 - 1)
		if decCmp(unscaled, dscale, maxAllowed, 0) > 0 {
			unscaled, dscale = maxAllowed, 0
		}
		one := big.NewInt(1)
		if unscaled.Sign() > 0 && decCmp(unscaled, dscale, one, 0) < 0 {
			format = api.DecimalSI
		}
	}
	if !positive {
		unscaled.Neg(unscaled)
	}
	return quantityRepr{dec: unscaled, decScale: dscale, format: string(format)}
}

// maxDecDigits bounds the rescaling of an inf.Dec quantity: a value
// whose exponent is thousands of digits away from nano precision (which
// the API server would take seconds and gigabytes to round) keeps its
// unscaled value and scale, and hashes as podsem's own value.
const maxDecDigits = 4096

// roundUpToScale is inf.Dec's Round(x, s, RoundUp) for a non-negative x =
// unscaled × 10^-scale: the value at scale s, rounded away from zero.
func roundUpToScale(unscaled *big.Int, scale, s int32) (*big.Int, int32) {
	out := new(big.Int).Set(unscaled)
	switch {
	case scale < s:
		out.Mul(out, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s-scale)), nil))
	case scale > s:
		div := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale-s)), nil)
		q, r := new(big.Int).QuoRem(out, div, new(big.Int))
		if r.Sign() != 0 {
			q.Add(q, big.NewInt(1))
		}
		out = q
	}
	return out, s
}

// decCmp compares a×10^-as with b×10^-bs.
func decCmp(a *big.Int, as int32, b *big.Int, bs int32) int {
	x, y := new(big.Int).Set(a), new(big.Int).Set(b)
	if as < bs {
		x.Mul(x, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(bs-as)), nil))
	} else if bs < as {
		y.Mul(y, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(as-bs)), nil))
	}
	return x.Cmp(y)
}

// mulInt64 is a×b and whether it did not overflow.
func mulInt64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	c := a * b
	if c/b != a || (a == -1 && b == -1<<63) || (b == -1 && a == -1<<63) {
		return 0, false
	}
	return c, true
}

// splitQuantity cuts a quantity string as resource.ParseQuantity's
// scanner does: the sign, the number as written (sign included), its
// integer digits without leading zeros ("0" when none), its fraction
// digits, and the suffix.
func splitQuantity(s string) (positive bool, value, num, denom, suffix string) {
	positive = true
	pos := 0
	if pos < len(s) && (s[0] == '-' || s[0] == '+') {
		positive = s[0] == '+'
		pos++
	}
	for pos < len(s) && s[pos] == '0' {
		pos++
	}
	start := pos
	for pos < len(s) && s[pos] >= '0' && s[pos] <= '9' {
		pos++
	}
	num = s[start:pos]
	if num == "" {
		num = "0"
	}
	if pos < len(s) && s[pos] == '.' {
		pos++
		start = pos
		for pos < len(s) && s[pos] >= '0' && s[pos] <= '9' {
			pos++
		}
		denom = s[start:pos]
	}
	return positive, s[:pos], num, denom, s[pos:]
}

// quantitySuffix is the base, power and format of a quantity suffix, as
// resource's suffixer interprets it.
func quantitySuffix(suffix string) (base, exponent int32, format api.Format) {
	switch suffix {
	case "":
		return 10, 0, api.DecimalSI
	case "n":
		return 10, -9, api.DecimalSI
	case "u":
		return 10, -6, api.DecimalSI
	case "m":
		return 10, -3, api.DecimalSI
	case "k":
		return 10, 3, api.DecimalSI
	case "M":
		return 10, 6, api.DecimalSI
	case "G":
		return 10, 9, api.DecimalSI
	case "T":
		return 10, 12, api.DecimalSI
	case "P":
		return 10, 15, api.DecimalSI
	case "E":
		return 10, 18, api.DecimalSI
	case "Ki":
		return 2, 10, api.BinarySI
	case "Mi":
		return 2, 20, api.BinarySI
	case "Gi":
		return 2, 30, api.BinarySI
	case "Ti":
		return 2, 40, api.BinarySI
	case "Pi":
		return 2, 50, api.BinarySI
	case "Ei":
		return 2, 60, api.BinarySI
	}
	if len(suffix) > 1 && (suffix[0] == 'e' || suffix[0] == 'E') {
		e, _ := strconv.ParseInt(suffix[1:], 10, 64)
		return 10, int32(e), api.DecimalExponent
	}
	return 10, 0, api.DecimalExponent
}
