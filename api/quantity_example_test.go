package api_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/podsem/podsem/api"
)

func ExampleParseQuantity() {
	for _, s := range []string{"1.5Gi", "0.5", "1000m", "1e3", "+1", ".5", "0.1m", "1024Ki", "0.0000000001"} {
		q, err := api.ParseQuantity(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%-12s %-8s %s\n", s, q, q.Format())
	}
	_, err := api.ParseQuantity("1 Gi")
	fmt.Println(err, errors.Is(err, api.ErrFormatWrong))
	// Output:
	// 1.5Gi        1536Mi   BinarySI
	// 0.5          500m     DecimalSI
	// 1000m        1        DecimalSI
	// 1e3          1e3      DecimalExponent
	// +1           1        DecimalSI
	// .5           500m     DecimalSI
	// 0.1m         100u     DecimalSI
	// 1024Ki       1Mi      BinarySI
	// 0.0000000001 1n       DecimalSI
	// quantity "1 Gi": unexpected " " at offset 1 true
}

func ExampleQuantity_Cmp() {
	a := api.MustParseQuantity("1000m")
	b := api.MustParseQuantity("1")
	c := api.MustParseQuantity("1Gi")
	d := api.MustParseQuantity("1G")
	fmt.Println(a.Cmp(b), a.Equal(b), c.Cmp(d), d.Cmp(c))
	fmt.Println(c.Add(d), c.Sub(d), d.Sub(c))
	// Output:
	// 0 true 1 -1
	// 2073741824 73741824 -73741824
}

func ExampleQuantity_Value() {
	for _, s := range []string{"1.2", "-1.2", "100m", "0.1m", "1Ki", "1n"} {
		q := api.MustParseQuantity(s)
		fmt.Printf("%s: Value %d, MilliValue %d\n", s, q.Value(), q.MilliValue())
	}
	// Output:
	// 1.2: Value 2, MilliValue 1200
	// -1.2: Value -2, MilliValue -1200
	// 100m: Value 1, MilliValue 100
	// 0.1m: Value 1, MilliValue 1
	// 1Ki: Value 1024, MilliValue 1024000
	// 1n: Value 1, MilliValue 1
}

func ExampleQuantity_UnmarshalJSON() {
	var limits map[string]api.Quantity
	err := json.Unmarshal([]byte(`{"cpu": 0.5, "memory": "1.5Gi", "pods": 110, "storage": null}`), &limits)
	fmt.Println(err)
	out, _ := json.Marshal(limits)
	fmt.Println(string(out))
	// Output:
	// <nil>
	// {"cpu":"500m","memory":"1536Mi","pods":"110","storage":"0"}
}
