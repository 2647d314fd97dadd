// Durations typed on the command line: `90s`, `15m`, `3d`, `1d12h`.
const UNITS: Record<string, number> = { s: 1e3, m: 60e3, h: 3600e3, d: 86400e3, w: 7 * 86400e3 };

/** Milliseconds, or undefined when the text is not a duration. */
export function parseDuration(text: string): number | undefined {
  const re = /(\d+(?:\.\d+)?)([smhdw])/gy;
  let total = 0;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = re.exec(text))) {
    total += Number(m[1]) * UNITS[m[2]];
    consumed = re.lastIndex;
  }
  return consumed === text.length && consumed > 0 ? total : undefined;
}
