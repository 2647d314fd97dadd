// The README's tool list is the program's: `esign mcp --tools` made it, and this holds it so.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toolsOf } from '../../src/mcp/toolsets.js';
import { toolTable } from '../../src/mcp/toolList.js';

describe('README: esign mcp', () => {
  it('lists every tool with its marks, as esign mcp tools prints them', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const m = /<!-- mcp-tools:start -->\n([\s\S]*?)<!-- mcp-tools:end -->/.exec(readme);
    expect(m, 'the README has the mcp-tools markers').not.toBeNull();
    expect(m![1], 'paste the output of esign mcp tools between the markers').toBe(toolTable(toolsOf('default', true)));
  });
});
