// args: --time-limit 2
// An endless loop ends at the time limit with one line and exit 1.
for (;;) {}
