package downward

import (
	"errors"
	"fmt"
	"sort"

	"github.com/podsem/podsem/api"
)

// MaxExpandedEnvironmentBytes bounds the $(VAR) expansion work of one
// Environment call: the env values it expands (every env entry with a
// non-empty value) may add up to at most this many bytes. The kubelet
// sets no such limit (third_party/forked/golang/expansion), and because a
// redefinition may refer to the variable's earlier value, a pod of under
// 1 KB (A=xx, then A=$(A)$(A) 24 times) asks for a 32 MiB value, and
// each further line doubles it. Linux cannot start a container with such
// an environment anyway: execve refuses arguments and environment that
// together pass a quarter of the stack limit, never more than 6 MiB (3/4
// of the kernel's 8 MiB _STK_LIM), and any single "NAME=value" string
// longer than 128 KiB (MAX_ARG_STRLEN); Windows allows a 32 KiB
// environment block. Capping the expanded values at 6 MiB therefore
// changes the answer for no environment a container could receive, and
// bounds the work (and the memory) of one call to a few MiB whatever the
// pod.
const MaxExpandedEnvironmentBytes = 6 << 20

// EnvVar is one variable of a container's resolved environment.
type EnvVar struct {
	Name  string
	Value string
}

// Lookup gives Environment the ConfigMaps and Secrets a container's env
// and envFrom refer to, in the pod's namespace. A missing object is
// reported with an error wrapping ErrNotFound (optional references are
// then skipped); any other error fails the environment, as a failed read
// fails the kubelet's container start. Only a ConfigMap's data (not its
// binaryData) feeds environment variables.
type Lookup interface {
	ConfigMap(namespace, name string) (map[string]string, error)
	Secret(namespace, name string) (map[string][]byte, error)
}

// FileLookup is implemented by a Lookup that can also read the env files
// fileKeyRef points at (KEP-3721): the KEY=VALUE pairs of the file at
// path inside the pod volume volumeName. A missing file is an error
// wrapping ErrNotFound.
type FileLookup interface {
	EnvFile(volumeName, path string) (map[string]string, error)
}

// Objects is a Lookup (and FileLookup) over in-memory maps. ConfigMaps
// and Secrets are keyed "namespace/name", EnvFiles "volumeName/path".
type Objects struct {
	ConfigMaps map[string]map[string]string
	Secrets    map[string]map[string][]byte
	EnvFiles   map[string]map[string]string
}

// ConfigMap returns the data of namespace/name, or ErrNotFound.
func (o Objects) ConfigMap(namespace, name string) (map[string]string, error) {
	if d, ok := o.ConfigMaps[namespace+"/"+name]; ok {
		return d, nil
	}
	return nil, fmt.Errorf("configmap %s/%s: %w", namespace, name, ErrNotFound)
}

// Secret returns the data of namespace/name, or ErrNotFound.
func (o Objects) Secret(namespace, name string) (map[string][]byte, error) {
	if d, ok := o.Secrets[namespace+"/"+name]; ok {
		return d, nil
	}
	return nil, fmt.Errorf("secret %s/%s: %w", namespace, name, ErrNotFound)
}

// EnvFile returns the variables of the env file volumeName/path, or
// ErrNotFound.
func (o Objects) EnvFile(volumeName, path string) (map[string]string, error) {
	if d, ok := o.EnvFiles[volumeName+"/"+path]; ok {
		return d, nil
	}
	return nil, fmt.Errorf("env file %s in volume %s: %w", path, volumeName, ErrNotFound)
}

