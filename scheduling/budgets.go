package scheduling

import (
	"fmt"
	"sort"

	"github.com/podsem/podsem/api"
)

// SetPodDisruptionBudget records a PodDisruptionBudget (with its status),
// replacing the one of the same namespace and name, as the scheduler's
// PodDisruptionBudget informer holds it. No filter or score reads budgets:
// they are there for PostFilter plugins (DefaultPreemption prefers victims
// whose eviction violates no budget), which read them with
// PodDisruptionBudgets. A nil budget, one without a name, or a nil Cluster
// is an error wrapping api.ErrInvalidInput.
func (c *Cluster) SetPodDisruptionBudget(pdb *api.PodDisruptionBudget) error {
	if c == nil {
		return errNilCluster
	}
	if pdb == nil {
		return fmt.Errorf("%w: podDisruptionBudget: nil", errInvalidInput)
	}
	if pdb.Name == "" {
		return fmt.Errorf("%w: podDisruptionBudget without metadata.name", errInvalidInput)
	}
	if c.budgets == nil {
		c.budgets = map[string]*api.PodDisruptionBudget{}
	}
	c.budgets[pdb.Namespace+"/"+pdb.Name] = pdb
	c.budgetList = nil
	return nil
}

// RemovePodDisruptionBudget forgets the budget with that namespace and
// name; it fails when there is none, and on a nil Cluster (errors wrapping
// api.ErrInvalidInput).
func (c *Cluster) RemovePodDisruptionBudget(namespace, name string) error {
	if c == nil {
		return errNilCluster
	}
	key := namespace + "/" + name
	if c.budgets[key] == nil {
		return fmt.Errorf("%w: no podDisruptionBudget %q", errInvalidInput, key)
	}
	delete(c.budgets, key)
	c.budgetList = nil
	return nil
}

// PodDisruptionBudgets returns every budget the snapshot holds, sorted by
// namespace/name, for PostFilter plugins that weigh evictions against
// them. The slice belongs to the Cluster and stays valid until the budgets
// next change; nil when there are none (and for a nil Cluster).
func (c *Cluster) PodDisruptionBudgets() []*api.PodDisruptionBudget {
	if c == nil || len(c.budgets) == 0 {
		return nil
	}
	if c.budgetList == nil {
		keys := make([]string, 0, len(c.budgets))
		for k := range c.budgets {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		c.budgetList = make([]*api.PodDisruptionBudget, len(keys))
		for i, k := range keys {
			c.budgetList[i] = c.budgets[k]
		}
	}
	return c.budgetList
}
