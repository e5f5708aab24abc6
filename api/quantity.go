package api

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
)

// Format is the notation a Quantity was written in (resource.Format in
// Kubernetes). A Quantity remembers the notation it was parsed with and
// uses it again when it is printed in canonical form.
type Format string

const (
	// DecimalExponent is the notation with a power-of-ten exponent, such as
	// "12e6" or "5E-3".
	DecimalExponent Format = "DecimalExponent"
	// BinarySI is the notation with a power-of-two suffix: Ki, Mi, Gi, Ti,
	// Pi or Ei (1Ki is 1024).
	BinarySI Format = "BinarySI"
	// DecimalSI is the notation with a power-of-ten SI suffix: n, u, m, no
	// suffix, k, M, G, T, P or E (1k is 1000).
	DecimalSI Format = "DecimalSI"
)

// Sentinel errors returned (wrapped, with the offending input named) by
// ParseQuantity and Quantity.UnmarshalJSON. Test for them with errors.Is.
var (
	// ErrFormatWrong reports text that is not a sign, a decimal number and a
	// suffix, such as "", "1 Gi", "1.2.3" or "12x".
	ErrFormatWrong = errors.New("quantity must be an optionally signed decimal number followed by an optional suffix")
	// ErrSuffixUnknown reports a well-formed suffix that is not one of the
	// SI, binary SI or exponent suffixes, such as "1Ki5", "1mi" or "--1".
	ErrSuffixUnknown = errors.New("unknown quantity suffix")
	// ErrNumeric reports a number part without digits in the few spellings
	// where Kubernetes refuses it, such as "Pi" or "e-10" (while "Ki", "-"
	// or "." parse as zero, exactly as in Kubernetes).
	ErrNumeric = errors.New("quantity has no numeric part")
)

// quantityError carries the input that failed to parse, a description and
// the sentinel it unwraps to.
type quantityError struct {
	input  string
	detail string
	kind   error
}

func (e *quantityError) Error() string {
	return "quantity " + strconv.Quote(e.input) + ": " + e.detail
}

func (e *quantityError) Unwrap() error { return e.kind }

// Quantity is an exact decimal amount of a resource, such as "500m" of CPU
// or "1536Mi" of memory: Kubernetes' resource.Quantity
// (k8s.io/apimachinery/pkg/api/resource).
//
// A Quantity is a value: copy it freely, compare it with Cmp or Equal (not
// ==, which sees the representation), and combine it with Add and Sub,
// which return new values. The zero value is the quantity 0.
//
// The amount is never held as a float. Values whose mantissa fits an int64
// are stored as mantissa × 10^scale without allocation; larger values fall
// back to math/big, so nothing Kubernetes accepts is lost. Like Kubernetes,
// parsing keeps precision down to the nano unit (10^-9) only, and a
// quantity remembers its Format for String.
type Quantity struct {
	// mant is the signed mantissa when wide is nil.
	mant int64
	// wide is the signed mantissa when it does not fit an int64; it is
	// never modified once the Quantity holding it has been built.
	wide *big.Int
	// scale is the power of ten the mantissa is multiplied by.
	scale int32
	// format is the notation used by String.
	format Format
}

// NewQuantity returns the quantity value (a whole number) that prints in
// format f, like resource.NewQuantity.
func NewQuantity(v int64, f Format) Quantity {
	return Quantity{mant: v, format: f}
}

// NewMilliQuantity returns the quantity milli/1000 that prints in format
// f, like resource.NewMilliQuantity. A BinarySI quantity below 1024 in
// magnitude, or with a fraction, prints as DecimalSI.
func NewMilliQuantity(milli int64, f Format) Quantity {
	return Quantity{mant: milli, scale: -3, format: f}
}

// NewScaledQuantity returns the quantity v × 10^scale in DecimalSI, like
// resource.NewScaledQuantity: NewScaledQuantity(5, -3) is "5m".
func NewScaledQuantity(v int64, scale int32) Quantity {
	return Quantity{mant: v, scale: scale, format: DecimalSI}
}

