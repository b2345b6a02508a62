// re2d host check: the native helper module is private to re2d/mesh.
import * as n from 're2d/native/mesh';
print(typeof n.deform);
