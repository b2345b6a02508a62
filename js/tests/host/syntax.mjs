// re2d host check: a syntax error exits 1.
let x = ;
