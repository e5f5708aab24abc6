package main

import "github.com/podsem/podsem/api"

// objectMeta returns the metadata of any object api.Decode returns.
func objectMeta(o api.Object) *api.ObjectMeta {
	switch x := o.(type) {
	case *api.Pod:
		return &x.ObjectMeta
	case *api.Node:
		return &x.ObjectMeta
	case *api.Namespace:
		return &x.ObjectMeta
	case *api.PodDisruptionBudget:
		return &x.ObjectMeta
	case *api.PriorityClass:
		return &x.ObjectMeta
	case *api.Eviction:
		return &x.ObjectMeta
	case *api.Service:
		return &x.ObjectMeta
	case *api.Deployment:
		return &x.ObjectMeta
	case *api.ReplicaSet:
		return &x.ObjectMeta
	case *api.StatefulSet:
		return &x.ObjectMeta
	case *api.ReplicationController:
		return &x.ObjectMeta
	case *api.DaemonSet:
		return &x.ObjectMeta
	case *api.Job:
		return &x.ObjectMeta
	case *api.PersistentVolumeClaim:
		return &x.ObjectMeta
	case *api.PersistentVolume:
		return &x.ObjectMeta
	case *api.StorageClass:
		return &x.ObjectMeta
	case *api.CSINode:
		return &x.ObjectMeta
	case *api.CSIDriver:
		return &x.ObjectMeta
	}
	return nil
}

// fromCluster reports whether any object read comes from a cluster
// (kubectl get -o yaml) rather than from a manifest: only the API server
// writes a uid or a resourceVersion, and only the kubelet a pod's phase.
func (in *input) fromCluster() bool {
	for _, d := range in.objects {
		if p, ok := d.obj.(*api.Pod); ok && readFromCluster(p) {
			return true
		}
		if m := objectMeta(d.obj); m != nil && (m.UID != "" || m.ResourceVersion != "") {
			return true
		}
	}
	return false
}
