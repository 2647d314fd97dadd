// Preloaded (node --require) into an esign that process.test.ts interrupts: writes "ready" on fd 3 once
// esign's Ctrl-C listener is in place, so the test sends SIGINT then, not after a guessed delay.
const { writeSync } = require('node:fs');

const poll = setInterval(() => {
  if (process.listenerCount('SIGINT') === 0) return;
  clearInterval(poll);
  writeSync(3, 'ready\n');
}, 5);
poll.unref();
