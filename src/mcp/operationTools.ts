// Tools made from the operations table (src/service/operations.ts). Until it is on main: none.
import type { ToolDef } from './tool.js';

export function operationTools(): ToolDef[] {
  return [];
}
