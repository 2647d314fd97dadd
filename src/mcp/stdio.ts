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
  const input = stdin.pipe(wholeLines(maxLineBytes));
  const output = new Writable({
    write(chunk: Buffer, _enc, done) {
      write(chunk.toString('utf8'));
      done();
    },
  });
  const ended = new Promise<Error | undefined>((resolve) => {
    input.once('end', () => resolve(undefined));
    input.once('error', resolve);
  });
  await server.connect(new StdioServerTransport(input, output, { maxBufferSize: maxLineBytes + 1 }));
  const broken = await ended;
  stdin.unpipe(input);
  stdin.destroy();
  await server.close();
  if (broken) throw broken;
}
