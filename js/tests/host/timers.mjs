// re2d-qjs host check: setTimeout/clearTimeout run after the module in due-time order; os re-exports them.
import * as os from 'os';
const t0 = os.now();
// t10 is due 500 ms later so that a slow, loaded machine cannot run the
// nested zero-delay timer (due when t5 runs) after it.
setTimeout(() => print('t10'), 500);
setTimeout((a, b) => print('t0', a, b), 0, 'x', 2);
const c = setTimeout(() => print('cleared'), 1);
clearTimeout(c);
os.setTimeout(() => {
    print('t5');
    setTimeout(() => print('nested', os.now() - t0 >= 5), 0);
    Promise.resolve().then(() => print('job after t5'));
}, 5);
Promise.resolve().then(() => print('job'));
print('module');
