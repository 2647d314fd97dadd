// The one grammar of durations a person writes (CLI flags, clock moves, scenario files): a bare
// number of seconds (`90`), or amounts with units, alone or together (`500ms`, `90s`, `15m`, `2h`,
// `3d`, `1w`, `1d12h`, `1h30m`; decimals too: `1.5h`).

const UNITS: Record<string, number> = { ms: 1, s: 1e3, m: 60e3, h: 3600e3, d: 86400e3, w: 7 * 86400e3 };

export const DURATION_EXAMPLES = '90, 90s, 15m, 2h, 1d12h';

/** Milliseconds (rounded), or undefined when the text is not a duration. */
export function parseDuration(text: string): number | undefined {
  const t = text.trim();
  if (/^\d+(?:\.\d+)?$/.test(t)) return Math.round(Number(t) * 1000);
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/gy;
  let total = 0;
  let consumed = 0;
  for (let m = re.exec(t); m; m = re.exec(t)) {
    total += Number(m[1]) * UNITS[m[2]];
    consumed = re.lastIndex;
  }
  return consumed === t.length && consumed > 0 ? Math.round(total) : undefined;
}

/** A duration for a message: `1 s`, `90 s`, `2.5 s`, `500 ms`. */
export const formatDuration = (ms: number): string => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`);
