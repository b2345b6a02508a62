//! Generated test drawings: painted characters on a chroma key with ground-truth labels. Being written.
