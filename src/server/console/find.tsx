// Find: one search box (slug, packet id, email, custom_key, label) with the list filters (status,
// tag, created dates), pages and counts. The query is bounded before it reaches the port.
import { MAX_SEARCH, searchText } from '../../app/bundleSearch.js';
import { BUNDLE_STATE_WORDS, bundleStateWord } from '../../domain/states.js';
import type { BundleStatus } from '../../domain/enums.js';
import type { Bundle, BundleListQuery, Page } from '../../service/types.js';
import { CONSOLE_PREFIX, countOf, ListTable, Pager, StateCell, WhenCell } from './layout.js';

const PER_PAGE = 25;
const MAX_PAGE = 100_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Which dates the after/before range applies to. */
const DATE_KINDS = { created: 'Created', sent: 'Sent', completed: 'Completed' } as const;
type DateKind = keyof typeof DATE_KINDS;

export interface FindQuery {
  q: string;
  status: string;
  tag: string;
  dates: DateKind;
  after: string;
  before: string;
  page: number;
}

const one = (v: unknown, max: number) => (typeof v === 'string' ? v.trim().slice(0, max) : '');

/** The find form's query string as values the port accepts; anything else is dropped to its default. */
export function findQuery(raw: Record<string, unknown>): FindQuery {
  const status = one(raw.status, 4);
  const page = Number(one(raw.page, 8));
  const date = (v: unknown) => (DATE.test(one(v, 10)) ? one(v, 10) : '');
  const dates = one(raw.dates, 10);
  return {
    q: searchText(typeof raw.q === 'string' ? raw.q : ''),
    status: Object.hasOwn(BUNDLE_STATE_WORDS, status) ? status : '',
    tag: one(raw.tag, 100),
    dates: Object.hasOwn(DATE_KINDS, dates) ? (dates as DateKind) : 'created',
    after: date(raw.after),
    before: date(raw.before),
    page: Number.isInteger(page) && page >= 1 && page <= MAX_PAGE ? page : 1,
  };
}

export function listQueryOf(f: FindQuery): BundleListQuery {
  const q: BundleListQuery = { page: f.page, per_page: PER_PAGE };
  if (f.q) q.search = f.q;
  if (f.status) q.status = f.status;
  if (f.tag) q.tag = f.tag;
  if (f.after) q[`${f.dates}_after`] = f.after;
  if (f.before) q[`${f.dates}_before`] = f.before;
  return q;
}

/** The find page's URL for `f` with `page`. */
function findUrl(f: FindQuery, page: number): string {
  const p = new URLSearchParams();
  for (const k of ['q', 'status', 'tag', 'after', 'before'] as const) if (f[k]) p.set(k, f[k]);
  if ((f.after || f.before) && f.dates !== 'created') p.set('dates', f.dates);
  if (page > 1) p.set('page', String(page));
  const s = p.toString();
  return `${CONSOLE_PREFIX}/${s ? `?${s}` : ''}`;
}

export const bundleUrl = (slug: string) => `${CONSOLE_PREFIX}/bundles/${encodeURIComponent(slug)}`;

export function FindPage({ f, page, now, notes }: { f: FindQuery; page: Page<Bundle>; now: number; notes: string[] }) {
  const searched = Boolean(f.q || f.status || f.tag || f.after || f.before);
  return (
    <>
      <h1>Find a Bundle</h1>
      <FindForm f={f} />
      {notes.map((n) => (
        <p class="note">{n}</p>
      ))}
      <section aria-labelledby="results-h">
        <h2 id="results-h">
          {countOf(page.total, 'Bundle', 'Bundles')}
          {searched ? ' found' : ''}
        </h2>
        {page.items.length === 0 ? (
          <p>{page.total ? 'None on this page.' : 'No Bundle matches.'}</p>
        ) : (
          <Results page={page} now={now} />
        )}
        <Pager page={page} url={(n) => findUrl(f, n)} label="Pages of Bundles" />
      </section>
    </>
  );
}

/**
 * The search box, its button, then the other filters folded away (open when one is set): from the
 * box, the first result is three Tab presses away.
 */
function FindForm({ f }: { f: FindQuery }) {
  const filtered = Boolean(f.status || f.tag || f.after || f.before);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a form with role search is the landmark every browser knows
    <form role="search" method="get" action={`${CONSOLE_PREFIX}/`} class="find">
      <p class="wide">
        <label for="q">Search</label>
        <span class="search-row">
          <input
            type="search"
            id="q"
            name="q"
            value={f.q}
            maxLength={MAX_SEARCH}
            autoComplete="off"
            aria-describedby="q-hint"
            aria-keyshortcuts="/"
          />
          <button type="submit">Find</button>
        </span>
        <span class="hint" id="q-hint">
          Words of a slug, packet id, signer email or name, custom_key or label: every word must match, accents or not.
          Press / to come back here.
        </span>
      </p>
      <details class="filters" open={filtered}>
        <summary>Filters: status, tag, dates</summary>
        <div class="filter-row">
          <p>
            <label for="status">Status</label>
            <select id="status" name="status">
              <option value="">Any</option>
              {(Object.keys(BUNDLE_STATE_WORDS) as BundleStatus[]).map((code) => (
                <option value={code} selected={f.status === code}>
                  {bundleStateWord(code)}
                </option>
              ))}
            </select>
          </p>
          <p>
            <label for="tag">Tag</label>
            <input type="text" id="tag" name="tag" value={f.tag} maxLength={100} />
          </p>
          <p>
            <label for="dates">Dates</label>
            <select id="dates" name="dates">
              {(Object.keys(DATE_KINDS) as DateKind[]).map((k) => (
                <option value={k} selected={f.dates === k}>
                  {DATE_KINDS[k]}
                </option>
              ))}
            </select>
          </p>
          <p>
            <label for="after">After</label>
            <input type="date" id="after" name="after" value={f.after} />
          </p>
          <p>
            <label for="before">Before</label>
            <input type="date" id="before" name="before" value={f.before} />
          </p>
          <p class="go">
            <button type="submit" class="secondary">
              Apply filters
            </button>
          </p>
        </div>
      </details>
    </form>
  );
}

function Results({ page, now }: { page: Page<Bundle>; now: number }) {
  return (
    <ListTable heads={['Bundle', 'State', 'Signers', 'Created', 'Sent']}>
      {page.items.map((b) => (
        <tr>
          <td>
            <a href={bundleUrl(b.id)}>{b.label || '(no label)'}</a>
            <br />
            <code>{b.id}</code>
            {b.is_test && <span class="tag">test</span>}
          </td>
          <StateCell word={bundleStateWord(b.status)} code={b.status} />
          <td>
            {b.packets.map((p) => (
              <span class="signer">
                {p.name} <span class="hint">{p.email ?? p.phone ?? ''}</span>
              </span>
            ))}
          </td>
          <WhenCell iso={b.created} now={now} />
          <WhenCell iso={b.sent} now={now} />
        </tr>
      ))}
    </ListTable>
  );
}
