package proptest

import (
	"fmt"
	"hash/fnv"
)

// nameAlphabet is the alphabet apimachinery's name generator and the
// ReplicaSet controller's hash encoding draw from: no vowels (so no words)
// and no look-alike digits.
const nameAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// encode writes n in nameAlphabet, length characters long.
func encode(n uint64, length int) string {
	b := make([]byte, length)
	for i := range b {
		b[i] = nameAlphabet[n%uint64(len(nameAlphabet))]
		n /= uint64(len(nameAlphabet))
	}
	return string(b)
}

// hashOf is a stable 64-bit hash of the parts.
func hashOf(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// templateHash is a pod-template-hash-like value for a workload's
// template revision: ten characters of nameAlphabet.
func templateHash(namespace, app string, revision int) string {
	return encode(hashOf("template", namespace, app, fmt.Sprint(revision)), 10)
}

// uidOf is a UUID-shaped uid derived from the object's kind and key, so
// that distinct objects get distinct uids without drawing any.
func uidOf(kind, namespace, name string) string {
	a, b := hashOf("uid-a", kind, namespace, name), hashOf("uid-b", kind, namespace, name)
	// Version 4 / variant 1 bits, as a random UUID has them.
	return fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x",
		uint32(a>>32), uint16(a>>16), uint16(a)&0xfff, (uint16(b>>48)&0x3fff)|0x8000, b&0xffffffffffff)
}

func ptr[T any](v T) *T { return &v }
