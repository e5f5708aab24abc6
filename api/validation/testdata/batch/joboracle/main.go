// Command joboracle prints kube-apiserver v1.36.3's validation errors for
// batch/v1 Jobs given as JSON. Each object is decoded and defaulted as the
// API server does (legacyscheme, batch/v1 defaults, conversion to the
// internal batch types), given the uid the API server assigns before the
// registry sees it (a fixed one when the JSON has none), then run through
// the Job registry strategy itself (pkg/registry/batch/job): for a create
// PrepareForCreate (which generates the selector and the template labels
// unless manualSelector is set) and Validate; for an update (an "old"
// object, taken as stored: prepared as a create, keeping the status its
// JSON gives) PrepareForUpdate and
// ValidateUpdate. Feature gates are v1.36.3's defaults. It reads a JSON
// array of {name, object, old} on stdin and writes the same array with
// "errors" (each field error's text) and "message" (the 422 Invalid status
// message) added.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	batchv1 "k8s.io/api/batch/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	batch "k8s.io/kubernetes/pkg/apis/batch"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	jobregistry "k8s.io/kubernetes/pkg/registry/batch/job"
)

const fixedUID = "00000000-0000-4000-8000-000000000000"

type vcase struct {
	Name    string          `json:"name"`
	Object  json.RawMessage `json:"object"`
	Old     json.RawMessage `json:"old,omitempty"`
	Errors  []string        `json:"errors"`
	Message string          `json:"message"`
}

func decode(raw json.RawMessage) (*batch.Job, error) {
	ext := &batchv1.Job{}
	if err := json.Unmarshal(raw, ext); err != nil {
		return nil, err
	}
	legacyscheme.Scheme.Default(ext)
	in := &batch.Job{}
	if err := legacyscheme.Scheme.Convert(ext, in, nil); err != nil {
		return nil, err
	}
	if in.UID == "" {
		in.UID = types.UID(fixedUID)
	}
	return in, nil
}

func run(c *vcase) error {
	ctx := genericapirequest.WithNamespace(context.Background(), "default")
	job, err := decode(c.Object)
	if err != nil {
		return err
	}
	var errs field.ErrorList
	if len(c.Old) == 0 {
		jobregistry.Strategy.PrepareForCreate(ctx, job)
		errs = jobregistry.Strategy.Validate(ctx, job)
	} else {
		old, err := decode(c.Old)
		if err != nil {
			return err
		}
		// The old Job is as stored: created (its selector generated),
		// then given the status the JSON shows by the Job controller.
		status := old.Status
		jobregistry.Strategy.PrepareForCreate(ctx, old)
		old.Status = status
		jobregistry.Strategy.PrepareForUpdate(ctx, job, old)
		errs = jobregistry.Strategy.ValidateUpdate(ctx, job, old)
	}
	c.Errors = []string{}
	for _, e := range errs {
		c.Errors = append(c.Errors, e.Error())
	}
	c.Message = ""
	if len(errs) > 0 {
		c.Message = apierrors.NewInvalid(schema.GroupKind{Group: "batch", Kind: "Job"}, job.Name, errs).Error()
	}
	return nil
}

func main() {
	var cases []vcase
	if err := json.NewDecoder(os.Stdin).Decode(&cases); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for i := range cases {
		if err := run(&cases[i]); err != nil {
			fmt.Fprintln(os.Stderr, cases[i].Name, err)
			os.Exit(1)
		}
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(cases); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
