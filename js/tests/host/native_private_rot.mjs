// re2d host check: the rotsprite and host native modules are private to re2d/rotsprite and re2d/native.
import * as n from 're2d/native/rotsprite';
print(typeof n.validateDefinition);
