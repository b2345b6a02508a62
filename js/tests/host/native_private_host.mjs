// re2d host check: re2d/native/host is private to re2d/native.
import * as n from 're2d/native/host';
print(typeof n.readText);
