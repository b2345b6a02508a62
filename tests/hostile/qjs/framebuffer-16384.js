// args: --size 16384x16384 --memory-limit 10M
// A framebuffer beyond the memory limit is refused at start-up (exit 1, one line); nothing runs.
engine.clear(10, 20, 30, 255);
engine.savePNG('never.png');
