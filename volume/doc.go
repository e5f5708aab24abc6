// Package volume holds kube-controller-manager's storage controllers'
// rules as Kubernetes v1.36.3 runs them, as pure functions and machines:
//
//   - the PersistentVolume controller (pkg/controller/volume/persistentvolume,
//     the "persistentvolume-binder"): SyncClaim and SyncVolume decide the
//     binding of claims and volumes — Immediate vs WaitForFirstConsumer
//     classes, the hand-over to an external provisioner (the
//     storage-provisioner annotations and the ExternalProvisioning event),
//     the bind-completed and bound-by-controller annotations, the claim
//     and volume phases, the release and reclaim policy of a volume whose
//     claim is gone, and the default StorageClass given to a claim that
//     asks for none (api.DefaultStorageClassOf, the retroactive
//     assignment); PersistentVolumeController runs them on
//     informer events and every --pvclaimbinder-sync-period;
//   - the attach-detach controller (pkg/controller/volume/attachdetach):
//     DesiredState (which volumes the pods scheduled to each node need
//     attached), DecideDetach (the reconciler's detach rule, with
//     maxWaitForUnmountDuration's forced detach on an unhealthy node and
//     the out-of-service taint's immediate one), MultiAttachMessage (the
//     "Multi-Attach error" a pod gets while its ReadWriteOnce volume is
//     attached to another node), and AttachDetachController, the
//     reconciler as a machine creating and deleting CSI
//     VolumeAttachments;
//   - the pvc-protection and pv-protection controllers
//     (pkg/controller/volume/pvcprotection, pvprotection): SyncClaimProtection
//     removes the kubernetes.io/pvc-protection finalizer from a claim being
//     deleted once no pod uses it (PodUsesClaimForDeletion: a pod bound to
//     a node whose volumes name the claim, until it is removed), and
//     SyncVolumeProtection kubernetes.io/pv-protection from a volume being
//     deleted once it is not Bound; each adds its finalizer to an object
//     that lacks it; ClaimProtectionQueued, VolumeProtectionQueued and
//     ClaimsOfPodEvent say which informer events make them look.
//
// Every answer is a value: the API writes to make and the events to
// record (with upstream's reasons and messages); the caller performs
// them. Dynamic provisioning itself (an external provisioner creating the
// PersistentVolume) and attaching (an external-attacher setting
// status.attached) are not Kubernetes' rules but a CSI driver's; the
// cluster package models them as the e2e harness does.
package volume
