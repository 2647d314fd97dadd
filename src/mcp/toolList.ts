// The tool list as Markdown: `esign mcp tools` prints it, docs/mcp.md holds it, a test compares them.
import { listed } from './server.js';
import type { ToolDef } from './tool.js';

const marks = (t: ToolDef) => {
  const a = t.annotations;
  return [
    a.readOnlyHint ? 'read-only' : '',
    a.destructiveHint ? 'destructive (go-ahead)' : '',
    a.idempotentHint ? 'idempotent' : '',
    a.openWorldHint ? 'reaches people' : '',
  ]
    .filter(Boolean)
    .join(', ');
};

/** Characters a tool takes in tools/list (its JSON). */
const listedSize = (t: ToolDef) => JSON.stringify(listed(t)).length;

/** One row per tool: name, marks, characters in tools/list, the first sentence of its description. */
export function toolTable(tools: readonly ToolDef[]): string {
  const rows = tools.map(
    (t) =>
      `| \`${t.name}\` | ${marks(t)} | ${listedSize(t)} | ${t.description.split(/(?<=\.)\s/)[0]!.replace(/\|/g, '\\|')} |`,
  );
  const total = JSON.stringify(tools.map(listed)).length;
  return `${['| Tool | Marks | Size | What it does |', '| --- | --- | ---: | --- |', ...rows].join('\n')}\n\n${tools.length} tools, ${total} characters of tools/list.\n`;
}
