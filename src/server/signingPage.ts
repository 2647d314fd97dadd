// The signing page behind signing links and embedded signing URLs (to be built).
import type { FastifyInstance } from 'fastify';
import type { LocalEngine } from '../local/engine.js';

export function registerSigningPage(_app: FastifyInstance, _engine: LocalEngine): void {}
