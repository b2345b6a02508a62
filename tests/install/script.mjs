// re2d install test: the installed re2d-qjs runs a module with its built-in re2d modules.
import { createApi } from 're2d/api';
const $ = createApi();
print('qjs ok', scriptArgs.slice(1).join(','), typeof $.re2dSprite.from, typeof $.mesh);