// MustParseQuantity is ParseQuantity for spellings known to be valid; it
// panics on an error. Use it only for constants in tests and examples,
// never for input.
func MustParseQuantity(s string) Quantity {
	q, err := ParseQuantity(s)
	if err != nil {
		panic("api.MustParseQuantity: " + err.Error())
	}
	return q
}

// ParseQuantity reads a quantity as the Kubernetes API server does
// (resource.ParseQuantity):
//
//	[+|-] digits [. digits] suffix     (".5", "5." and "." are numbers too)
//	suffix: n u m "" k M G T P E        DecimalSI, powers of 1000
//	        Ki Mi Gi Ti Pi Ei           BinarySI, powers of 1024
//	        e<int> or E<int>            DecimalExponent, "1e3", "1E-3"
//
// A non-zero value finer than the nano unit is rounded away from zero to a
// whole number of nanos ("0.1n" is 1n, "-0.1n" is -1n). A BinarySI value
// larger than 2^63-1 in magnitude is capped there; a BinarySI value
// between 0 and 1 in magnitude becomes DecimalSI. Decimal values are not
// capped. Spaces are not allowed anywhere.
//
// Kubernetes' scanner accepts a few spellings without digits: "+", "-",
// ".", and a bare suffix such as "Ki", "m" or "e3" all parse as zero, while
// "Pi", "Ei" and "e-10" fail with ErrNumeric. An exponent is read as an
// int64 and then truncated to 32 bits, as in Kubernetes.
//
// Errors wrap ErrFormatWrong, ErrSuffixUnknown or ErrNumeric and name the
// input. The common forms ("100m", "1Gi", "2") parse without allocating.
func ParseQuantity(s string) (Quantity, error) {
	n := len(s)
	if n == 0 {
		return Quantity{}, &quantityError{input: s, detail: "empty string", kind: ErrFormatWrong}
	}
	i := 0
	neg := false
	switch s[0] {
	case '-':
		neg = true
		i++
	case '+':
		i++
	}
	zerosStart := i
	for i < n && s[i] == '0' {
		i++
	}
	hasDigit := i > zerosStart

	// Significant digits: the integer part without leading zeros, then the
	// fraction. mant is only meaningful while sig <= 19.
	var mant uint64
	sig := 0
	numStart := i
	for i < n && qtyIsDigit(s[i]) {
		if sig < 19 {
			mant = mant*10 + uint64(s[i]-'0')
		}
		sig++
		i++
	}
	numLen := i - numStart
	denomStart, denomLen := i, 0
	if i < n && s[i] == '.' {
		i++
		denomStart = i
		for i < n && qtyIsDigit(s[i]) {
			if sig < 19 {
				mant = mant*10 + uint64(s[i]-'0')
			}
			sig++
			i++
		}
		denomLen = i - denomStart
	}
	if numLen+denomLen > 0 {
		hasDigit = true
	}

	// The suffix: letters that may belong to a suffix, an optional sign and
	// digits, and nothing after them.
	sufStart := i
	for i < n && qtyIsSuffixLetter(s[i]) {
		i++
	}
	if i < n && (s[i] == '+' || s[i] == '-') {
		i++
	}
	for i < n && qtyIsDigit(s[i]) {
		i++
	}
	if i < n {
		return Quantity{}, &quantityError{
			input:  s,
			detail: "unexpected " + strconv.Quote(s[i:i+1]) + " at offset " + strconv.Itoa(i),
			kind:   ErrFormatWrong,
		}
	}
	suf := s[sufStart:]
	binary, exp, format, ok := qtyInterpretSuffix(suf)
	if !ok {
		return Quantity{}, &quantityError{input: s, detail: "unknown suffix " + strconv.Quote(suf), kind: ErrSuffixUnknown}
	}

	// Kubernetes takes a fast int64 path when the digits are few enough and
	// an exact decimal path otherwise. Both give the same value and format;
	// the choice is mirrored only so that the stored mantissa and scale (and
	// with them AsApproximateFloat64) agree, and because a number without
	// digits is an error on the exact path alone.
	intLen := max(numLen, 1)
	var fast bool
	if binary {
		fast = denomLen == 0 && 15-intLen-3*int(exp/10)-1 >= 0
	} else {
		fast = intLen+denomLen <= 18 && int64(exp)-int64(denomLen) >= -9
	}
	if !hasDigit {
		if !fast {
			return Quantity{}, &quantityError{input: s, detail: "no digits before suffix " + strconv.Quote(suf), kind: ErrNumeric}
		}
		return Quantity{format: format}, nil
	}
	if fast {
		var v int64
		var scale int32
		if binary {
			v = int64(mant << uint(exp))
		} else {
			v = int64(mant)
			scale = exp - int32(denomLen)
		}
		if neg {
			v = -v
		}
		if v == 0 {
			scale = 0
		}
		return Quantity{mant: v, scale: scale, format: format}, nil
	}
	return qtyParseExact(neg, s[numStart:numStart+numLen]+s[denomStart:denomStart+denomLen], denomLen, binary, exp, format), nil
}

