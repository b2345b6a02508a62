// re2d-qjs host check: the qjs-compatible std module (printf family, files, env) and std.exit(code).
import * as std from 'std';
import * as os from 'os';
std.printf('%d|%5s|%-3d|%.2f|%x|%%\n', 42, 'ab', 7, 3.14159, 255);
std.out.puts(std.sprintf('%03d%c', 5, 65) + '\n');
std.err.puts('to stderr\n');
print(std.loadFile(scriptArgs[1]) === 'hello', std.loadFile('/nonexistent/file') === null);
print(std.getenv('RE2D_TEST_VAR'), std.getenv('RE2D_SURELY_UNSET_VAR') === undefined);
print(os.platform, typeof os.now(), os.getcwd()[1]);
std.out.flush();
std.exit(3);
print('not reached');
