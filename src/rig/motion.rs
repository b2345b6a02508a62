//! Retargeting a captured walk onto a drawn skeleton (rig.md §6). Being written.
