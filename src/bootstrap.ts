import 'reflect-metadata';
import { Logger as NestLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { answerBodyRefusalsAsGraphql } from './graphql/body-refusals.js';
import { refuseWhatApolloCannotAnswer } from './graphql/early-refusals.js';
import { QueryLimits } from './limits/query-limits.js';
import { answerFrameworkError, answerRefusalsWithCodes } from './common/rest-refusals.js';
import { cutArrivingRequestsOnClose } from './common/arriving-requests.js';
import { StartupRefusal } from './common/start-failure.js';
import { AppModule } from './app.module.js';
import type { AppConfig } from './config/config.js';
import { startDatabase, type RunningDatabase } from './database/database-url.js';
import { applyMigrations, type MigrationOutcome } from './database/migrate.js';
import { limitHttpByAddress } from './rate-limits/http-rate-limit.js';
import { refuseFraming } from './web/no-framing.js';
import { RateLimits } from './rate-limits/rate-limits.service.js';
import { InstanceSlot } from './realtime/instance-slot.js';
import { httpTimeouts } from './limits/http-timeouts.js';
import { GraphqlWsEndpoint } from './graphql/graphql-ws-endpoint.js';

export interface RunningServer {
  app: NestFastifyApplication;
  url: string;
  database: RunningDatabase;
  close(): Promise<void>;
}

/**
 * Starts everything the service needs: the database (embedded unless DATABASE_URL is set), its
 * migrations, this instance's claim on it (see InstanceSlot), then the HTTP + WebSocket server.
 * Used by main.ts and by the e2e tests alike.
 */
export async function startServer(config: AppConfig, options: { database?: RunningDatabase; logger?: boolean } = {}): Promise<RunningServer> {
  const database = options.database ?? (await startDatabase(config));
  let app: NestFastifyApplication | undefined;
  let slot: InstanceSlot | undefined;
  try {
    const migrations = config.migrateOnStart ? await applyMigrations(database.url) : null;
    // Refused here when this instance's PUBSUB cannot run beside another's on this database.
    slot = await InstanceSlot.claim(database.url, config.pubsub, config.dbHeartbeatMs);
    // Fastify rather than Express: about a fifth less CPU per GraphQL request here (bench:moves).
    app = await NestFactory.create<NestFastifyApplication>(
      AppModule.forRoot(config, database.url, slot),
      new FastifyAdapter({
        ...httpTimeouts(config.limits.http),
        frameworkErrors: answerFrameworkError,
        // A request that arrives on a kept-alive connection while the server closes is answered
        // (with Connection: close), as any other: Fastify's default is a bare 503 that no GraphQL
        // client can read. The work it starts is durable like any (bots and deliveries stay due).
        return503OnClosing: false,
      }),
      {
        bufferLogs: true,
        // A failing provider must reach main's one-line reason, not abort the process or print a
        // stack: Nest's own report of it stays in the buffer (printed only when logging verbosely).
        abortOnError: false,
        autoFlushLogs: false,
        logger: options.logger === false ? false : undefined,
      },
    );
    if (options.logger !== false) app.useLogger(app.get(Logger));
    limitHttpByAddress(app.getHttpAdapter().getInstance(), app.get(RateLimits));
    answerBodyRefusalsAsGraphql(app.getHttpAdapter().getInstance());
    refuseWhatApolloCannotAnswer(app.getHttpAdapter().getInstance(), app.get(QueryLimits));
    answerRefusalsWithCodes(app.getHttpAdapter().getInstance());
    refuseFraming(app.getHttpAdapter().getInstance());
    cutArrivingRequestsOnClose(app.getHttpAdapter().getInstance());
    app.flushLogs();
    if (migrations && options.logger !== false) logMigrations(app.get(Logger), migrations);
    // No enableShutdownHooks(): main.ts owns the signals (one orderly close, then the database).
    await app.init();
    app.get(GraphqlWsEndpoint).listen(app.getHttpServer());
    await app.listen(config.port, config.host).catch((e: NodeJS.ErrnoException) => {
      // Told apart from the database's: both fail on an unknown host name.
      if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN' || e.code === 'EADDRNOTAVAIL')
        throw new StartupRefusal(`cannot listen on ${config.host}:${config.port}: ${e.message} (check HOST)`);
      throw e;
    });
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const running = app;
    return {
      app: running,
      url: `http://127.0.0.1:${port}`,
      database,
      close: async () => {
        // Sockets first: the HTTP server's close waits for them (see GraphqlWsEndpoint.goAway).
        await running.get(GraphqlWsEndpoint).goAway();
        await running.close();
        await slot?.close();
        if (!options.database) await database.stop();
      },
    };
  } catch (e) {
    if (config.logLevel === 'debug' || config.logLevel === 'trace') NestLogger.flush();
    else NestLogger.detachBuffer();
    await app?.close().catch(() => {});
    await slot?.close();
    if (!options.database) await database.stop().catch(() => {});
    throw e;
  }
}

/** What start-up did to the schema, in the log: the only trace of it besides `_prisma_migrations`. */
function logMigrations(logger: Logger, { applied, warnings }: MigrationOutcome): void {
  if (applied.length > 0) logger.log(`applied migrations: ${applied.join(', ')}`, 'Migrations');
  for (const warning of warnings) logger.warn(warning, 'Migrations');
}
