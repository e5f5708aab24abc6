package main

import "strings"

func writeMermaid(b *strings.Builder, r *report) {}
