// `esign mcp`: the MCP server on stdin/stdout (newline-delimited JSON-RPC), until stdin ends.
import { Transform, Writable, type Readable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

/** The longest message a client may send: a Bundle with its documents in base64 fits. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Passes lines through; a line longer than `max` ends the stream with an error (nothing of it is parsed). */
export function boundLines(max: number): Transform {
  let open = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      let start = 0;
      for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
        if (open + nl - start > max) return done(new Error(`a message longer than ${max} bytes`));
        open = 0;
        start = nl + 1;
      }
      open += chunk.length - start;
      if (open > max) return done(new Error(`a message longer than ${max} bytes`));
      done(null, chunk);
    },
  });
}

/** Serves until stdin ends or the input breaks a bound; resolves then, the server closed. */
export async function serveStdio(server: Server, stdin: Readable, write: (text: string) => void, log: (line: string) => void): Promise<void> {
  const input = stdin.pipe(boundLines(MAX_LINE_BYTES));
  const output = new Writable({
    write(chunk: Buffer, _enc, done) {
      write(chunk.toString('utf8'));
      done();
    },
  });
  const transport = new StdioServerTransport(input, output);
  await server.connect(transport);
  await new Promise<void>((resolve) => {
    input.once('end', resolve);
    input.once('error', (e) => {
      log(`esign mcp: stopped reading: ${e.message}`);
      resolve();
    });
  });
  await server.close();
}
