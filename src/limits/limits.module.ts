import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { QueryLimits } from './query-limits.js';
import { WsConnections } from './ws-connections.js';

/** The limits, for the GraphQL setup (both transports) and the WebSocket server alike. */
@Global()
@Module({
  providers: [{ provide: QueryLimits, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new QueryLimits(config.limits.query) }, WsConnections],
  exports: [QueryLimits, WsConnections],
})
export class LimitsModule {}
