// Times a person reads: the one rule for the terminal (tables, timelines, key/value views) and the
// support console (its pages, and its browser script, which draws them in the viewer's zone).
// Relative words are measured against `at`: the backend's clock (the engine's moves with
// `esign local clock advance`), never assumed to be this machine's. Machines get whole ISO times.
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** An IANA zone ("Asia/Tokyo", "UTC"); undefined: the zone of this process or browser. */
export type Zone = string | undefined;

interface Parts {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();
function formatIn(zone: Zone): Intl.DateTimeFormat {
  const key = zone ?? '';
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(key, f);
  }
  return f;
}

/** The calendar and clock of `t` in `zone`. */
function partsOf(t: number, zone: Zone): Parts {
  const p: Record<string, number> = {};
  for (const x of formatIn(zone).formatToParts(t)) if (x.type !== 'literal') p[x.type] = Number(x.value);
  return { y: p.year!, mo: p.month!, d: p.day!, h: p.hour! % 24, mi: p.minute!, s: p.second! };
}

const parse = (iso: string | null | undefined): number | undefined => {
  if (!iso) return undefined;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? undefined : t;
};

/** The offset of `zone` from UTC at `t`, as "UTC+09:00" ("UTC" for none). */
function zoneOffset(t: number, zone: Zone): string {
  const p = partsOf(t, zone);
  const minutes = Math.round((Date.UTC(p.y, p.mo - 1, p.d, p.h, p.mi, p.s) - Math.floor(t / 1000) * 1000) / 60_000);
  if (minutes === 0) return 'UTC';
  const a = Math.abs(minutes);
  return `UTC${minutes < 0 ? '-' : '+'}${pad(Math.floor(a / 60))}:${pad(a % 60)}`;
}

/** The zone in words: "Asia/Tokyo (UTC+09:00)", or "UTC". */
export function zoneName(zone: Zone, at = Date.now()): string {
  const name = zone ?? new Intl.DateTimeFormat().resolvedOptions().timeZone;
  const offset = zoneOffset(at, zone);
  return name === 'UTC' || name === 'Etc/UTC' ? 'UTC' : `${name} (${offset})`;
}

/**
 * When something happened or will, for a list of things: "just now", "5m ago", "2h ago", "3d ago",
 * "in 4h"; beyond a week "Nov 21 09:42" (another year: "Nov 21 2024").
 */
export function shortTime(iso: string, at = Date.now(), zone?: Zone): string {
  const t = parse(iso);
  if (t === undefined) return iso;
  const diff = at - t;
  const abs = Math.abs(diff);
  const rel = (n: number, unit: string) => (diff >= 0 ? `${n}${unit} ago` : `in ${n}${unit}`);
  if (abs < 60_000) return 'just now';
  if (abs < 3_600_000) return rel(Math.floor(abs / 60_000), 'm');
  if (abs < 86_400_000) return rel(Math.floor(abs / 3_600_000), 'h');
  if (abs < 7 * 86_400_000) return rel(Math.floor(abs / 86_400_000), 'd');
  const d = partsOf(t, zone);
  const day = `${MONTHS[d.mo - 1]} ${pad(d.d)}`;
  return d.y === partsOf(at, zone).y ? `${day} ${pad(d.h)}:${pad(d.mi)}` : `${day} ${d.y}`;
}

/**
 * A time in a log (timelines, events, deliveries, the outbox), to the second: "10:42:05" today,
 * "Nov 21 10:42:05" this year, else "2024-11-21 10:42:05". Relative words would call every step of
 * a busy minute "just now".
 */
export function clockTime(iso: string, at = Date.now(), zone?: Zone): string {
  const t = parse(iso);
  if (t === undefined) return iso;
  const d = partsOf(t, zone);
  const today = partsOf(at, zone);
  const time = `${pad(d.h)}:${pad(d.mi)}:${pad(d.s)}`;
  if (d.y === today.y && d.mo === today.mo && d.d === today.d) return time;
  if (d.y === today.y) return `${MONTHS[d.mo - 1]} ${pad(d.d)} ${time}`;
  return `${d.y}-${pad(d.mo)}-${pad(d.d)} ${time}`;
}

