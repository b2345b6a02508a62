// args:
// Deep recursion at the default stack size: a RangeError, never a native stack overflow.
function f(n) { return n === 0 ? 0 : 1 + f(n - 1); }
try { f(1e9); print('no error?'); } catch (e) { print(e.constructor.name); }
