// `esign mcp`: the MCP server on stdin/stdout (newline-delimited JSON-RPC), until stdin ends.
import { Transform, Writable, type Readable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

/**
 * Whole lines out, each in one chunk (the SDK's read buffer concatenates every chunk it gets, which
 * is quadratic over a long message); a line longer than `max` fails the stream, unread.
 */
export function wholeLines(max: number): Transform {
  let parts: Buffer[] = [];
  let open = 0;
  const tooLong = () => new Error(`a message longer than ${max} bytes`);
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      let start = 0;
      for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
        if (open + nl - start > max) return done(tooLong());
        this.push(Buffer.concat([...parts, chunk.subarray(start, nl + 1)]));
        parts = [];
        open = 0;
        start = nl + 1;
      }
      if (start < chunk.length) {
        open += chunk.length - start;
        if (open > max) return done(tooLong());
        parts.push(chunk.subarray(start));
      }
      done();
    },
  });
}

const BATCH_REFUSED = {
  jsonrpc: '2.0',
  id: null,
  error: { code: -32600, message: 'Invalid Request: a JSON-RPC batch is not taken here; send one message per line.' },
};

/**
 * Serves until stdin ends (resolves) or a message longer than `maxLineBytes` breaks the bound
 * (rejects); the server is closed either way.
 */
export async function serveStdio(
  server: Server,
  stdin: Readable,
  write: (text: string) => void,
  maxLineBytes: number,
): Promise<void> {
  // A JSON-RPC batch (a line that is an array) is refused in words: the protocol since 2025-06-18 has
  // no batches, and the SDK's reader would drop it without an answer.
  const lines = stdin.pipe(wholeLines(maxLineBytes));
  const input = lines.pipe(
    new Transform({
      transform(line: Buffer, _enc, done) {
        if (line[line.findIndex((b) => b !== 0x20 && b !== 0x09)] === 0x5b) {
          write(`${JSON.stringify(BATCH_REFUSED)}\n`);
          return done();
        }
        done(null, line);
      },
    }),
  );
  const output = new Writable({
    write(chunk: Buffer, _enc, done) {
      write(chunk.toString('utf8'));
      done();
    },
  });
  const ended = new Promise<Error | undefined>((resolve) => {
    input.once('end', () => resolve(undefined));
    input.once('error', resolve);
    lines.once('error', resolve);
  });
  await server.connect(new StdioServerTransport(input, output, { maxBufferSize: maxLineBytes + 1 }));
  const broken = await ended;
  stdin.unpipe(lines);
  stdin.destroy();
  await server.close();
  if (broken) throw broken;
}
