//! BVH motion capture reader (rig.md §6). Being written.
