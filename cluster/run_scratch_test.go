package cluster

import (
	"os"
	"testing"
	"time"
)

func TestScratch(t *testing.T) {
	b, _ := os.ReadFile("testdata/deployment-replace.json")
	sc, err := ParseScenario(b)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(sc, time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC))
	for _, r := range res.Records {
		t.Log(r)
	}
	if err != nil {
		t.Fatal(err)
	}
}
