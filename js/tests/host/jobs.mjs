// re2d host check: pending jobs are drained after evaluation; top-level await works.
Promise.resolve().then(() => print('job 1')).then(() => print('job 2'));
const v = await new Promise((res) => res(42));
print('awaited', v);
