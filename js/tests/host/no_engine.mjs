// re2d host check: --no-engine leaves engine undefined.
print(typeof engine);
