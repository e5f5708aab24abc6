package scheduling

// entryHeap is a binary min-heap of queue entries under a less function.
// Each entry records its position (queueEntry.index), so an entry can be
// removed or re-sorted in O(log n) without a search; an entry sits in at
// most one heap at a time.
type entryHeap struct {
	items []*queueEntry
	less  func(a, b *queueEntry) bool
}

func (h *entryHeap) len() int { return len(h.items) }

// peek returns the least entry, or nil when the heap is empty.
func (h *entryHeap) peek() *queueEntry {
	if len(h.items) == 0 {
		return nil
	}
	return h.items[0]
}

func (h *entryHeap) push(e *queueEntry) {
	e.index = len(h.items)
	h.items = append(h.items, e)
	h.up(e.index)
}

// pop removes and returns the least entry; the heap must not be empty.
func (h *entryHeap) pop() *queueEntry {
	e := h.items[0]
	h.remove(e)
	return e
}

// remove takes e, which must be in h, out of the heap.
func (h *entryHeap) remove(e *queueEntry) {
	i, last := e.index, len(h.items)-1
	if i != last {
		h.swap(i, last)
	}
	h.items[last] = nil
	h.items = h.items[:last]
	if i != last {
		h.fix(i)
	}
	e.index = -1
}

// fix restores the heap order after the entry at position i changed.
func (h *entryHeap) fix(i int) {
	if !h.down(i) {
		h.up(i)
	}
}

// clear empties the heap, keeping its storage.
func (h *entryHeap) clear() {
	for i := range h.items {
		h.items[i].index = -1
		h.items[i] = nil
	}
	h.items = h.items[:0]
}

func (h *entryHeap) swap(i, j int) {
	h.items[i], h.items[j] = h.items[j], h.items[i]
	h.items[i].index = i
	h.items[j].index = j
}

func (h *entryHeap) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !h.less(h.items[i], h.items[parent]) {
			return
		}
		h.swap(i, parent)
		i = parent
	}
}

// down sifts the entry at i towards the leaves and reports whether it moved.
func (h *entryHeap) down(i int) bool {
	start, n := i, len(h.items)
	for {
		child := 2*i + 1
		if child >= n {
			break
		}
		if r := child + 1; r < n && h.less(h.items[r], h.items[child]) {
			child = r
		}
		if !h.less(h.items[child], h.items[i]) {
			break
		}
		h.swap(i, child)
		i = child
	}
	return i > start
}