// Environment returns the environment the kubelet gives the named
// container of pod (a container, init container or ephemeral container)
// when it starts it (Kubelet.makeEnvironmentVariables).
//
// The rules, in upstream's order:
//
//  1. Each envFrom source, in order, adds every key of its ConfigMap or
//     Secret, prefixed with its prefix; a later source overrides an
//     earlier one. A missing optional source adds nothing.
//  2. Each env entry, in order, then sets its variable: a non-empty value
//     is expanded with Expand against the variables set so far (envFrom
//     keys and earlier env entries, including an earlier value of the
//     same name) and then ctx.ServiceEnv; references to anything else stay
//     as written. Otherwise valueFrom is resolved: fieldRef with FieldRef
//     in Env mode, resourceFieldRef with ResourceFieldRef defaulting
//     unset limits from ctx.Node's allocatable (a nil node is an error, as
//     the kubelet cannot start the container without its Node),
//     configMapKeyRef, secretKeyRef and fileKeyRef through lookup. A
//     missing optional object or key leaves the variable as it was
//     (unset, or its envFrom value). An entry with neither is "".
//     Resolved values are not expanded.
//  3. Service variables of ctx.ServiceEnv the container does not define
//     come last.
//
// The expanded values of step 2 may total at most
// MaxExpandedEnvironmentBytes; the env entry that would pass the limit is
// an error naming it and wrapping ErrExpansionLimit and
// api.ErrInvalidInput, returned before the oversized value is built.
//
// The kubelet hands the runtime these variables in no particular order;
// Environment lists them deterministically: in the order each name was
// first set (each envFrom source's keys sorted), a redefinition keeping
// its place and taking the new value, then the remaining service
// variables sorted by name. Each name appears once.
//
// A nil ctx is an empty Context and a nil lookup none (ErrNoLookup when the
// container needs one); a nil pod is an error wrapping api.ErrInvalidInput.
func Environment(pod *api.Pod, container string, ctx *Context, lookup Lookup) ([]EnvVar, error) {
	if pod == nil {
		return nil, fmt.Errorf("%w: pod: nil", errInvalidInput)
	}
	if ctx == nil {
		ctx = &Context{}
	}
	ref, ok := pod.Spec.FindContainer(container)
	if !ok {
		return nil, fmt.Errorf("%w: %q is not a container of pod %q", ErrContainerNotFound, container, pod.Name)
	}
	c := ref.Container
	ns := pod.Namespace
	env := envBuilder{vals: make(map[string]string, len(c.Env))}

	for i, from := range c.EnvFrom {
		switch {
		case from.ConfigMapRef != nil:
			data, skip, err := fetchConfigMap(lookup, ns, from.ConfigMapRef.Name, from.ConfigMapRef.Optional)
			if err != nil {
				return nil, fmt.Errorf("envFrom[%d]: %w", i, err)
			}
			if skip {
				continue
			}
			for _, k := range sortedKeys(data) {
				env.set(from.Prefix+k, data[k])
			}
		case from.SecretRef != nil:
			data, skip, err := fetchSecret(lookup, ns, from.SecretRef.Name, from.SecretRef.Optional)
			if err != nil {
				return nil, fmt.Errorf("envFrom[%d]: %w", i, err)
			}
			if skip {
				continue
			}
			for _, k := range sortedKeys(data) {
				env.set(from.Prefix+k, string(data[k]))
			}
		}
	}

	resolve := func(name string) (string, bool) {
		if v, ok := env.vals[name]; ok {
			return v, true
		}
		v, ok := ctx.ServiceEnv[name]
		return v, ok
	}
	budget := MaxExpandedEnvironmentBytes
	for i, ev := range c.Env {
		if ev.Value != "" {
			val, ok := expand(ev.Value, resolve, budget)
			if !ok {
				return nil, fmt.Errorf("%w: env[%d] %q: %w: the expanded values would pass %d bytes", errInvalidInput, i, ev.Name, ErrExpansionLimit, MaxExpandedEnvironmentBytes)
			}
			budget -= len(val)
			env.set(ev.Name, val)
			continue
		}
		val, set, err := envValue(pod, c, ev, ctx, lookup)
		if err != nil {
			return nil, fmt.Errorf("env[%d] %q: %w", i, ev.Name, err)
		}
		if set {
			env.set(ev.Name, val)
		}
	}

	out := make([]EnvVar, 0, len(env.order)+len(ctx.ServiceEnv))
	for _, name := range env.order {
		out = append(out, EnvVar{Name: name, Value: env.vals[name]})
	}
	for _, name := range sortedKeys(ctx.ServiceEnv) {
		if _, ok := env.vals[name]; !ok {
			out = append(out, EnvVar{Name: name, Value: ctx.ServiceEnv[name]})
		}
	}
	return out, nil
}

// envBuilder keeps variables with the order of their first definition.
type envBuilder struct {
	vals  map[string]string
	order []string
}

func (b *envBuilder) set(name, value string) {
	if _, ok := b.vals[name]; !ok {
		b.order = append(b.order, name)
	}
	b.vals[name] = value
}

