// What bench/scale.mjs seeds and the list queries it runs (bench/machinery.mjs runs them too): the
// people, labels and dates of the seeded Bundles, and one list query of each kind.
import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';

const KINDS = [
  'Lease renewal',
  'Employment offer',
  'Mutual NDA',
  'Purchase order',
  'Consulting agreement',
  'Vendor onboarding',
  'Loan application',
  'Tenancy deposit',
  'Change request',
];
const FIRST = ['José', 'Renée', 'Zoë', 'Åsa', 'Mark', 'Priya', 'Chen', 'Olúmídé', 'Anna', 'Søren', 'Fatima', 'Luca'];
const LAST = [
  'García',
  'Müller',
  'Smith',
  'Nguyen',
  'O’Brien',
  'Kowalski',
  'Dubois',
  'Tanaka',
  'Silva',
  'Jensen',
  'Rossi',
];
export const person = (i, k) => {
  const f = FIRST[(i * 7 + k) % FIRST.length];
  const l = LAST[(i * 5 + k * 3) % LAST.length];
  const ascii = (s) =>
    s
      .normalize('NFD')
      .replace(/[^A-Za-z]/g, '')
      .toLowerCase();
  return {
    name: `${f} ${l}`,
    email: `${ascii(f)}.${ascii(l)}.${i}${k ? 'b' : 'a'}@example.com`,
    phone: `+1 (555) ${String(i % 1000).padStart(3, '0')}-${String(i).padStart(7, '0').slice(-4)}`,
  };
};
export const label = (i) => `${KINDS[i % KINDS.length]} ${i}`;
export const customKey = (i) => `ci-run-${i}`;

export const START = Date.parse('2023-01-01T00:00:00.000Z');
export const SPAN = 3 * 365 * 86400e3;

export const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

export function queries(n, template) {
  const mid = (i) => Math.floor(i * n);
  const day = (f) => new Date(START + f * SPAN).toISOString().slice(0, 10);
  const q = [
    ['search email (1 match)', { search: person(mid(0.5), 0).email }],
    ['search slug (1 match)', { search: '@slug' }],
    ['search custom_key', { search: customKey(mid(0.3)) }],
    ['search signer name', { search: person(mid(0.7), 1).name }],
    ['search phone fragment', { search: `${person(mid(0.5) | 1, 1).phone.slice(-8)}` }],
    ['search label fragment (11%)', { search: 'lease' }],
    ['search accented name, other case', { search: 'RENÉE' }],
    ['search no match', { search: 'zqxjkv' }],
    ['search 2 characters', { search: 'zq' }],
    ['status=se, 50/page', { status: 'se', per_page: 50 }],
    ['status__in=se,st', { status__in: 'se,st', per_page: 100 }],
    ['tag=nightly', { tag: 'nightly', per_page: 100 }],
    ['tag__in=dev,release', { tag__in: 'dev,release', per_page: 100 }],
    ...['created', '-created', 'sent', '-sent', 'completed_at', '-completed_at'].map((o) => [
      `ordering=${o}, 100/page`,
      { ordering: o, per_page: 100 },
    ]),
    ['created_after, 100/page', { created_after: day(0.5), per_page: 100 }],
    ['sent range', { sent_after: day(0.2), sent_before: day(0.6), per_page: 100 }],
    ['completed range', { completed_after: day(0.1), completed_before: day(0.9), per_page: 100 }],
    ['status=se + search label fragment', { status: 'se', search: 'lease', per_page: 100 }],
    ['tag=ci + ordering=-sent', { tag: 'ci', ordering: '-sent', per_page: 100 }],
    [
      'status__in=co,ca + created range',
      { status__in: 'co,ca', created_after: day(0.25), created_before: day(0.75), per_page: 100 },
    ],
  ];
  if (template) q.push(['template', { template, per_page: 100 }]);
  return q;
}

/**
 * Reads the database file once, so that every query is measured with it in the OS cache (this
 * machine's cache is sometimes emptied between runs; a first query would otherwise time the disk).
 */
export function warm(dir) {
  const fd = openSync(join(dir, 'esign.db'), 'r');
  const buf = Buffer.allocUnsafe(8 << 20);
  try {
    while (readSync(fd, buf, 0, buf.length, null) > 0);
  } finally {
    closeSync(fd);
  }
}
