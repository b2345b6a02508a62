// args: --memory-limit 256M
// Allocating without end gets a catchable out-of-memory error inside the limit.
const keep = [];
try { for (;;) keep.push(new Array(1 << 16).fill(1.5)); } catch (e) { keep.length = 0; print(e.constructor.name); }
