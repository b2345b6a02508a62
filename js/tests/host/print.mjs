// re2d host check: print / console.log formatting and scriptArgs.
print('a', 1, null, undefined, [1, 2], { k: 1 }, true);
console.log('log', 2.5);
print(JSON.stringify(scriptArgs.slice(1)));
print(scriptArgs[0].endsWith('print.mjs'));
print();
