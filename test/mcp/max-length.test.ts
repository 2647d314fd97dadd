// Every text argument of the default tools is bounded, and the bound is in the schema an agent reads
// (maxLength), so an over-long value is known before it is refused (issue 48). An enum, a date
// format or a pattern bounds a string by itself. (`--tools all` passes the API's own request schemas
// through, whose strings the API bounds by its body limits: not held here.)
import { describe, expect, it } from 'vitest';
import { toolsOf } from '../../src/mcp/toolsets.js';

type Node = Record<string, unknown>;

/** Paths of string schemas in `node` with no bound an agent can read. */
function unbounded(node: unknown, path: string, out: string[]): string[] {
  if (Array.isArray(node)) node.forEach((n, i) => unbounded(n, `${path}[${i}]`, out));
  if (!node || typeof node !== 'object') return out;
  const n = node as Node;
  const types = Array.isArray(n.type) ? n.type : [n.type];
  if (types.includes('string') && n.enum === undefined && n.const === undefined && !n.format && !n.pattern)
    if (typeof n.maxLength !== 'number') out.push(path || '(top)');
  for (const [k, v] of Object.entries(n)) if (k !== 'propertyNames') unbounded(v, `${path}.${k}`, out);
  return out;
}

describe('tool arguments: every string has a maxLength in tools/list', () => {
  for (const fileAccess of [true, false])
    it(`the default set, ${fileAccess ? 'stdio' : 'HTTP'}`, () => {
      const missing = toolsOf('default', fileAccess).flatMap((t) => unbounded(t.inputSchema, t.name, []));
      expect(missing).toEqual([]);
    });

  it('the check finds a string without a bound', () => {
    expect(unbounded({ type: 'object', properties: { a: { type: ['string', 'null'] } } }, 'x', [])).toEqual([
      'x.properties.a',
    ]);
  });

  it('the bound the schema shows is the one the check applies', () => {
    const send = toolsOf('default', true).find((t) => t.name === 'send_for_signature')!;
    const props = send.inputSchema.properties as Record<string, Node>;
    const max = props.label!.maxLength as number;
    expect(send.input.safeParse({ signers: [{ name: 'A' }], label: 'x'.repeat(max) }).success).toBe(true);
    expect(send.input.safeParse({ signers: [{ name: 'A' }], label: 'x'.repeat(max + 1) }).success).toBe(false);
  });
});