// qtyParseExact finishes a parse on math/big: digits (without sign or
// point) hold the magnitude, denomLen of them after the point, and the
// suffix multiplies by 2^exp (binary) or 10^exp.
func qtyParseExact(neg bool, digits string, denomLen int, binary bool, exp int32, format Format) Quantity {
	mag := new(big.Int)
	if digits != "" {
		mag.SetString(digits, 10)
	}
	if mag.Sign() == 0 {
		return Quantity{format: format}
	}
	e10 := -int64(denomLen)
	if binary {
		mag.Lsh(mag, uint(exp))
	} else {
		e10 += int64(exp)
	}

	// Round up (away from zero) to a whole number of nanos. Like Kubernetes,
	// keep the result as a count of nanos unless the exponent is so large
	// that writing it out would be wasteful (the value is then exact anyway).
	scale := int64(-9)
	switch {
	case e10 < -9:
		k := -9 - e10
		if _, hi := qtyDigitBounds(mag); k >= hi {
			mag.SetInt64(1)
		} else {
			r := new(big.Int)
			mag.QuoRem(mag, qtyBigPow10(k), r)
			if r.Sign() != 0 {
				mag.Add(mag, big.NewInt(1))
			}
		}
	case e10 <= 400:
		mag.Mul(mag, qtyBigPow10(e10+9))
	default:
		scale = e10
	}

	if format == BinarySI {
		// scale is -9 here: binary suffixes never raise the decimal scale.
		limit := new(big.Int).Mul(big.NewInt(math.MaxInt64), qtyBigPow10(9))
		switch {
		case mag.Cmp(limit) > 0:
			mag.SetInt64(math.MaxInt64)
			scale = 0
		case mag.Cmp(qtyBigPow10(9)) < 0:
			format = DecimalSI
		}
	}
	if neg {
		mag.Neg(mag)
	}
	return qtyFromBig(mag, int32(scale), format)
}

// qtyFromBig builds a Quantity from a signed mantissa it may keep.
func qtyFromBig(m *big.Int, scale int32, f Format) Quantity {
	if m.IsInt64() {
		v := m.Int64()
		if v == 0 {
			scale = 0
		}
		return Quantity{mant: v, scale: scale, format: f}
	}
	return Quantity{wide: m, scale: scale, format: f}
}

// qtyInterpretSuffix maps a suffix to its power: of two when binary, of ten
// otherwise.
func qtyInterpretSuffix(s string) (binary bool, exp int32, f Format, ok bool) {
	switch s {
	case "":
		return false, 0, DecimalSI, true
	case "n":
		return false, -9, DecimalSI, true
	case "u":
		return false, -6, DecimalSI, true
	case "m":
		return false, -3, DecimalSI, true
	case "k":
		return false, 3, DecimalSI, true
	case "M":
		return false, 6, DecimalSI, true
	case "G":
		return false, 9, DecimalSI, true
	case "T":
		return false, 12, DecimalSI, true
	case "P":
		return false, 15, DecimalSI, true
	case "E":
		return false, 18, DecimalSI, true
	case "Ki":
		return true, 10, BinarySI, true
	case "Mi":
		return true, 20, BinarySI, true
	case "Gi":
		return true, 30, BinarySI, true
	case "Ti":
		return true, 40, BinarySI, true
	case "Pi":
		return true, 50, BinarySI, true
	case "Ei":
		return true, 60, BinarySI, true
	}
	if len(s) > 1 && (s[0] == 'e' || s[0] == 'E') {
		v, err := strconv.ParseInt(s[1:], 10, 64)
		if err != nil {
			return false, 0, "", false
		}
		// Kubernetes narrows the exponent to 32 bits without a check.
		return false, int32(v), DecimalExponent, true
	}
	return false, 0, "", false
}

