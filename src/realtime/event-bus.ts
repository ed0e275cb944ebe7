import { EventEmitter } from 'node:events';
import postgres from 'postgres';

/**
 * What crosses between server instances: "match M has events up to seq S, and it has just
 * become player P's turn" (or "it has just ended for players P, Q"). Small on purpose: subscribers read the events themselves from the
 * database, so ordering and completeness come from the table, never from the transport.
 */
export interface MatchSignal {
  matchId: string;
  lastSeq: number;
  version: number;
  /** the player whose turn it has just become, when that is a human */
  turnPlayerId: string | null;
  /** when this commit ended the match (FINISHED or ABANDONED): its players, to be told once */
  endedFor?: string[];
}

export interface EventBus {
  publish(signal: MatchSignal): Promise<void>;
  /** Every signal, from this instance and (multi-instance transports) from the others. */
  onSignal(handler: (signal: MatchSignal) => void): void;
  close(): Promise<void>;
}

export const EVENT_BUS = Symbol('EVENT_BUS');

/** One process: signals go straight to this process's subscribers. */
export class InMemoryEventBus implements EventBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async publish(signal: MatchSignal): Promise<void> {
    this.emitter.emit('signal', signal);
  }

  onSignal(handler: (signal: MatchSignal) => void): void {
    this.emitter.on('signal', handler);
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

const CHANNEL = 'dominoes_match_events';

/**
 * Several instances sharing one database: PostgreSQL LISTEN/NOTIFY, which needs no extra
 * service and works on the embedded database too. postgres.js re-issues LISTEN after a dropped
 * connection; a subscriber that missed signals meanwhile still catches up from the table on the
 * next one, since it always reads every event after the last seq it delivered.
 */
export class PostgresEventBus implements EventBus {
  private readonly sql: postgres.Sql;
  private readonly local = new InMemoryEventBus();
  private listening: Promise<unknown> | undefined;

  constructor(url: string) {
    this.sql = postgres(url, { max: 2, onnotice: () => {} });
  }

  async start(): Promise<void> {
    this.listening ??= this.sql.listen(CHANNEL, (payload) => {
      try {
        void this.local.publish(JSON.parse(payload) as MatchSignal);
      } catch {
        // Not ours: ignore anything on the channel that is not a signal.
      }
    });
    await this.listening;
  }

  async publish(signal: MatchSignal): Promise<void> {
    await this.sql.notify(CHANNEL, JSON.stringify(signal));
  }

  onSignal(handler: (signal: MatchSignal) => void): void {
    this.local.onSignal(handler);
  }

  async close(): Promise<void> {
    await this.local.close();
    await this.sql.end({ timeout: 2 });
  }
}
