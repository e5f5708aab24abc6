package api_test

import (
	"strings"
	"testing"

	"github.com/podsem/podsem/api"
)

// A generateName prefix ending in a dash is checked with its last two
// characters masked as one "a", as apimachinery does: a lone "-" is
// refused, and a 254-character prefix ending in a dash fits.
func TestGenerateNamePrefixMask(t *testing.T) {
	if errs := api.NameIsDNSSubdomain("-", true); len(errs) == 0 {
		t.Error(`"-" accepted as a generateName prefix`)
	}
	long := strings.Repeat("a", 253) + "-"
	if errs := api.NameIsDNSSubdomain(long, true); len(errs) != 0 {
		t.Errorf("254-character prefix ending in a dash: %v", errs)
	}
	if errs := api.NameIsDNSSubdomain("web-", true); len(errs) != 0 {
		t.Errorf("web-: %v", errs)
	}
	if errs := api.NameIsDNSLabel("db-", true); len(errs) != 0 {
		t.Errorf("db-: %v", errs)
	}
	if errs := api.NameIsDNSLabel("-", true); len(errs) == 0 {
		t.Error(`"-" accepted as a StatefulSet generateName prefix`)
	}
}