func qtyIsDigit(c byte) bool { return '0' <= c && c <= '9' }

// qtyIsSuffixLetter reports the letters Kubernetes' scanner lets into a
// suffix before checking it.
func qtyIsSuffixLetter(c byte) bool {
	switch c {
	case 'e', 'E', 'i', 'n', 'u', 'm', 'k', 'K', 'M', 'G', 'T', 'P':
		return true
	}
	return false
}

// Format returns the notation q prints in ("" for the zero Quantity, which
// prints as "0").
func (q Quantity) Format() Format { return q.format }

// IsZero reports whether q is 0 (in any format or scale).
func (q Quantity) IsZero() bool { return q.wide == nil && q.mant == 0 }

// Sign returns -1, 0 or +1 as q is negative, zero or positive.
func (q Quantity) Sign() int {
	if q.wide != nil {
		return q.wide.Sign()
	}
	switch {
	case q.mant < 0:
		return -1
	case q.mant > 0:
		return 1
	}
	return 0
}

// Neg returns -q in q's format.
func (q Quantity) Neg() Quantity {
	switch {
	case q.wide != nil:
		return qtyFromBig(new(big.Int).Neg(q.wide), q.scale, q.format)
	case q.mant == math.MinInt64:
		return Quantity{wide: new(big.Int).Neg(big.NewInt(q.mant)), scale: q.scale, format: q.format}
	}
	q.mant = -q.mant
	return q
}

// Add returns q + o. The result keeps q's format, except that a zero q
// takes o's format (as resource.Quantity.Add does). Unlike
// resource.Quantity.Add, which changes its receiver, Add leaves q as it is:
// use the result (sum = sum.Add(x)).
func (q Quantity) Add(o Quantity) Quantity {
	f := q.format
	if q.IsZero() {
		f = o.format
	}
	switch {
	case o.IsZero():
		q.format = f
		return q
	case q.IsZero():
		o.format = f
		return o
	}
	if q.wide == nil && o.wide == nil {
		if v, scale, ok := qtyAddInt64(q.mant, q.scale, o.mant, o.scale); ok {
			if v == 0 {
				scale = 0
			}
			return Quantity{mant: v, scale: scale, format: f}
		}
	}
	// Exact sum at the finer of the two scales. Like Kubernetes, this writes
	// out the difference of the scales in digits.
	a, b := q.bigMant(), o.bigMant()
	scale := q.scale
	switch {
	case q.scale > o.scale:
		a.Mul(a, qtyBigPow10(int64(q.scale)-int64(o.scale)))
		scale = o.scale
	case o.scale > q.scale:
		b.Mul(b, qtyBigPow10(int64(o.scale)-int64(q.scale)))
	}
	return qtyFromBig(a.Add(a, b), scale, f)
}

// Sub returns q - o. The result keeps q's format, except that a zero q
// takes o's format (as resource.Quantity.Sub does). Like Add, it leaves q
// as it is and returns the difference.
func (q Quantity) Sub(o Quantity) Quantity {
	return q.Add(o.Neg())
}

// qtyAddInt64 adds a×10^as and b×10^bs at the finer scale, reporting
// false when that does not fit an int64.
func qtyAddInt64(a int64, as int32, b int64, bs int32) (int64, int32, bool) {
	if as < bs {
		a, as, b, bs = b, bs, a, as
	}
	if as != bs {
		d := int64(as) - int64(bs)
		if d > 18 {
			return 0, 0, false
		}
		var ok bool
		if a, ok = qtyMulPow10(a, int(d)); !ok {
			return 0, 0, false
		}
	}
	c := a + b
	if (a > 0 && b > 0 && c < 0) || (a < 0 && b < 0 && c >= 0) {
		return 0, 0, false
	}
	return c, bs, true
}

