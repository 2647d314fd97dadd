// `esign serve` at /mcp: the same tools over Streamable HTTP, for key holders (/mcp?tools=all: one
// per operation). Stateless: each POST is one JSON-RPC exchange with a server and transport made for
// it, so nothing is kept between requests and any number of clients may call at once. Answered as
// JSON, except a call that may outlast the server's idle timeout (a long tool, or a client that asked
// for progress): that one is an SSE stream carrying progress notifications and keep-alive comments,
// so the connection is never idle while the call works, and the call ends within its own bound.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.js';
import type { EsignService } from '../service/service.js';
import type { RateLimit } from '../service/types.js';

export const MCP_PATH = '/mcp';

/**
 * A refusal before any JSON-RPC exchange (no key, a body that is not JSON, a wrong method) as
 * JSON-RPC answers it: id null, since the request was not read; -32700 for a body that does not
 * parse, else -32000 (the server-error range the MCP SDK's transport uses for the same refusals),
 * and the API's Error object as `data`.
 */
export const jsonRpcError = (e: ApiError) => ({
  jsonrpc: '2.0' as const,
  id: null,
  error: { code: e.code === 'parse_error' ? -32700 : -32000, message: e.message, data: e.toWire() },
});

export interface McpHttpOptions {
  service: EsignService;
  /** Authenticates and counts the request before its body is read (the API's own guard). */
  authorize: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /** The largest request body (a create with documents in base64). */
  bodyLimit: number;
  /** Takes one create from the key's create limit, or throws the API's 429 (a Bundle about to be made). */
  countCreate: (req: FastifyRequest, reply: FastifyReply) => void;
  /** Takes `n` more calls from the key's limit (a JSON-RPC batch: each of its calls counts), or throws the 429. */
  countCalls: (req: FastifyRequest, reply: FastifyReply, n: number) => void;
  /** The key's rate-limit status: the counter GET /rate_limit/ reports, so get_rate_limit says the same. */
  rateLimit: (req: FastifyRequest, reply: FastifyReply) => RateLimit;
  /** A connection with no traffic for this long is closed by the server: a stream speaks more often. */
  idleTimeoutMs: number;
  /** Where batch journals live (send_batch); absent: batches are refused. */
  batches?: { dir: string; backend: string };
}

/** A keep-alive comment on a streamed answer this often: three within the server's idle timeout. */
const keepAliveMs = (idleTimeoutMs: number) => Math.max(100, Math.floor(idleTimeoutMs / 3));

/** Whether the POSTed message is a call answered as a stream: a long tool (called so), or one the client wants progress of. */
function answersAsStream(body: unknown, isLong: (tool: string, args: Record<string, unknown>) => boolean): boolean {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const m = body as {
    method?: unknown;
    params?: { name?: unknown; arguments?: unknown; _meta?: { progressToken?: unknown } };
  };
  if (m.method !== 'tools/call' || !m.params || typeof m.params !== 'object') return false;
  const token = m.params._meta?.progressToken;
  if (typeof token === 'string' || typeof token === 'number') return true;
  const args = m.params.arguments && typeof m.params.arguments === 'object' ? m.params.arguments : {};
  return typeof m.params.name === 'string' && isLong(m.params.name, args as Record<string, unknown>);
}

