package api

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	nameMsg = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
		"(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	prefixMsg = "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character " +
		"(e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
	valueMsg = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
		"(e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
)

func TestIsQualifiedName(t *testing.T) {
	good := []string{
		"simple",
		"now-with-dashes",
		"1-starts-with-num",
		"1234",
		"simple/simple",
		"now-with-dashes/simple",
		"now-with-dashes/now-with-dashes",
		"now.with.dots/simple",
		"now-with.dashes-and.dots/simple",
		"1-num.2-num/3-num",
		"1234/5678",
		"1.2.3.4/5678",
		"Uppercase_Is_OK_123",
		"example.com/Uppercase_Is_OK_123",
		"requests.storage-foo",
		strings.Repeat("a", 63),
		strings.Repeat("a", 253) + "/" + strings.Repeat("b", 63),
	}
	for _, s := range good {
		if msgs := IsQualifiedName(s); len(msgs) != 0 {
			t.Errorf("IsQualifiedName(%q) = %q, want valid", s, msgs)
		}
		if msgs := ValidateLabelKey(s); len(msgs) != 0 {
			t.Errorf("ValidateLabelKey(%q) = %q, want valid", s, msgs)
		}
	}
	bad := []string{
		"nospecialchars%^=@",
		"cantendwithadash-",
		"-cantstartwithadash-",
		"only/one/slash",
		"Example.com/abc",
		"example_com/abc",
		"example.com/",
		"/simple",
		strings.Repeat("a", 64),
		strings.Repeat("a", 254) + "/abc",
		"",
		"a b",
		"é",
	}
	for _, s := range bad {
		if msgs := IsQualifiedName(s); len(msgs) == 0 {
			t.Errorf("IsQualifiedName(%q) valid, want invalid", s)
		}
	}
}

func TestIsQualifiedNameMessages(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"a-", []string{nameMsg}},
		{"", []string{"name part must be non-empty", nameMsg}},
		{"/a", []string{"prefix part must be non-empty"}},
		{"a/", []string{"name part must be non-empty", nameMsg}},
		{"A.com/b", []string{prefixMsg}},
		{strings.Repeat("a", 254) + "/b", []string{"prefix part must be no more than 253 bytes"}},
		{strings.Repeat("a", 64), []string{"name part must be no more than 63 bytes"}},
		{"-" + strings.Repeat("a", 64), []string{"name part must be no more than 63 bytes", nameMsg}},
		{"a/b/c", []string{"a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
			"(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') " +
			"with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, IsQualifiedName(tc.in)); diff != "" {
			t.Errorf("IsQualifiedName(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

func TestIsValidLabelValue(t *testing.T) {
	good := []string{"simple", "now-with-dashes", "1-starts-with-num", "end-with-num-1", "1234", strings.Repeat("a", 63), "", "A.B_c-d", "0"}
	for _, s := range good {
		if msgs := IsValidLabelValue(s); len(msgs) != 0 {
			t.Errorf("IsValidLabelValue(%q) = %q, want valid", s, msgs)
		}
		if msgs := ValidateLabelValue(s); len(msgs) != 0 {
			t.Errorf("ValidateLabelValue(%q) = %q, want valid", s, msgs)
		}
	}
	tests := []struct {
		in   string
		want []string
	}{
		{"nospecialchars%^=@", []string{valueMsg}},
		{"Tama-nui-te-rā.Atua-o-te-awatea", []string{valueMsg}},
		{"-starts", []string{valueMsg}},
		{"ends-", []string{valueMsg}},
		{"has space", []string{valueMsg}},
		{"a/b", []string{valueMsg}},
		{strings.Repeat("a", 64), []string{"must be no more than 63 bytes"}},
		{strings.Repeat("a", 64) + "-", []string{"must be no more than 63 bytes", valueMsg}},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, IsValidLabelValue(tc.in)); diff != "" {
			t.Errorf("IsValidLabelValue(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

func TestIsDNS1123(t *testing.T) {
	labelMsg := "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character " +
		"(e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
	subMsg := strings.TrimPrefix(prefixMsg, "prefix part ")
	for _, s := range []string{"a", "ab", "abc", "a1", "a-1", "a--1--2--b", "0", "01", "012", "1a", "1-a", "1--a--b--2", strings.Repeat("a", 63)} {
		if msgs := IsDNS1123Label(s); msgs != nil {
			t.Errorf("IsDNS1123Label(%q) = %q", s, msgs)
		}
		if msgs := IsDNS1123Subdomain(s); msgs != nil {
			t.Errorf("IsDNS1123Subdomain(%q) = %q", s, msgs)
		}
	}
	for _, s := range []string{"a.b", "a.b.c", "1.2.3", "a-1.b-2", strings.Repeat("a", 253)} {
		if msgs := IsDNS1123Subdomain(s); msgs != nil {
			t.Errorf("IsDNS1123Subdomain(%q) = %q", s, msgs)
		}
	}
	labelTests := []struct {
		in   string
		want []string
	}{
		{"", []string{labelMsg}},
		{"A", []string{labelMsg}},
		{"-a", []string{labelMsg}},
		{"a_b", []string{labelMsg}},
		{"a.b", []string{"must not contain dots"}},
		{strings.Repeat("a", 64), []string{"must be no more than 63 characters"}},
	}
	for _, tc := range labelTests {
		if diff := cmp.Diff(tc.want, IsDNS1123Label(tc.in)); diff != "" {
			t.Errorf("IsDNS1123Label(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
	subTests := []struct {
		in   string
		want []string
	}{
		{"", []string{subMsg}},
		{"a..b", []string{subMsg}},
		{"a.", []string{subMsg}},
		{".a", []string{subMsg}},
		{"a.-b", []string{subMsg}},
		{"A.b", []string{subMsg}},
		{strings.Repeat("a", 254), []string{"must be no more than 253 characters"}},
	}
	for _, tc := range subTests {
		if diff := cmp.Diff(tc.want, IsDNS1123Subdomain(tc.in)); diff != "" {
			t.Errorf("IsDNS1123Subdomain(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}