// qtyMulPow10 returns v × 10^k (0 <= k <= 19), reporting false on overflow.
func qtyMulPow10(v int64, k int) (int64, bool) {
	neg := v < 0
	hi, lo := bits.Mul64(qtyAbs(v), qtyPow10(k))
	if hi != 0 {
		return 0, false
	}
	if neg {
		if lo > 1<<63 {
			return 0, false
		}
		return int64(-lo), true
	}
	if lo > math.MaxInt64 {
		return 0, false
	}
	return int64(lo), true
}

// Cmp returns -1, 0 or +1 as q is less than, equal to or greater than o,
// comparing values only: "1000m", "1" and "1e0" are equal.
func (q Quantity) Cmp(o Quantity) int {
	if q.wide != nil || o.wide != nil {
		return qtyCmpWide(q, o)
	}
	if q.scale == o.scale {
		return qtyCompare(q.mant, o.mant)
	}
	sq, so := q.Sign(), o.Sign()
	if sq != so {
		return qtyCompare(int64(sq), int64(so))
	}
	if sq == 0 {
		return 0
	}
	ua, ub := qtyAbs(q.mant), qtyAbs(o.mant)
	// The position of the leading digit decides, unless it is the same;
	// then the scales differ by at most 18 and a 128-bit product settles it.
	pa := int64(qtyDigits(ua)) + int64(q.scale)
	pb := int64(qtyDigits(ub)) + int64(o.scale)
	var c int
	switch {
	case pa != pb:
		c = qtyCompare(pa, pb)
	case q.scale > o.scale:
		hi, lo := bits.Mul64(ua, qtyPow10(int(int64(q.scale)-int64(o.scale))))
		c = qtyCmp128(hi, lo, 0, ub)
	default:
		hi, lo := bits.Mul64(ub, qtyPow10(int(int64(o.scale)-int64(q.scale))))
		c = qtyCmp128(0, ua, hi, lo)
	}
	return c * sq
}

// qtyCmpWide compares when at least one mantissa is a big.Int.
func qtyCmpWide(q, o Quantity) int {
	sq, so := q.Sign(), o.Sign()
	if sq != so {
		return qtyCompare(int64(sq), int64(so))
	}
	if sq == 0 {
		return 0
	}
	a, b := q.bigMant(), o.bigMant()
	a.Abs(a)
	b.Abs(b)
	loA, hiA := qtyDigitBounds(a)
	loB, hiB := qtyDigitBounds(b)
	ea, eb := int64(q.scale), int64(o.scale)
	switch {
	case loA+ea > hiB+eb:
		return sq
	case hiA+ea < loB+eb:
		return -sq
	}
	// The leading digits are close, so the scales differ by no more than
	// the mantissas' lengths: aligning them is cheap.
	switch {
	case ea > eb:
		a.Mul(a, qtyBigPow10(ea-eb))
	case eb > ea:
		b.Mul(b, qtyBigPow10(eb-ea))
	}
	return a.Cmp(b) * sq
}

// Equal reports whether q and o have the same value, whatever their
// formats or representations. go-cmp uses it.
func (q Quantity) Equal(o Quantity) bool { return q.Cmp(o) == 0 }

// Value returns q as a whole number, rounded away from zero (1.2 is 2 and
// -1.2 is -2), like resource.Quantity.Value. A result beyond int64
// saturates at math.MaxInt64 or math.MinInt64.
func (q Quantity) Value() int64 { return q.ScaledValue(0) }

// MilliValue returns q in thousandths, rounded away from zero ("0.1m" is 1),
// like resource.Quantity.MilliValue. It saturates like Value.
func (q Quantity) MilliValue() int64 { return q.ScaledValue(-3) }

