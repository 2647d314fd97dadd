// The tool list in docs/mcp.md is the program's: `esign mcp tools` made it, and this holds it so.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toolsOf } from '../../src/mcp/toolsets.js';
import { toolTable } from '../../src/mcp/toolList.js';

describe('docs/mcp.md: esign mcp', () => {
  it('lists every tool with its marks, as esign mcp tools prints them', () => {
    const doc = readFileSync(new URL('../../docs/mcp.md', import.meta.url), 'utf8');
    const m = /<!-- mcp-tools:start -->\n([\s\S]*?)<!-- mcp-tools:end -->/.exec(doc);
    expect(m, 'docs/mcp.md has the mcp-tools markers').not.toBeNull();
    expect(m![1], 'paste the output of esign mcp tools between the markers').toBe(toolTable(toolsOf('default', true)));
  });
});
