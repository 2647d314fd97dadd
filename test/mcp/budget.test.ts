// What an agent carries in every conversation: the default tool set of `esign mcp` is at most 25
// tools and 25,000 characters of tools/list, measured as a client sees it (bin/esign.js spawned,
// JSON-RPC by hand, the characters of JSON.stringify(result.tools)); `--tools all` keeps one tool per
// operation. The server speaks the SDK's newest protocol version; the CLI's tool-set names are the
// server's; each job's annotations are those of the operations it may call.
import { spawn } from 'node:child_process';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { TOOL_SET_NAMES } from '../../src/cli/commands/mcp/toolSets.js';
import { annotationsOfAll, toolName } from '../../src/mcp/marks.js';
import { TOOL_SETS, toolsOf } from '../../src/mcp/toolsets.js';
import type { JobDef } from '../../src/mcp/tools/kit.js';
import { OPERATIONS } from '../../src/service/operations.js';
import { programEnv, tempDir } from '../helpers.js';
import { BIN } from './support.js';

const MAX_TOOLS = 25;
const MAX_LIST_CHARS = 25_000;

/** initialize (as `version`), then tools/list, over stdio by hand: the answers. */
async function handshake(args: string[], version: string) {
  const data = tempDir('esign-mcp-budget-');
  const p = spawn(process.execPath, [BIN, 'mcp', ...args], {
    env: { ...programEnv(), HOME: data.dir, ESIGN_DATA_DIR: data.dir },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const send = (m: object) => p.stdin.write(`${JSON.stringify(m)}\n`);
  const answers = new Map<number, { result: Record<string, unknown> }>();
  let buf = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no answer within 20 s')), 20_000);
      p.stdout.on('data', (d: Buffer) => {
        buf += d.toString();
        for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
          const m = JSON.parse(buf.slice(0, i));
          buf = buf.slice(i + 1);
          answers.set(m.id, m);
          if (m.id === 1) {
            send({ jsonrpc: '2.0', method: 'notifications/initialized' });
            send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
          }
          if (m.id === 2) {
            clearTimeout(timer);
            resolve();
          }
        }
      });
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'budget', version: '1' } },
      });
    });
  } finally {
    p.kill();
    data.cleanup();
  }
  return { init: answers.get(1)!.result, tools: answers.get(2)!.result.tools as { name: string }[] };
}

describe('the cost of the tool list', () => {
  it(`the default set: at most ${MAX_TOOLS} tools and ${MAX_LIST_CHARS} characters of tools/list`, async () => {
    const { tools } = await handshake([], '2025-06-18');
    const chars = JSON.stringify(tools).length;
    expect(tools.length).toBeLessThanOrEqual(MAX_TOOLS);
    expect(chars).toBeLessThanOrEqual(MAX_LIST_CHARS);
    expect(tools.map((t) => t.name)).toEqual(toolsOf('default', true).map((t) => t.name));
  });

  it('--tools all: one tool per operation of the table (by its name), and the jobs', async () => {
    const { tools } = await handshake(['--tools', 'all'], '2025-06-18');
    const names = new Set(tools.map((t) => t.name));
    for (const op of OPERATIONS) expect(names.has(toolName(op.name)), op.name).toBe(!op.fixture);
    // A sandbox's fixtures are for test files: no tool sets them up.
    expect(OPERATIONS.filter((op) => op.fixture).map((op) => op.name)).toEqual([
      'setupAccount',
      'setupTemplate',
      'setupEnvelopeTemplate',
    ]);
    expect(names.has('find_bundles') && names.has('webhook_health')).toBe(true);
    expect(names.has('call_operation')).toBe(false);
  });

  it("answers a client of the SDK's newest protocol version in that version", async () => {
    const { init } = await handshake([], LATEST_PROTOCOL_VERSION);
    expect(LATEST_PROTOCOL_VERSION).toBe('2025-11-25');
    expect(init.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(init.capabilities).toMatchObject({ tools: {}, resources: {}, prompts: {} });
  });

  it("the CLI's tool-set names are the server's", () => {
    expect([...TOOL_SET_NAMES]).toEqual([...TOOL_SETS]);
  });

  it('a job is annotated as the operations it may call (the table decides)', () => {
    for (const t of toolsOf('default', true)) {
      if (t.name === 'call_operation') {
        expect(t.annotations).toEqual(annotationsOfAll(OPERATIONS.filter((o) => !o.fixture).map((o) => o.name)));
        continue;
      }
      const job = t as JobDef;
      const marks = annotationsOfAll(job.uses, job.onWhatItMakes);
      // A job that saves files on this machine is not read-only, whatever it reads.
      if (t.name === 'download_files') marks.readOnlyHint = false;
      expect(t.annotations, t.name).toEqual(marks);
      if (t.annotations.destructiveHint)
        expect(Object.keys(t.inputSchema.properties as object), t.name).toContain('confirm');
    }
  });
});