/** The service as this request's tools see it: the rate-limit status is the server's counter for its key. */
function withRateLimit(service: EsignService, rateLimit: () => RateLimit): EsignService {
  return new Proxy(service, {
    get(target, prop) {
      if (prop === 'getRateLimit') return async () => rateLimit();
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

/**
 * The key as `Token KEY` whichever way it came: MCP clients send `Authorization: Bearer KEY` (the
 * protocol's authorization is OAuth's), the API's own clients `Token KEY`.
 */
function acceptBearer(req: FastifyRequest): void {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (m) req.headers.authorization = `Token ${m[1]}`;
}

/** Who made a request, for matching an answer to its question: a hash of its key. */
const ownerOf = (req: FastifyRequest) =>
  createHash('sha256')
    .update(req.headers.authorization ?? '')
    .digest('hex');

/** Valid JSON that is no JSON-RPC message (nor a batch of them): -32600, as JSON-RPC says. */
function invalidRequest(reply: FastifyReply, message: string) {
  reply.raw.writeHead(400, { 'content-type': 'application/json; charset=utf-8' }).end(
    JSON.stringify({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message, data: new ApiError(400, 'invalid', message).toWire() },
    }),
  );
}

const isToolsCall = (body: unknown) =>
  Boolean(body) && typeof body === 'object' && (body as { method?: unknown }).method === 'tools/call';

export function registerMcp(app: FastifyInstance, o: McpHttpOptions): void {
  app.route({
    method: 'POST',
    url: MCP_PATH,
    bodyLimit: o.bodyLimit,
    onRequest: async (req, reply) => {
      acceptBearer(req);
      await o.authorize(req, reply);
    },
    handler: async (req, reply) => {
      // The first call was counted before the body was read; a batch's others count now, all or none.
      if (Array.isArray(req.body) && req.body.length > 1) o.countCalls(req, reply, req.body.length - 1);
      const [{ createMcpServer }, { StreamableHTTPServerTransport }, { toolsOf }, types, ask] = await Promise.all([
        import('./server.js'),
        import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
        import('./toolsets.js'),
        import('@modelcontextprotocol/sdk/types.js'),
        import('./httpAsk.js'),
      ]);
      const messages = Array.isArray(req.body) ? req.body : [req.body];
      reply.hijack();
      if (!messages.length || !messages.every((m) => types.JSONRPCMessageSchema.safeParse(m).success))
        return invalidRequest(
          reply,
          'Invalid Request: the body is JSON but not a JSON-RPC 2.0 message (jsonrpc: "2.0", method, id) or a batch of them.',
        );
      // The client's answer to a question a call put to it (elicitation): to that call.
      if (ask.onlyAnswers(req.body)) {
        if (ask.deliverAnswers(req.body, ownerOf(req))) return void reply.raw.writeHead(202).end();
        return invalidRequest(reply, 'Invalid Request: no call of this key waits for an answer with this id.');
      }
      const set = (req.query as { tools?: string } | undefined)?.tools === 'all' ? 'all' : 'default';
      const long = new Map(toolsOf(set, false).flatMap((t) => (t.long ? [[t.name, t.long] as const] : [])));
      const isLong = (name: string, args: Record<string, unknown>) => {
        const l = long.get(name);
        return typeof l === 'function' ? l(args) : l === true;
      };
      // What the client declared at initialize comes back in its session id (httpAsk.ts).
      const clientCapabilities = ask.capabilitiesOf(req.headers['mcp-session-id']);
      const sessionId = messages.some((m) => types.isInitializeRequest(m)) ? ask.sessionIdFor(req.body) : undefined;
      if (sessionId) reply.raw.setHeader('mcp-session-id', sessionId);
      const server = createMcpServer({
        service: withRateLimit(o.service, () => o.rateLimit(req, reply)),
        fileAccess: false,
        tools: set,
        beforeCreate: () => o.countCreate(req, reply),
        batches: o.batches,
        clientCapabilities,
      });
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        // A question to the person travels on the call's stream, so a client that can be asked gets one.
        enableJsonResponse: !(answersAsStream(req.body, isLong) || (clientCapabilities && isToolsCall(req.body))),
        keepAliveMs: keepAliveMs(o.idleTimeoutMs),
      });
      const forget = ask.routeAnswers(transport, ownerOf(req));
      reply.raw.once('close', () => {
        forget();
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      try {
        await transport.handleRequest(req.raw, reply.raw, req.body);
      } catch {
        // The reply is ours now (hijacked): fastify's error handler cannot answer for it.
        if (!reply.raw.headersSent)
          reply.raw
            .writeHead(500, { 'content-type': 'application/json; charset=utf-8' })
            .end(JSON.stringify(jsonRpcError(new ApiError(500, 'error', 'Internal server error.'))));
        else reply.raw.destroy();
      }
    },
  });
  // No sessions, so no stream to open (GET) and none to end (DELETE).
  app.route({
    method: ['GET', 'DELETE', 'PUT', 'PATCH'],
    url: MCP_PATH,
    onRequest: o.authorize,
    handler: async (req, reply) => {
      reply.header('Allow', 'POST');
      throw new ApiError(
        405,
        'method_not_allowed',
        `Method "${req.method}" not allowed: this MCP endpoint is stateless (POST only).`,
      );
    },
  });
}
