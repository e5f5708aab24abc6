package scheduling

func i32(v int32) *int32 { return &v }
