// Times in words, as the CLI's terminal views and the support console show them.
const now = () => Date.now();
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** "just now", "5m ago", "2h ago", "3d ago", "in 4h"; beyond a week "Nov 21 09:42" (another year: "Nov 21 2024"). */
export function shortTime(iso: string, at = now()): string {
  const t = Date.parse(iso);
  if (!iso || Number.isNaN(t)) return iso;
  const diff = at - t;
  const abs = Math.abs(diff);
  const rel = (n: number, unit: string) => (diff >= 0 ? `${n}${unit} ago` : `in ${n}${unit}`);
  if (abs < 60_000) return 'just now';
  if (abs < 3_600_000) return rel(Math.floor(abs / 60_000), 'm');
  if (abs < 86_400_000) return rel(Math.floor(abs / 3_600_000), 'h');
  if (abs < 7 * 86_400_000) return rel(Math.floor(abs / 86_400_000), 'd');
  const d = new Date(t);
  const day = `${MONTHS[d.getMonth()]} ${pad(d.getDate())}`;
  return d.getFullYear() === new Date(at).getFullYear()
    ? `${day} ${pad(d.getHours())}:${pad(d.getMinutes())}`
    : `${day} ${d.getFullYear()}`;
}

/**
 * A time on a timeline, to the second: "10:42:05" today, "Nov 21 10:42:05" this year, else
 * "2024-11-21 10:42:05". Relative words would call every step of a busy minute "just now".
 */
export function clockTime(iso: string, at = now()): string {
  const t = Date.parse(iso);
  if (!iso || Number.isNaN(t)) return iso;
  const d = new Date(t);
  const today = new Date(at);
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  if (d.toDateString() === today.toDateString()) return time;
  if (d.getFullYear() === today.getFullYear()) return `${MONTHS[d.getMonth()]} ${pad(d.getDate())} ${time}`;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}`;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
/** Whether a value is a full ISO time (what the API sends for `created`, `sent`, `expires`...). */
export const isIsoTime = (v: unknown): v is string => typeof v === 'string' && ISO_TIME.test(v);
