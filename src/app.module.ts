import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { Logger, Module, RequestMethod, type DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { GraphQLModule } from '@nestjs/graphql';
import { LoggerModule } from 'nestjs-pino';
import { ApiErrorFilter, GraphQLErrorFilter } from './graphql/api-error.filter.js';
import { formatError } from './graphql/format-error.js';
import { graphqlContext } from './graphql/graphql-context.js';
import { GraphqlWsEndpoint } from './graphql/graphql-ws-endpoint.js';
import { subscriptionsOverHttpPlugin } from './graphql/subscriptions-over-http.plugin.js';
import { APP_CONFIG, type AppConfig } from './config/config.js';
import { DatabaseModule } from './database/database.module.js';
import { DueWorkModule } from './due-work/due-work.module.js';
import { DATABASE_URL } from './database/database.tokens.js';
import { INSTANCE_STANDING, type InstanceStanding } from './realtime/instance-slot.js';
import { HealthModule } from './health/health.module.js';
import { HistoryModule } from './history/history.module.js';
import { LimitsModule } from './limits/limits.module.js';
import { QueryLimits } from './limits/query-limits.js';
import { DateTimeScalar } from './graphql/date-time.scalar.js';
import { clientGoneAtDebug } from './common/client-gone.js';
import { WsConnections } from './limits/ws-connections.js';
import { MatchesModule } from './matches/matches.module.js';
import { commandTimingPlugin } from './metrics/command-timing.plugin.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { MetricsService } from './metrics/metrics.service.js';
import { PlayersModule } from './players/players.module.js';
import { PlayersService } from './players/players.service.js';
import { RateLimitsModule } from './rate-limits/rate-limits.module.js';
import { RateLimits } from './rate-limits/rate-limits.service.js';
import { RealtimeModule } from './realtime/realtime.module.js';
import { SubscriptionsModule } from './subscriptions/subscriptions.module.js';
import { BenchFloorModule } from './bench-floor/bench-floor.module.js';
import { BoardModule } from './board/board.module.js';
import { graphqlIdePlugin } from './web/graphql-ide.js';
import { WebModule } from './web/web.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';

@Module({})
export class AppModule {
  /** The whole service, given its validated configuration and the database URL to use. */
  static forRoot(config: AppConfig, databaseUrl: string, instance: InstanceStanding = { conflicting: false }): DynamicModule {
    const logger = new Logger('GraphQL');
    const verbose = config.logLevel === 'debug' || config.logLevel === 'trace';
    return {
      module: AppModule,
      global: true,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: {
            level: config.logLevel,
            // GraphQL answers 200 even for errors; the request line is noise at info level.
            autoLogging: verbose,
            // Logged requests carry their headers: a player's token (or the metrics token) is never written out.
            redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
            hooks: { logMethod: clientGoneAtDebug },
          },
          // Request-bound loggers (pino-http) only when logging verbosely: binding one to each
          // request turns on async-context tracking for every promise of the process, measured
          // at ~3x fewer GraphQL requests/s here. Services and the error formatter log anyway.
          exclude: verbose ? [] : [{ path: '{/*splat}', method: RequestMethod.ALL }],
        }),
        LimitsModule,
        DatabaseModule,
        RateLimitsModule,
        DueWorkModule,
        HealthModule,
        PlayersModule,
        MatchesModule,
        HistoryModule,
        WebhooksModule,
        RealtimeModule,
        SubscriptionsModule,
        MetricsModule,
        BoardModule,
        WebModule,
        ...(config.benchFloor ? [BenchFloorModule] : []),
        GraphQLModule.forRootAsync<ApolloDriverConfig>({
          driver: ApolloDriver,
          imports: [PlayersModule, LimitsModule],
          inject: [PlayersService, RateLimits, QueryLimits, WsConnections, MetricsService],
          useFactory: (players: PlayersService, limits: RateLimits, queries: QueryLimits, connections: WsConnections, metrics: MetricsService) => {
            return {
              autoSchemaFile: true,
              sortSchema: true,
              buildSchemaOptions: { scalarsMap: [{ type: Date, scalar: DateTimeScalar }] },
              // The CDN GraphiQL page stays off; the offline IDE (src/web) takes its place.
              graphiql: false,
              // The query limits (src/limits): the same parse, validation and cost checks as graphql-ws below.
              // Apollo declares graphql's types for both its ESM and CJS builds: hence the casts.
              // Introspection is refused by a rule of the shared list (GRAPHQL_INTROSPECTION), so that
              // both transports answer it alike: Apollo's own switch stays open.
              introspection: true,
              parseOptions: queries.parseOptions,
              validationRules: queries.validationRules as never,
              // Responses are per viewer and never cached; the default cache-control plugin would
              // still hook every resolved field of every request.
              plugins: [
                ApolloServerPluginCacheControlDisabled(),
                queries.apolloPlugin() as never,
                subscriptionsOverHttpPlugin() as never,
                commandTimingPlugin(metrics) as never,
                ...(config.graphqlIde ? [graphqlIdePlugin('/graphql')] : []),
              ],
              includeStacktraceInErrorResponses: false,
              context: graphqlContext({ players, limits, connections }),
              // Field resolvers (Match.rounds, Round.boardAt, Player.stats) get the same error mapping.
              fieldResolverEnhancers: ['filters'],
              // graphql-ws is served by GraphqlWsEndpoint (src/graphql), not by the driver.
              formatError: formatError(
                (err) => logger.error(err),
                queries,
                (code) => metrics.graphqlError(code),
              ),
            };
          },
        }),
      ],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: DATABASE_URL, useValue: databaseUrl },
        { provide: INSTANCE_STANDING, useValue: instance },
        { provide: APP_FILTER, useClass: ApiErrorFilter },
        { provide: APP_FILTER, useClass: GraphQLErrorFilter },
        GraphqlWsEndpoint,
      ],
      exports: [APP_CONFIG, DATABASE_URL, INSTANCE_STANDING],
    };
  }
}
