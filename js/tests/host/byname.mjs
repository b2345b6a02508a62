// re2d host check: re2d/mesh by name still works with --no-builtins.
import { normalizeAngle } from 're2d/mesh';
print(normalizeAngle(5 * Math.PI) === Math.PI);
