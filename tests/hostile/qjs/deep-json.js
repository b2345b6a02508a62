// args: --stack-size 256M
// A deeply nested JSON.parse at the largest stack size: a RangeError or SyntaxError, never an abort.
const s = '['.repeat(2000000) + ']'.repeat(2000000);
try { JSON.parse(s); print('parsed'); } catch (e) { print(e.constructor.name); }
