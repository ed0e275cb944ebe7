import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { DATABASE_URL } from '../database/database.tokens.js';
import { EVENT_BUS, InMemoryEventBus, PostgresEventBus, type EventBus } from './event-bus.js';
import { WsKeepAlive } from './ws-keepalive.js';

/** The transport for match signals, chosen by PUBSUB: memory (one instance) or postgres. */
@Global()
@Module({
  providers: [
    WsKeepAlive,
    {
      provide: EVENT_BUS,
      inject: [APP_CONFIG, DATABASE_URL],
      useFactory: async (config: AppConfig, url: string): Promise<EventBus> => {
        if (config.pubsub === 'memory') return new InMemoryEventBus();
        const bus = new PostgresEventBus(url, config.dbHeartbeatMs);
        await bus.start();
        return bus;
      },
    },
  ],
  exports: [EVENT_BUS, WsKeepAlive],
})
export class RealtimeModule implements OnApplicationShutdown {
  constructor(@Inject(EVENT_BUS) private readonly bus: EventBus) {}

  async onApplicationShutdown(): Promise<void> {
    await this.bus.close();
  }
}
