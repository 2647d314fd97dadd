// Times as the terminal and the console show them, worked out here apart from the code under test.

/** A clock ("23:14:55") in `zone` (this process's when not given). */
export const clockIn = (t: number | string, zone?: string) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(t));

/** The clock alone today in `zone`, else dated: "Dec 03 00:14:55", another year "2027-01-01 00:14:55". */
export const shownIn = (t: number | string, zone?: string) => {
  const parts = (at: Date) =>
    Object.fromEntries(
      new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: 'short', day: '2-digit' })
        .formatToParts(at)
        .map((x) => [x.type, x.value]),
    );
  const [d, today] = [parts(new Date(t)), parts(new Date())];
  if (d.year === today.year && d.month === today.month && d.day === today.day) return clockIn(t, zone);
  const numeric = new Intl.DateTimeFormat('en-CA', { timeZone: zone, dateStyle: 'short' }).format(new Date(t));
  return `${d.year === today.year ? `${d.month} ${d.day}` : numeric} ${clockIn(t, zone)}`;
};
