import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { Inject, Logger, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { getDistDirectory } from 'altair-static';
import type { FastifyInstance } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { IDE_ASSETS_PREFIX } from './graphql-ide.js';

/**
 * The built web client (npm run build writes it to dist/web; web/ holds only its sources): found beside the compiled server
 * (dist/src/web → dist/web) or, when the sources run directly (tests), under dist/ of the project.
 */
export function webClientRoot(): string | null {
  const candidates = [new URL('../../web/', import.meta.url), new URL('../../dist/web/', import.meta.url)];
  const found = candidates.find((u) => existsSync(new URL('app.js', u)));
  return found ? fileURLToPath(found) : null;
}

/**
 * The web client's own policy: its page is never framed by another site (the page holds a token
 * and has Resign and Play buttons, so a framing page could trick a player into clicking them),
 * runs only its own script and styles (it has no inline ones), and talks only to this server.
 */
export const WEB_CLIENT_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' ws: wss:; " +
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** What the web client asks the server about itself: whether the GraphQL IDE is served (its link shows only then). */
export const WEB_CLIENT_SETTINGS_PATH = '/web-client.json';

function setWebClientHeaders(res: { setHeader(name: string, value: string): unknown }): void {
  for (const [name, value] of Object.entries(WEB_CLIENT_HEADERS)) res.setHeader(name, value);
}

/**
 * Serves the web client at / and, when enabled, the GraphQL IDE's files, with @fastify/static 9
 * (made for Fastify 5). Not 10, the range @nestjs/platform-fastify names as an optional peer (so
 * `npm ls` calls 9 invalid): 10 requires an ESM-only content-disposition, which the e2e suites'
 * CommonJS module loader (Jest) cannot load.
 */
@Module({})
export class WebModule implements OnModuleInit {
  private readonly logger = new Logger('Web');

  constructor(
    private readonly adapter: HttpAdapterHost,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    const fastify = this.adapter.httpAdapter.getInstance<FastifyInstance>();
    const root = webClientRoot();
    // wildcard: false routes exactly the files present at start-up, so no catch-all route
    // shadows the API's 404s.
    if (root) {
      await fastify.register(fastifyStatic, { root, prefix: '/', wildcard: false, index: 'index.html', setHeaders: setWebClientHeaders });
      const settings = JSON.stringify({ graphqlIde: this.config.graphqlIde });
      fastify.get(WEB_CLIENT_SETTINGS_PATH, (_request, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(settings));
    } else this.logger.warn('web client not built (npm run build): nothing is served at /');
    if (this.config.graphqlIde) {
      await fastify.register(fastifyStatic, { root: getDistDirectory(), prefix: IDE_ASSETS_PREFIX, wildcard: false, decorateReply: false });
    }
  }
}
