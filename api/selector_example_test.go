package api_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

func ExampleParseSelector() {
	sel, err := api.ParseSelector("tier in (web, edge), env!=dev, !canary")
	if err != nil {
		panic(err)
	}
	fmt.Println(sel)
	fmt.Println(sel.Matches(api.Set{"tier": "web", "env": "prod"}))
	fmt.Println(sel.Matches(api.Set{"tier": "web", "canary": "true"}))

	_, err = api.ParseSelector("tier in (web edge)")
	fmt.Println(err)
	// Output:
	// !canary,env!=dev,tier in (edge,web)
	// true
	// false
	// invalid label selector: "tier in (web edge)": position 13: found 'edge', expected: ',' or ')'
}

func ExampleLabelSelectorAsSelector() {
	sel, err := api.LabelSelectorAsSelector(&api.LabelSelector{
		MatchLabels: map[string]string{"app": "db"},
		MatchExpressions: []api.LabelSelectorRequirement{
			{Key: "role", Operator: api.LabelSelectorOpIn, Values: []string{"primary", "replica"}},
		},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(sel)
	fmt.Println(sel.Matches(api.Set{"app": "db", "role": "replica"}))

	_, err = api.LabelSelectorAsSelector(&api.LabelSelector{
		MatchExpressions: []api.LabelSelectorRequirement{{Key: "role", Operator: api.LabelSelectorOpIn}},
	})
	fmt.Println(err)
	// Output:
	// app=db,role in (primary,replica)
	// true
	// invalid label selector: matchExpressions[0].values: Invalid value: "[]": for 'in', 'notin' operators, values set can't be empty
}

func ExampleNewNodeSelectorMatcher() {
	m, err := api.NewNodeSelectorMatcher(&api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{
		{MatchExpressions: []api.NodeSelectorRequirement{
			{Key: "example.com/gpus", Operator: api.NodeSelectorOpGt, Values: []string{"2"}},
		}},
		{MatchFields: []api.NodeSelectorRequirement{
			{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{"special-node"}},
		}},
	}})
	if err != nil {
		panic(err)
	}
	fmt.Println(m.Match("node-a", map[string]string{"example.com/gpus": "4"}))
	fmt.Println(m.Match("node-b", map[string]string{"example.com/gpus": "2"}))
	fmt.Println(m.Match("node-c", map[string]string{"example.com/gpus": "many"}))
	fmt.Println(m.Match("special-node", nil))
	// Output:
	// true
	// false
	// false
	// true
}
