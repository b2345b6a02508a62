// re2d host check: a promise rejection nobody handles makes the run fail (exit 1).
Promise.reject(new Error('nobody catches me'));
print('end of module');
