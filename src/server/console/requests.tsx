// The console's request log: esign serve's latest requests, newest first, filtered as `esign logs
// tail` filters them (by status or class, method, path prefix, operation). The key's id, never a key.
import type { RequestFilter, RequestLogEntry } from '../../service/types.js';
import { CONSOLE_PREFIX, ListTable, WhenCell } from './layout.js';

/** How many requests the page shows. */
export const REQUESTS_SHOWN = 200;

const FIELDS: [keyof RequestFilter, string, string][] = [
  ['status', 'Status', '4xx'],
  ['method', 'Method', 'POST'],
  ['path', 'Path starts with', '/api/v2/bundles/'],
  ['operation', 'Operation', 'createBundle'],
];

export function RequestsPage(p: {
  entries: RequestLogEntry[];
  filter: RequestFilter;
  now: number;
  problem?: string;
  unavailable?: string;
}) {
  return (
    <>
      <h1>Requests</h1>
      {p.unavailable ? (
        <p class="note">{p.unavailable}</p>
      ) : (
        <>
          <p class="hint">
            The latest {REQUESTS_SHOWN} requests this server answered, newest first (esign logs tail follows them live).
          </p>
          <form method="get" action={`${CONSOLE_PREFIX}/requests`} class="filters">
            {FIELDS.map(([name, label, example]) => (
              <p>
                <label for={`f-${name}`}>{label}</label>
                <input
                  id={`f-${name}`}
                  name={name}
                  value={p.filter[name] ?? ''}
                  placeholder={example}
                  maxLength={200}
                />
              </p>
            ))}
            <p>
              <button type="submit">Filter</button>
            </p>
          </form>
          {p.problem && (
            <p class="error" role="alert">
              {p.problem}
            </p>
          )}
          {p.entries.length === 0 ? (
            <p>No request matches.</p>
          ) : (
            <ListTable heads={['Time', 'Method', 'Status', 'Time taken', 'Path', 'Operation', 'Key id']}>
              {p.entries.map((e) => (
                <tr>
                  <WhenCell iso={e.time} now={p.now} />
                  <td>{e.method}</td>
                  <td>{e.status}</td>
                  <td>{e.ms} ms</td>
                  <td>
                    <code>{e.path}</code>
                  </td>
                  <td>{e.operation ?? ''}</td>
                  <td>
                    <code class="hint">{e.key_id ?? ''}</code>
                  </td>
                </tr>
              ))}
            </ListTable>
          )}
        </>
      )}
    </>
  );
}
