// Preloaded into a batch process by crash tests (`node --import` through NODE_OPTIONS: see
// crashWindowEnv in lib.mjs), never by esign itself: each journal entry that marks a row sent waits
// ESIGN_TEST_CRASH_WINDOW_MS first, widening the window between a create's answer and its entry
// that a kill must hit to leave a created row marked in flight. The program under test is unchanged.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const ms = Number(process.env.ESIGN_TEST_CRASH_WINDOW_MS);
if (ms > 0) {
  const write = fs.writeSync;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  fs.writeSync = function (fd, data, ...rest) {
    if (typeof data === 'string' && data.includes('"s":"sent"')) Atomics.wait(pause, 0, 0, ms);
    return write.call(this, fd, data, ...rest);
  };
  syncBuiltinESMExports();
}
