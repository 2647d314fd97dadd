// TEMPORARY (issue 50 item 6): bench-only switches to run the engine without one of its mechanisms,
// set by bench/machinery.mjs through globalThis. Removed in the commit after the measurement.
export const isOff = (name: string): boolean =>
  Boolean((globalThis as { __esignMachineryOff?: Set<string> }).__esignMachineryOff?.has(name));
