// The operations of API v2 with their request schemas: what the OpenAPI document, the support
// console and the MCP tools are made from. The rows (paths, methods, effects) live in
// operationTable.ts, zod-free; this module adds each row's zod request schema as `body`.
import { z } from 'zod';
import { OPERATION_TABLE, type OperationRow } from './operationTable.js';
import * as requests from '../domain/schemas.js';

export { OPENAPI_PATH } from './operationTable.js';

export interface OperationDef extends OperationRow {
  /** The shared zod request schema, when it takes a body (a union when several are accepted). */
  body?: z.ZodType;
}

/** Every zod schema exported by schemas.ts, by its export name: a new one appears here by itself. */
export function requestSchemas(): Record<string, z.ZodType> {
  return Object.fromEntries(Object.entries(requests).filter(([, v]) => v instanceof z.ZodType)) as Record<
    string,
    z.ZodType
  >;
}

function bodyOf(row: OperationRow): z.ZodType | undefined {
  if (!row.bodyNames?.length) return undefined;
  const all = requestSchemas();
  const schemas = row.bodyNames.map((n) => {
    const s = all[n];
    if (!s) throw new Error(`operation ${row.name}: no request schema named ${n} in schemas.ts`);
    return s;
  });
  return schemas.length === 1 ? schemas[0] : z.union(schemas as [z.ZodType, z.ZodType, ...z.ZodType[]]);
}

export const OPERATIONS: readonly OperationDef[] = OPERATION_TABLE.map((row) => {
  const body = bodyOf(row);
  return Object.freeze(body ? { ...row, body } : { ...row });
});

const byName = new Map(OPERATIONS.map((op) => [op.name as string, op]));

export function operationNamed(name: string): OperationDef | undefined {
  return byName.get(name);
}
