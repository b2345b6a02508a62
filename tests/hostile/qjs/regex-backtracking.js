// args: --time-limit 2
// Catastrophic regexp backtracking ends at the time limit.
/^(a+)+$/.test('a'.repeat(40) + 'b');
