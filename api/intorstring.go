package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// IntOrString holds either an integer or a string, as the API's
// intstr.IntOrString does: ports that may be named, and PodDisruptionBudget
// minAvailable/maxUnavailable that may be percentages ("50%").
type IntOrString struct {
	IsString bool
	IntVal   int32
	StrVal   string
}

// FromInt32 returns an integer IntOrString holding i, as apimachinery's
// intstr.FromInt32 does (IntOrString keeps an int32, as on the wire).
func FromInt32(i int32) IntOrString { return IntOrString{IntVal: i} }

// FromString returns a string IntOrString.
func FromString(s string) IntOrString { return IntOrString{IsString: true, StrVal: s} }

// String renders the value as it is written in a manifest.
func (v IntOrString) String() string {
	if v.IsString {
		return v.StrVal
	}
	return strconv.Itoa(int(v.IntVal))
}

// MarshalJSON writes a JSON number or string.
func (v IntOrString) MarshalJSON() ([]byte, error) {
	if v.IsString {
		return json.Marshal(v.StrVal)
	}
	return json.Marshal(v.IntVal)
}

// UnmarshalJSON reads a JSON number (which must be an integer within int32,
// written without a fraction or exponent) or string. Any other JSON value
// is an error showing it. A nil *IntOrString cannot hold the result: the
// error wraps ErrInvalidInput.
func (v *IntOrString) UnmarshalJSON(b []byte) error {
	if v == nil {
		return fmt.Errorf("%w: IntOrString: nil pointer", errInvalidInput)
	}
	switch jsonKindOf(b) {
	case "string":
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*v = IntOrString{IsString: true, StrVal: s}
		return nil
	case "number":
	default:
		return &jsonKindError{want: "int-or-string must be an integer or a string", got: b}
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return fmt.Errorf("int-or-string %s is not an integer", b)
	}
	if err != nil || n < math.MinInt32 || n > math.MaxInt32 {
		return fmt.Errorf("int-or-string %s is out of int32 range", b)
	}
	*v = IntOrString{IntVal: int32(n)}
	return nil
}

// ScaledValueFromIntOrPercent resolves v against total as the API's
// intstr.GetScaledValueFromIntOrPercent does: an integer is returned as is;
// a percentage "N%" (N read by strconv.Atoi, so "+5%" and "-5%" are
// accepted) is N% of total, rounded up (ceiling) when roundUp is set and
// down (floor, so "-10%" of 5 is -1) otherwise. Like upstream the product
// is formed in float64, so a product beyond 2^53 rounds the way Kubernetes
// rounds it (99999999999999% of 99, rounded up, is 98999999999999). Any
// other string is an error naming the value. A nil v is an error wrapping
// ErrInvalidInput.
func ScaledValueFromIntOrPercent(v *IntOrString, total int, roundUp bool) (int, error) {
	if v == nil {
		return 0, fmt.Errorf("%w: IntOrString: nil", errInvalidInput)
	}
	if !v.IsString {
		return int(v.IntVal), nil
	}
	s, ok := strings.CutSuffix(v.StrVal, "%")
	if !ok {
		return 0, fmt.Errorf("invalid value for IntOrString: invalid type: string is not a percentage: %q", v.StrVal)
	}
	pct, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("invalid value for IntOrString: invalid value %q: %w", v.StrVal, err)
	}
	share := float64(pct) * float64(total) / 100
	if roundUp {
		return int(math.Ceil(share)), nil
	}
	return int(math.Floor(share)), nil
}
