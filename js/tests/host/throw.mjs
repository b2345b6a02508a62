// re2d host check: an uncaught exception exits 1 with message and stack.
function inner() {
    throw new RangeError('boom here');
}
print('before');
inner();
print('not reached');
