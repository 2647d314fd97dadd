// The command reference (docs/commands.md), made from the built program: every command's --help as
// the user sees it on a pipe (80 columns), in the order `esign --help` lists them.
// Usage: npm run build && node scripts/command-reference.mjs [--check]
// --check exits 1 when docs/commands.md is not what the program says (the test suite does the same).
import { readFileSync, writeFileSync } from 'node:fs';

const DOC = new URL('../docs/commands.md', import.meta.url);

const HEAD = `# Command reference

Every command's \`--help\`, as \`esign\` prints it on a pipe. Made from the program by
\`npm run docs:commands\`; \`npm test\` fails when this file is not what the program says.
The README tells how the commands fit together; this file is the letter of each one.
`;

/** The reference as the built program (dist/cli.js) gives it. */
export async function render() {
  const { buildProgram } = await import(new URL('../dist/cli.js', import.meta.url).href);
  const out = [];
  const program = buildProgram('0', bareIO(out), () => undefined, { code: 0 });
  const sections = [HEAD];
  const walk = (cmd, path) => {
    if (cmd.name() === 'help' && path.length > 1) return;
    sections.push(`## ${path.join(' ')}\n\n\`\`\`text\n${helpOf(cmd, out).trimEnd()}\n\`\`\`\n`);
    for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
  };
  walk(program, ['esign']);
  return sections.join('\n');
}

/** An IO whose writes land in `out` (help is written through the program's output configuration). */
function bareIO(out) {
  const stream = { write: (t) => void out.push(t), isTTY: false, columns: 80 };
  return { out: stream, err: stream, env: {}, interactive: false, stdinIsTTY: false };
}

function helpOf(cmd, out) {
  out.length = 0;
  cmd.outputHelp();
  return out.join('');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  Object.defineProperty(process.stdout, 'isTTY', { value: false });
  const text = await render();
  if (process.argv.includes('--check')) {
    const now = readFileSync(DOC, 'utf8');
    if (now !== text) {
      console.error('docs/commands.md is stale: run npm run build && npm run docs:commands');
      process.exit(1);
    }
  } else writeFileSync(DOC, text);
}
