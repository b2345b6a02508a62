// re2d-qjs host check: setTimeout/clearTimeout run after the module in due-time order; os re-exports them.
import * as os from 'os';
const t0 = os.now();
setTimeout(() => print('t10'), 10);
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
