// Package downward answers what the downward API exposes to a container:
// fieldRef and resourceFieldRef values for environment variables and
// volume files, the volume file format, and the container's resolved
// environment with $(VAR) expansion.
package downward
