// The doors of a server (the API, the sandbox, file links, the pages, the support console, MCP) and
// the one error handler and one not-found handler that hold for all of them.
//
// Fastify gives a route the error handler its scope had when the route was settled, so a handler
// set after some routes leaves those with fastify's own body. Here the handlers are set before any
// door can add a route (`newServer`, or the first `openDoors` on a bare instance), and each door is
// a plugin in its own scope that inherits them; a door never sets its own. What differs between
// doors is how an error is answered (`Door.answer`): the API's Error object, a page for people, a
// JSON-RPC error for agents. Which door answers is the door of the route, or for a path no route
// matches, the door that owns the path.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, {
  type FastifyHttpOptions,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { ApiError } from '../domain/errors.js';
import { type RefusalLimits, refusalOf } from './refusals.js';

type DoorName = 'api' | 'sandbox' | 'sandboxes' | 'files' | 'pages' | 'console' | 'mcp';

/** How a door answers an error: `reply` has the error's status set already. */
export type ErrorAnswer = (
  req: FastifyRequest,
  reply: FastifyReply,
  e: ApiError,
) => FastifyReply | Promise<FastifyReply>;

export interface Door {
  name: DoorName;
  /** Path prefixes it owns: a request under one that matches no route is this door's not-found. */
  paths: readonly string[];
  answer: ErrorAnswer;
  /** What its not-found says (else "No such endpoint: METHOD PATH"). */
  notFound?: string;
  /** The limits its refusals name (the API's; a page's forms set their own, so it names none). */
  refusals?: RefusalLimits;
  /** Its routes, hooks and parsers, in its own encapsulated scope. */
  register: (scope: FastifyInstance) => void | Promise<void>;
}

/** The API's Error object, as JSON. */
export const errorObject: ErrorAnswer = (_req, reply, e) =>
  reply.type('application/json; charset=utf-8').send(e.toWire());

/** The door that answers when no door owns the path (an API server's unknown route). */
const FALLBACK: Door = { name: 'api', paths: [], answer: errorObject, register: () => {} };

/** The route's door, recorded in its config when the door registered it. */
interface DoorConfig {
  door?: DoorName;
}

interface Doors {
  doors: Door[];
  log: (line: string) => void;
}

/** The doors of each server, by its HTTP server (every scope of one fastify shares it). */
const served = new WeakMap<object, Doors>();

function doorOf(req: FastifyRequest, state: Doors | undefined): Door {
  const doors = state?.doors ?? [];
  const name = (req.routeOptions?.config as DoorConfig | undefined)?.door;
  const path = req.url.split('?')[0];
  const owner = (d: Door) => d.paths.some((p) => path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`));
  return (name && doors.find((d) => d.name === name)) || doors.find(owner) || FALLBACK;
}

const notFound = (req: FastifyRequest) =>
  new ApiError(
    404,
    'not_found',
    doorOf(req, served.get(req.server.server)).notFound ?? `No such endpoint: ${req.method} ${req.url.split('?')[0]}`,
  );

/** Every error of every door, whatever raised it: fastify, a parser, a plugin, the service, a bug. */
async function answerError(error: unknown, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const state = served.get(req.server.server);
  const door = doorOf(req, state);
  const e =
    refusalOf(error, door.refusals ?? {}, req.headers['content-type']) ??
    new ApiError(500, 'error', 'Internal server error.');
  // The body was not read (refused before it, or cut short): the connection cannot carry another request.
  if (!req.raw.complete) reply.header('Connection', 'close');
  if (e.status >= 500 && e.status !== 501) state?.log(`error: ${(error as Error)?.stack ?? String(error)}`);
  return door.answer(req, reply.code(e.status), e);
}

/** Status and Error object of a request that never got as far as fastify (bad request line, slow headers). */
function clientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, e] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', new ApiError(408, 'error', 'The request did not arrive in time.')]
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', new ApiError(431, 'invalid', 'The request headers are too large.')]
        : [400, 'Bad Request', new ApiError(400, 'parse_error', 'Malformed HTTP request.')];
  const body = JSON.stringify(e.toWire());
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy(err);
}

function install(app: FastifyInstance, log: (line: string) => void): Doors {
  const state: Doors = { doors: [], log };
  served.set(app.server, state);
  // No route: refused before its body is read (fastify would parse it for the not-found handler).
  app.addHook('onRequest', async (req) => {
    if (req.is404) throw notFound(req);
  });
  app.setNotFoundHandler(async (req) => {
    throw notFound(req);
  });
  app.setErrorHandler(answerError);
  return state;
}

/** A fastify server with the one error and not-found handler in place before anything else is. */
export function newServer(
  options: FastifyHttpOptions<Server>,
  log: (line: string) => void = () => {},
): FastifyInstance {
  const app = Fastify({
    ...options,
    // A URL fastify cannot route (bad percent-encoding, a parameter too long) goes to the same handler.
    frameworkErrors: (error, req, reply) => void answerError(error, req, reply),
    clientErrorHandler: clientError,
  });
  install(app, log);
  return app;
}

/**
 * Registers each door as a plugin of `app` (the root), in the order given: the order changes
 * nothing, since the handlers are in place first (a bare fastify gets them on its first call).
 */
export async function openDoors(app: FastifyInstance, doors: readonly Door[]): Promise<void> {
  const state = served.get(app.server) ?? install(app, () => {});
  for (const door of doors) {
    state.doors.push(door);
    await app.register(async (scope) => {
      scope.addHook('onRoute', (route) => {
        route.config = { ...route.config, door: door.name } as typeof route.config;
      });
      await door.register(scope);
    });
  }
}
