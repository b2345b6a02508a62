// re2d host check: a rejected module evaluation (top-level await) exits 1.
print('start');
await Promise.reject(new Error('rejected eval'));
