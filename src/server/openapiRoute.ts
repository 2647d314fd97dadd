// GET /api/v2/openapi.json: the OpenAPI 3.1 document of API v2, public like the spec it describes.
import type { FastifyInstance } from 'fastify';
import { OPENAPI_PATH } from '../service/operationTable.js';

export function registerOpenApi(app: FastifyInstance, prefix: string): void {
  app.get(`${prefix}${OPENAPI_PATH}`, async (_req, reply) => {
    const { openApiDocument } = await import('../service/openapi.js');
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(openApiDocument()));
  });
}
