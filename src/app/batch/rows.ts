// The one row validation of a batch: `batch check`, `batch send --dry-run` and `batch send` (its
// count before the confirmation, then each row as it is sent) all build and check rows here, so a
// row that check passes is never refused by send for its content.
import type { CsvRow } from './csv.js';
import { type BuildOptions, type BuiltRow, type Source, buildRow } from './mapping.js';

type Templates = NonNullable<BuildOptions['templates']>;

/** Each template read once for all rows of a run (a spec's rows mostly name the same one). */
function oncePerTemplate(t: Templates): Templates {
  const documents = new Map<string, ReturnType<Templates['getTemplate']>>();
  const envelopes = new Map<string, ReturnType<Templates['getEnvelopeTemplate']>>();
  const once = <T>(m: Map<string, Promise<T>>, id: string, read: () => Promise<T>) => {
    let hit = m.get(id);
    if (!hit) {
      hit = read();
      m.set(id, hit);
      hit.catch(() => m.delete(id));
    }
    return hit;
  };
  return {
    getTemplate: (id) => once(documents, id, () => t.getTemplate(id)),
    getEnvelopeTemplate: (id) => once(envelopes, id, () => t.getEnvelopeTemplate(id)),
  };
}

export class RowChecker {
  /** custom_key -> the first row that has it. */
  private readonly keys = new Map<string, number>();
  private readonly o: BuildOptions;
  constructor(
    private readonly source: Source,
    o: BuildOptions,
  ) {
    this.o = o.templates ? { ...o, templates: oncePerTemplate(o.templates) } : o;
  }

  /** A row not built again (sent by an earlier run) still holds its key against later rows. */
  claim(row: number, key: string): void {
    if (key && key !== `${this.o.batchId}-${row}` && !this.keys.has(key)) this.keys.set(key, row);
  }

  async check(row: CsvRow): Promise<BuiltRow> {
    const built = await buildRow(this.source, row, this.o);
    // A key made from the row's number (`<batch-id>-<row>`) is unique by construction: not held, so a
    // CSV of a million rows without custom_keys costs no memory here.
    if (!built.key || built.key === `${this.o.batchId}-${row.row}`) return built;
    const first = this.keys.get(built.key);
    if (first === undefined || first === row.row) {
      this.keys.set(built.key, row.row);
      return built;
    }
    // Two rows, one key: the later one would find (or be refused for) the earlier one's Bundle.
    const column = built.columnOf('custom_key');
    const problem = {
      ...(column ? { column } : { field: 'custom_key' }),
      message: `"${built.key}" is also the key of row ${first}: each row needs its own`,
    };
    return { problems: [...built.problems, problem], key: built.key, columnOf: built.columnOf };
  }
}
