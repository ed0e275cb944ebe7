import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { DATABASE_URL } from '../database/database.tokens.js';
import type { StoredEvent } from '../matches/match-record.js';
import { EVENT_BUS, InMemoryEventBus, PostgresEventBus, type EventBus } from './event-bus.js';
import { MATCH_NOTIFIER, type MatchNotifier } from './match-notifier.js';
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
        const bus = new PostgresEventBus(url);
        await bus.start();
        return bus;
      },
    },
    {
      provide: MATCH_NOTIFIER,
      inject: [EVENT_BUS],
      useFactory: (bus: EventBus): MatchNotifier => ({
        committed: async (matchId: string, events: StoredEvent[], version: number, turnPlayerId: string | null, endedFor: string[] = []) => {
          if (events.length === 0) return;
          const signal = { matchId, lastSeq: events[events.length - 1].seq, version, turnPlayerId };
          await bus.publish(endedFor.length > 0 ? { ...signal, endedFor } : signal);
        },
      }),
    },
  ],
  exports: [EVENT_BUS, MATCH_NOTIFIER, WsKeepAlive],
})
export class RealtimeModule implements OnApplicationShutdown {
  constructor(@Inject(EVENT_BUS) private readonly bus: EventBus) {}

  async onApplicationShutdown(): Promise<void> {
    await this.bus.close();
  }
}
