// Package disruption will own voluntary disruptions: PodDisruptionBudget
// arithmetic as the disruption controller computes it, the Eviction API's
// decision, disruption conditions, and kubectl drain's pod selection.
package disruption