// envValue resolves one env entry without a value; set is false when an optional source
// is missing and the variable is left alone.
func envValue(pod *api.Pod, c *api.Container, ev api.EnvVar, ctx *Context, lookup Lookup) (val string, set bool, err error) {
	from := ev.ValueFrom
	if from == nil {
		return "", true, nil
	}
	switch {
	case from.FieldRef != nil:
		v, err := FieldRef(pod, *from.FieldRef, Env, ctx)
		return v, err == nil, err
	case from.ResourceFieldRef != nil:
		if ctx.Node == nil {
			return "", false, fmt.Errorf("%w: resourceFieldRef needs the node's allocatable", ErrNoNode)
		}
		alloc := ctx.Node.Status.Allocatable
		if alloc == nil {
			alloc = api.ResourceList{}
		}
		v, err := ResourceFieldRef(pod, c.Name, *from.ResourceFieldRef, alloc)
		return v, err == nil, err
	case from.ConfigMapKeyRef != nil:
		ref := from.ConfigMapKeyRef
		data, skip, err := fetchConfigMap(lookup, pod.Namespace, ref.Name, ref.Optional)
		return keyValue(data, skip, err, ref.Key, ref.Optional, "ConfigMap", pod.Namespace, ref.Name)
	case from.SecretKeyRef != nil:
		ref := from.SecretKeyRef
		data, skip, err := fetchSecret(lookup, pod.Namespace, ref.Name, ref.Optional)
		return keyValue(data, skip, err, ref.Key, ref.Optional, "Secret", pod.Namespace, ref.Name)
	case from.FileKeyRef != nil:
		ref := from.FileKeyRef
		fl, ok := lookup.(FileLookup)
		if lookup == nil || !ok {
			return "", false, fmt.Errorf("%w: fileKeyRef %s in volume %s needs a FileLookup", ErrNoLookup, ref.Path, ref.VolumeName)
		}
		data, err := fl.EnvFile(ref.VolumeName, ref.Path)
		if err != nil {
			if errors.Is(err, ErrNotFound) && isTrue(ref.Optional) {
				return "", false, nil
			}
			return "", false, err
		}
		v, ok := data[ref.Key]
		if !ok {
			if isTrue(ref.Optional) {
				return "", false, nil
			}
			return "", false, fmt.Errorf("%w: couldn't find key %q in env file %s of volume %s", ErrMissingKey, ref.Key, ref.Path, ref.VolumeName)
		}
		return v, true, nil
	}
	return "", true, nil
}

func fetchConfigMap(lookup Lookup, ns, name string, optional *bool) (map[string]string, bool, error) {
	if lookup == nil {
		return nil, false, fmt.Errorf("%w: couldn't get configMap %s/%s", ErrNoLookup, ns, name)
	}
	data, err := lookup.ConfigMap(ns, name)
	if err != nil {
		if errors.Is(err, ErrNotFound) && isTrue(optional) {
			return nil, true, nil
		}
		return nil, false, err
	}
	return data, false, nil
}

func fetchSecret(lookup Lookup, ns, name string, optional *bool) (map[string][]byte, bool, error) {
	if lookup == nil {
		return nil, false, fmt.Errorf("%w: couldn't get secret %s/%s", ErrNoLookup, ns, name)
	}
	data, err := lookup.Secret(ns, name)
	if err != nil {
		if errors.Is(err, ErrNotFound) && isTrue(optional) {
			return nil, true, nil
		}
		return nil, false, err
	}
	return data, false, nil
}

// keyValue reads key from a fetched ConfigMap's or Secret's data: a
// skipped (missing, optional) object or a missing optional key leaves the
// variable unset; a missing required key is an error naming it.
func keyValue[V string | []byte](data map[string]V, skip bool, err error, key string, optional *bool, kind, ns, name string) (string, bool, error) {
	if err != nil || skip {
		return "", false, err
	}
	v, ok := data[key]
	if !ok {
		if isTrue(optional) {
			return "", false, nil
		}
		return "", false, fmt.Errorf("%w: couldn't find key %q in %s %s/%s", ErrMissingKey, key, kind, ns, name)
	}
	return string(v), true, nil
}

func isTrue(b *bool) bool { return b != nil && *b }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
