// Tool annotations come from the operations table: an operation's own marks for its tool, and for a
// job the marks of every operation it may call (read-only only if all read, destructive if any
// changes or removes what exists, idempotent only if all are, open-world if any reaches people).
import { operationRow } from '../service/operationTable.js';
import type { OperationRow } from '../service/operationTable.js';
import type { Annotations } from './tool.js';

/** `listBundles` -> `list_bundles`. */
export const toolName = (operation: string) => operation.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The table's marks as MCP annotations: anything that changes or removes what exists is destructive. */
export function annotationsOf(op: Pick<OperationRow, 'effect' | 'idempotent' | 'reachesPeople'>): Annotations {
  return {
    readOnlyHint: op.effect === 'read',
    destructiveHint: op.effect === 'change' || op.effect === 'destroy',
    idempotentHint: op.idempotent,
    openWorldHint: op.reachesPeople,
  };
}

/**
 * The marks of a job that calls the operations `uses` (port method names). `onWhatItMakes`: those of
 * them it calls only on what the same call has just made (tags on a Bundle it created): part of that
 * create, so they change nothing that existed (not destructive).
 */
export function annotationsOfAll(uses: readonly string[], onWhatItMakes: readonly string[] = []): Annotations {
  const all = uses.map((name) => {
    const row = operationRow(name);
    if (!row) throw new Error(`no operation named ${name}`);
    return { name, ...annotationsOf(row) };
  });
  return {
    readOnlyHint: all.every((a) => a.readOnlyHint),
    destructiveHint: all.some((a) => a.destructiveHint && !onWhatItMakes.includes(a.name)),
    idempotentHint: all.every((a) => a.idempotentHint),
    openWorldHint: all.some((a) => a.openWorldHint),
  };
}
