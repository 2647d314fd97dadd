// The tool list as Markdown: `esign mcp --tools` prints it, the README holds it, a test compares them.
import type { ToolDef } from './tool.js';

const marks = (t: ToolDef) => {
  const a = t.annotations;
  return [
    a.readOnlyHint ? 'read-only' : '',
    a.destructiveHint ? 'destructive (confirm)' : '',
    a.idempotentHint ? 'idempotent' : '',
    a.openWorldHint ? 'reaches people' : '',
  ]
    .filter(Boolean)
    .join(', ');
};

/** One row per tool: name, marks, the first sentence of its description. */
export function toolTable(tools: readonly ToolDef[]): string {
  const rows = tools.map(
    (t) => `| \`${t.name}\` | ${marks(t)} | ${t.description.split(/(?<=\.)\s/)[0]!.replace(/\|/g, '\\|')} |`,
  );
  return `${['| Tool | Marks | What it does |', '| --- | --- | --- |', ...rows].join('\n')}\n`;
}