/**
 * A time on a timeline that spans days (`spansDays`): dated on every row, today's too ("Nov 21
 * 10:42:05", another year "2024-11-21 10:42:05"): a bare "10:42:05" under yesterday's rows reads as
 * yesterday.
 */
function datedTime(iso: string, at = Date.now(), zone?: Zone): string {
  const t = parse(iso);
  if (t === undefined) return iso;
  const d = partsOf(t, zone);
  const time = `${pad(d.h)}:${pad(d.mi)}:${pad(d.s)}`;
  return d.y === partsOf(at, zone).y
    ? `${MONTHS[d.mo - 1]} ${pad(d.d)} ${time}`
    : `${d.y}-${pad(d.mo)}-${pad(d.d)} ${time}`;
}

/** Whether these times fall on more than one day in `zone` (a timeline's rows then carry their dates). */
function spansDays(isos: readonly string[], zone?: Zone): boolean {
  const days = new Set<string>();
  for (const iso of isos) {
    const t = parse(iso);
    if (t === undefined) continue;
    const d = partsOf(t, zone);
    days.add(`${d.y}-${d.mo}-${d.d}`);
    if (days.size > 1) return true;
  }
  return false;
}

/**
 * A time in a table of log rows (webhook events and deliveries, the outbox), short enough to leave
 * room for an id: "10:42:05" today, "Nov 21 10:42" this year, else "2024-11-21".
 */
function logTime(iso: string, at = Date.now(), zone?: Zone): string {
  const t = parse(iso);
  if (t === undefined) return iso;
  const d = partsOf(t, zone);
  const today = partsOf(at, zone);
  if (d.y !== today.y) return `${d.y}-${pad(d.mo)}-${pad(d.d)}`;
  if (d.mo === today.mo && d.d === today.d) return `${pad(d.h)}:${pad(d.mi)}:${pad(d.s)}`;
  return `${MONTHS[d.mo - 1]} ${pad(d.d)} ${pad(d.h)}:${pad(d.mi)}`;
}

/** The exact time in `zone` with its offset, for a hover: "2026-11-27 17:38:11.250 UTC+09:00". */
export function exactTime(iso: string, zone?: Zone): string {
  const t = parse(iso);
  if (t === undefined) return iso;
  const d = partsOf(t, zone);
  const ms = String(((t % 1000) + 1000) % 1000).padStart(3, '0');
  return `${d.y}-${pad(d.mo)}-${pad(d.d)} ${pad(d.h)}:${pad(d.mi)}:${pad(d.s)}.${ms} ${zoneOffset(t, zone)}`;
}

/**
 * How a time is shown: `relative` when a thing happened or will ("2h ago"), `clock` on a timeline
 * (to the second), `dated` on a timeline of several days, `log` in a table of log rows.
 */
export type TimeStyle = 'relative' | 'clock' | 'dated' | 'log';

const STYLES: Record<TimeStyle, (iso: string, at: number, zone?: Zone) => string> = {
  relative: shortTime,
  clock: clockTime,
  dated: datedTime,
  log: logTime,
};

export const timeIn = (style: TimeStyle, iso: string, at: number, zone?: Zone): string =>
  (STYLES[style] ?? shortTime)(iso, at, zone);

/** A timeline's style: dated on every row when it spans days in `zone`, else the clock. */
export const timelineStyle = (isos: readonly string[], zone?: Zone): 'dated' | 'clock' =>
  spansDays(isos, zone) ? 'dated' : 'clock';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
/** Whether a value is a full ISO time (what the API sends for `created`, `sent`, `expires`...). */
export const isIsoTime = (v: unknown): v is string => typeof v === 'string' && ISO_TIME.test(v);
