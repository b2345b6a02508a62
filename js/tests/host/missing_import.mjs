// re2d host check: a missing relative import exits 1.
import './does-not-exist.mjs';
