// re2d host check: highlevel/{rotsprite,api,core,native}.js aliases and re2d/<name> are one module instance each.
import * as r1 from '../../../src/highlevel/rotsprite.js';
import * as r2 from 're2d/rotsprite';
import * as a1 from './x/highlevel/api.js';
import * as a2 from 're2d/api';
import * as c1 from '../highlevel/core.js';
import * as c2 from 're2d/core';
import * as n1 from '/nowhere/highlevel/native.js';
import * as n2 from 're2d/native';
print(r1 === r2, a1 === a2, c1 === c2, n1 === n2, typeof a1.createApi, typeof r1.installRotSprite, typeof n1.readText);