// MaxMilliValue is the largest whole amount whose thousandths (MilliValue)
// fit an int64. Upstream's LimitRange checks compare amounts in
// thousandths up to it and in whole units beyond (the LimitRanger plugin's
// maxLimitRequestRatio, the LimitRange validation's bound on that ratio).
const MaxMilliValue = math.MaxInt64 / 1000

// ScaledValue returns q / 10^scale rounded away from zero, like
// resource.Quantity.ScaledValue: for "1" ScaledValue(-3) is 1000 and
// ScaledValue(3) is 1. It saturates like Value.
//
// Two deliberate deviations, both outside what pods and nodes carry:
// Kubernetes wraps around instead of saturating, and for a negative
// quantity it holds in big-decimal form (a negative value finer than the
// nano unit, a fractional binary one, or one beyond 18 digits) it
// truncates and then adds one, so "-1.0000000001" has Value 0 there
// where this gives -2. Non-negative results within int64 agree exactly.
func (q Quantity) ScaledValue(scale int32) int64 {
	if q.IsZero() {
		return 0
	}
	neg := q.Sign() < 0
	delta := int64(q.scale) - int64(scale)
	if q.wide == nil {
		if delta >= 0 {
			if delta <= 19 {
				if v, ok := qtyMulPow10(q.mant, int(delta)); ok {
					return v
				}
			}
			return qtySaturate(neg)
		}
		return qtyDivRoundAway(q.mant, -delta)
	}
	if delta >= 0 {
		return qtySaturate(neg) // a wide mantissa is already beyond int64
	}
	m := new(big.Int).Abs(q.wide)
	k := -delta
	if _, hi := qtyDigitBounds(m); k >= hi {
		if neg {
			return -1
		}
		return 1
	}
	r := new(big.Int)
	m.QuoRem(m, qtyBigPow10(k), r)
	if r.Sign() != 0 {
		m.Add(m, big.NewInt(1))
	}
	if neg {
		m.Neg(m)
	}
	if !m.IsInt64() {
		return qtySaturate(neg)
	}
	return m.Int64()
}

// qtyDivRoundAway returns v / 10^k rounded away from zero, for k > 0.
func qtyDivRoundAway(v int64, k int64) int64 {
	if k >= 20 {
		if v < 0 {
			return -1
		}
		return 1
	}
	p := qtyPow10(int(k))
	u := qtyAbs(v)
	r := u / p
	if u%p != 0 {
		r++
	}
	if v < 0 {
		return -int64(r)
	}
	return int64(r)
}

func qtySaturate(neg bool) int64 {
	if neg {
		return math.MinInt64
	}
	return math.MaxInt64
}

// AsInt64 returns q as an int64 and true when q is a whole number that
// fits one, and 0 and false otherwise. (resource.Quantity.AsInt64 also
// says false for some such values, depending on how they were written;
// this one depends on the value only.)
func (q Quantity) AsInt64() (int64, bool) {
	if q.wide == nil {
		switch {
		case q.mant == 0 || q.scale == 0:
			return q.mant, true
		case q.scale > 0:
			if q.scale > 19 {
				return 0, false
			}
			return qtyMulPow10(q.mant, int(q.scale))
		case q.scale < -19:
			return 0, false
		}
		p := qtyPow10(int(-q.scale))
		if qtyAbs(q.mant)%p != 0 {
			return 0, false
		}
		return q.mant / int64(p), true
	}
	if q.scale >= 0 {
		return 0, false
	}
	m := new(big.Int).Set(q.wide)
	k := -int64(q.scale)
	if _, hi := qtyDigitBounds(m); k >= hi {
		return 0, false
	}
	r := new(big.Int)
	m.QuoRem(m, qtyBigPow10(k), r)
	if r.Sign() != 0 || !m.IsInt64() {
		return 0, false
	}
	return m.Int64(), true
}

// AsApproximateFloat64 returns q as the nearest float64 the computation
// mantissa × 10^scale reaches, like resource.Quantity.AsApproximateFloat64;
// it may lose precision and gives ±Inf beyond the float64 range.
func (q Quantity) AsApproximateFloat64() float64 {
	if q.IsZero() {
		return 0
	}
	var base float64
	if q.wide != nil {
		base, _ = new(big.Float).SetInt(q.wide).Float64()
	} else {
		base = float64(q.mant)
	}
	if q.scale == 0 {
		return base
	}
	return base * math.Pow10(int(q.scale))
}

