// re2d host check: a rejection handled later in the run is fine (exit 0).
const p = Promise.reject(new Error('caught later'));
await null;
p.catch((e) => print('caught', e.message));
