// re2d host check: relative imports resolve against the importing file.
import { value } from './lib/value.mjs';
print('value', value);
