// What a wait is waiting through, in one line on stderr: said when an outage starts (and when what
// it is changes), and once when the server answers again. On a terminal it is the live status line.
import type { Outage } from '../../app/wait/outage.js';
import type { Factory } from '../factory.js';
import { note } from '../output/print.js';

export type OutageEvent = (Outage & { since: number; nextLookAt: number }) | undefined;

const secs = (ms: number) => `${Math.max(0, Math.round(ms / 1000))} s`;

/**
 * `report` takes the waiter's outage events (and a 429 the backend waits out, `throttled`);
 * `answered` is called after every look that succeeded. `status`: the live lines' status line, on a terminal.
 */
export function outageNotes(
  f: Factory,
  where: string,
  deadline: number,
  status?: (line: (() => string) | undefined) => void,
) {
  let said: { what: string; since: number } | undefined;
  const report = (o: OutageEvent) => {
    if (!o) return answered();
    const line = () =>
      `Waiting through an outage: ${where}: ${o.what}; looking again until the timeout ` +
      `(next look in ${secs(o.nextLookAt - Date.now())}, ${secs(deadline - Date.now())} left)`;
    if (status) status(line);
    else if (o.what !== said?.what) note(f, `esign: ${line()}`);
    said = { what: o.what, since: said?.since ?? o.since };
  };
  const answered = () => {
    if (!said) return;
    // On a terminal the status line goes: a line written under the live lines would break their redraw.
    if (status) status(undefined);
    else note(f, `esign: ${where} answers again, after ${secs(Date.now() - said.since)} of ${said.what}.`);
    said = undefined;
  };
  const throttled = (untilMs: number) =>
    report({ what: 'rate limited (HTTP 429)', since: Date.now(), nextLookAt: untilMs });
  return { report, answered, throttled };
}
