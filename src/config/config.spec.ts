import { loadConfig } from './config.js';

/** Settings a typo could turn into a server that runs but misbehaves are refused at boot. */
describe('loadConfig: bounds of settings that feed timers and stored times', () => {
  it('refuses a WebSocket keep-alive past an hour (Node timers overflow past 2^31 - 1 ms and fire every millisecond)', () => {
    expect(loadConfig({ WS_KEEPALIVE_MS: '3600000' }).wsKeepAliveMs).toBe(3_600_000);
    expect(() => loadConfig({ WS_KEEPALIVE_MS: '3000000000' })).toThrow(/WS_KEEPALIVE_MS/);
  });

  it('refuses a webhook retry delay past 30 days (a time out of the database range kept the message pending for good)', () => {
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '5,2592000' }).webhooks.retryScheduleMs).toEqual([5_000, 2_592_000_000]);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '5,99999999999999999999' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
  });

  it('bounds the shutdown: 15 s unless set, at least a second', () => {
    expect(loadConfig({}).shutdownTimeoutMs).toBe(15_000);
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: '10' })).toThrow(/SHUTDOWN_TIMEOUT_MS/);
  });

  it('reads a port in decimal digits only', () => {
    expect(loadConfig({ PORT: '4106' }).port).toBe(4106);
    expect(() => loadConfig({ PORT: '0x100A' })).toThrow(/PORT/);
    expect(() => loadConfig({ EMBEDDED_PG_PORT: '1e3' })).toThrow(/EMBEDDED_PG_PORT/);
  });
});