// String returns the canonical spelling of q, the one Kubernetes
// serializes (resource.Quantity.CanonicalizeBytes): the largest suffix of
// q's format that keeps the number whole, "0" for zero, and a leading "-"
// for negative values. "1.5Gi" prints "1536Mi", "0.5" prints "500m",
// "1000m" prints "1" and "1e3" prints "1e3".
//
// A BinarySI quantity below 1024 in magnitude or with a fraction prints as
// DecimalSI; a DecimalSI power of ten beyond the "n"..."E" suffixes prints
// with an exponent ("1000E" prints "1e21", where Kubernetes drops the
// magnitude and prints "1"); a quantity with an unknown format prints as
// DecimalExponent.
//
// Kubernetes also keeps the original spelling of a parsed quantity it
// judges canonical ("+5" or "1.500" print as written); String here always
// prints the canonical form, the one Kubernetes prints after any
// arithmetic.
func (q Quantity) String() string {
	if q.IsZero() {
		return "0"
	}
	f := q.format
	switch f {
	case DecimalSI, DecimalExponent:
	case BinarySI:
		if q.Cmp(NewQuantity(-1024, DecimalSI)) > 0 && q.Cmp(NewQuantity(1024, DecimalSI)) < 0 {
			f = DecimalSI
		} else if s, ok := q.binaryString(); ok {
			return s
		} else {
			f = DecimalSI
		}
	default:
		f = DecimalExponent
	}
	var digits string
	if q.wide != nil {
		digits = new(big.Int).Abs(q.wide).Text(10)
	} else {
		digits = strconv.FormatUint(qtyAbs(q.mant), 10)
	}
	exp := int64(q.scale)
	trimmed := strings.TrimRight(digits, "0")
	exp += int64(len(digits) - len(trimmed))
	digits = trimmed
	switch ((exp % 3) + 3) % 3 {
	case 1:
		digits += "0"
		exp--
	case 2:
		digits += "00"
		exp -= 2
	}
	var b strings.Builder
	b.Grow(len(digits) + 8)
	if q.Sign() < 0 {
		b.WriteByte('-')
	}
	b.WriteString(digits)
	if f == DecimalSI {
		if exp >= -9 && exp <= 18 {
			b.WriteString(qtyDecimalSuffix(exp))
			return b.String()
		}
		// No SI letter is that large or small: fall back to an exponent.
		// Kubernetes instead prints the digits with no suffix at all and
		// so loses the magnitude ("1000E" prints "1"); this deliberate
		// deviation keeps String exact and round-trippable.
	}
	if exp != 0 {
		b.WriteByte('e')
		b.WriteString(strconv.FormatInt(exp, 10))
	}
	return b.String()
}

