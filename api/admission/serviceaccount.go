package admission

import "github.com/podsem/podsem/api"

// DefaultServiceAccountName is the service account a pod without one runs
// as; every namespace has it (the ServiceAccount controller creates it).
const DefaultServiceAccountName = "default"

// ServiceAccount is the ServiceAccount admission plugin's part in a pod
// create that decides whether it is accepted: a pod without
// spec.serviceAccountName gets DefaultServiceAccountName, and a pod whose
// service account is not one of accounts (the names of the ServiceAccounts
// of its namespace; "default" always counts) is refused, a Forbidden
// *Error naming the pod by name ("pods \"web-5d8f7-\" is forbidden: error
// looking up service account shop/builder: serviceaccount \"builder\" not
// found": the plugin mutates before the API server generates a name, so a
// generated pod is named by its generateName). The token volume it mounts
// is not modelled. A nil pod is accepted.
func ServiceAccount(pod *api.Pod, name string, accounts []string) error {
	if pod == nil {
		return nil
	}
	if pod.Spec.ServiceAccountName == "" {
		pod.Spec.ServiceAccountName = DefaultServiceAccountName
	}
	sa := pod.Spec.ServiceAccountName
	if sa == DefaultServiceAccountName {
		return nil
	}
	for _, a := range accounts {
		if a == sa {
			return nil
		}
	}
	return &Error{Reason: "Forbidden", Resource: "pods", Name: name,
		Detail: "error looking up service account " + pod.Namespace + "/" + sa + `: serviceaccount "` + sa + `" not found`}
}
