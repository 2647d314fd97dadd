// A page of a list on the wire: the items as a bare array, `X-Blueink-Pagination:
// page,total_pages,per_page,total` and an RFC 5988 Link header (first, prev, next, last).
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Page } from '../service/types.js';

declare module 'fastify' {
  interface FastifyReply {
    /** Sends a page of a list with its pagination headers. */
    sendPage(page: Page<unknown>): FastifyReply;
  }
}

export interface PaginationOptions {
  /** Base of the Link headers: the configured address, else the listening one (undefined: not listening). */
  linkBase: () => string | undefined;
}

function paginationHeaders(req: FastifyRequest, reply: FastifyReply, page: Page<unknown>, base: string | undefined) {
  reply.header('X-Blueink-Pagination', `${page.page},${page.total_pages},${page.per_page},${page.total}`);
  // From the configured or listening address: the Host header is the client's to choose. Served
  // in-process (esign api on the local engine) there is neither, and the links are relative.
  const url = new URL(`${(base ?? 'http://in-process').replace(/\/+$/, '')}${req.url}`);
  const link = (n: number, rel: string) => {
    url.searchParams.set('page', String(n));
    return `<${base ? url.toString() : `${url.pathname}${url.search}`}>; rel="${rel}"`;
  };
  const links = [link(1, 'first')];
  if (page.page > 1) links.push(link(page.page - 1, 'prev'));
  if (page.page < page.total_pages) links.push(link(page.page + 1, 'next'));
  links.push(link(page.total_pages, 'last'));
  reply.header('Link', links.join(', '));
}

/** Decorates the server's replies, not a scope's (fastify-plugin): the API and sandbox doors both send pages. */
export const pagination = fp<PaginationOptions>(
  async (app, { linkBase }) => {
    app.decorateReply('sendPage', function (this: FastifyReply, page: Page<unknown>) {
      paginationHeaders(this.request, this, page, linkBase());
      return this.code(200).send(page.items);
    });
  },
  { name: 'esign-pagination' },
);
