// The pages behind preparation-session URLs on esign serve (TO BE IMPLEMENTED: helper E).
import type { FastifyInstance } from 'fastify';
import type { LocalEngine } from '../local/engine.js';

export function registerPreparationPages(_app: FastifyInstance, _engine: LocalEngine): void {}