// binaryString prints q with a binary suffix, or reports false when q is
// not a whole number.
func (q Quantity) binaryString() (string, bool) {
	suffixes := [...]string{"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}
	if q.wide == nil && q.scale == 0 {
		u := qtyAbs(q.mant)
		k := 0
		for k < 6 && u%1024 == 0 {
			u /= 1024
			k++
		}
		s := strconv.FormatUint(u, 10) + suffixes[k]
		if q.mant < 0 {
			s = "-" + s
		}
		return s, true
	}
	m := q.bigMant()
	neg := m.Sign() < 0
	m.Abs(m)
	if q.scale > 0 {
		m.Mul(m, qtyBigPow10(int64(q.scale)))
	} else if q.scale < 0 {
		k := -int64(q.scale)
		if _, hi := qtyDigitBounds(m); k >= hi {
			return "", false
		}
		r := new(big.Int)
		m.QuoRem(m, qtyBigPow10(k), r)
		if r.Sign() != 0 {
			return "", false
		}
	}
	// Ei is the largest binary suffix; Kubernetes would drop the suffix of
	// a larger power and print a wrong value, so stop there.
	k := min(int(m.TrailingZeroBits()/10), 6)
	m.Rsh(m, uint(10*k))
	s := m.Text(10) + suffixes[k]
	if neg {
		s = "-" + s
	}
	return s, true
}

func qtyDecimalSuffix(exp int64) string {
	switch exp {
	case -9:
		return "n"
	case -6:
		return "u"
	case -3:
		return "m"
	case 3:
		return "k"
	case 6:
		return "M"
	case 9:
		return "G"
	case 12:
		return "T"
	case 15:
		return "P"
	case 18:
		return "E"
	}
	return ""
}

// MarshalJSON writes q as a JSON string holding its canonical spelling
// (String), as Kubernetes does.
func (q Quantity) MarshalJSON() ([]byte, error) {
	s := q.String()
	out := make([]byte, 0, len(s)+2)
	out = append(out, '"')
	out = append(out, s...)
	return append(out, '"'), nil
}

// UnmarshalJSON reads a quantity the way the Kubernetes API server does: a
// JSON string holding a quantity ("500m"), a JSON number read as the
// quantity it spells (0.5 is 500m, 1e3 is 1e3), or null, which gives the
// zero Quantity. Whitespace around the text inside the string is ignored;
// the string's contents are taken literally (escapes are not decoded). Any
// other JSON value (true, an object, a list) is an error wrapping
// ErrFormatWrong that says so. A nil *Quantity cannot hold the result: the
// error wraps ErrInvalidInput.
func (q *Quantity) UnmarshalJSON(data []byte) error {
	if q == nil {
		return fmt.Errorf("%w: Quantity: nil pointer", errInvalidInput)
	}
	switch jsonKindOf(data) {
	case "null":
		*q = Quantity{}
		return nil
	case "string", "number":
	default:
		return &jsonKindError{want: "quantity must be a string or a number", got: data, is: ErrFormatWrong}
	}
	if l := len(data); l >= 2 && data[0] == '"' && data[l-1] == '"' {
		data = data[1 : l-1]
	}
	parsed, err := ParseQuantity(strings.TrimSpace(string(data)))
	if err != nil {
		return err
	}
	*q = parsed
	return nil
}

// bigMant returns a fresh copy of q's signed mantissa.
func (q Quantity) bigMant() *big.Int {
	if q.wide != nil {
		return new(big.Int).Set(q.wide)
	}
	return big.NewInt(q.mant)
}

func qtyAbs(v int64) uint64 {
	if v < 0 {
		return uint64(-v) // also right for math.MinInt64
	}
	return uint64(v)
}

func qtyCompare(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func qtyCmp128(ahi, alo, bhi, blo uint64) int {
	switch {
	case ahi != bhi:
		if ahi < bhi {
			return -1
		}
		return 1
	case alo < blo:
		return -1
	case alo > blo:
		return 1
	}
	return 0
}

// qtyPow10 returns 10^k for 0 <= k <= 19.
func qtyPow10(k int) uint64 {
	p := uint64(1)
	for ; k >= 4; k -= 4 {
		p *= 10000
	}
	for ; k > 0; k-- {
		p *= 10
	}
	return p
}

// qtyDigits returns the number of decimal digits of u (1 for 0).
func qtyDigits(u uint64) int {
	d := (bits.Len64(u)*1233)>>12 + 1 // log10(2) ~ 1233/4096; off by at most one
	if d < 20 && u >= qtyPow10(d) {
		d++
	} else if d > 1 && u < qtyPow10(d-1) {
		d--
	}
	return d
}

// qtyDigitBounds brackets the number of decimal digits of a non-negative
// x from its bit length, without printing it.
func qtyDigitBounds(x *big.Int) (lo, hi int64) {
	n := float64(x.BitLen())
	lo = int64(math.Max(n-1, 0) * math.Log10(2)) // one below the true lower bound, for safety
	hi = int64(n*math.Log10(2)) + 2              // one above the true upper bound, for safety
	return lo, hi
}

// qtyBigPow10 returns 10^k as a new big.Int, for k >= 0.
func qtyBigPow10(k int64) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(k), nil)
}
