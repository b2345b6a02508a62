// args:
// A lone surrogate prints as U+FFFD instead of throwing.
print('\uD800');
