// re2d host check: alias path, re2d/mesh and a second alias path are one module instance.
import * as a from '../../../src/highlevel/mesh.js';
import * as b from 're2d/mesh';
import * as c from './deeper/highlevel/mesh.js';
print(a.createPart === b.createPart, b.createPart === c.createPart, typeof a.installMesh);
