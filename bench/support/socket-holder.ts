/**
 * A child process of the connection benchmarks: it holds a share of the graphql-ws client sockets
 * (one process may hold only so many open files, and the server under test needs its own), each
 * one connection with one subscription, and answers its parent over IPC. Times are the monotonic
 * clock shared by every process of the machine (process.hrtime), in milliseconds.
 */
import WebSocket from 'ws';

export interface HeldSocket {
  /** Another server's address than the fleet's (the fan-out floor), if any. */
  url?: string;
  matchId: string;
  query: string;
  token: string | null;
}

export type ToHolder =
  | { type: 'open'; wsUrl: string; sockets: HeldSocket[]; batch: number }
  | { type: 'arm'; matchId: string }
  | { type: 'status'; matchId: string }
  | { type: 'close' };

export type FromHolder =
  | { type: 'opened'; subscribed: number; failed: number; firstError: string | null }
  | { type: 'status'; watching: number; reached: number; lastAt: number; failed: number; firstError: string | null };

export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

interface Conn {
  ws: WebSocket;
  matchId: string;
  subscribed: boolean;
  failed: string | null;
  /** First `next` since the last arm, 0 while none. */
  firstAt: number;
  armed: boolean;
}

const conns: Conn[] = [];
const send = (m: FromHolder) => process.send!(m);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function open(wsUrl: string, s: HeldSocket): Conn {
  const ws = new WebSocket(s.url ?? wsUrl, 'graphql-transport-ws', { perMessageDeflate: false });
  const conn: Conn = { ws, matchId: s.matchId, subscribed: false, failed: null, firstAt: 0, armed: false };
  ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: s.token ? { authorization: `Bearer ${s.token}` } : {} })));
  ws.on('message', (data: Buffer) => {
    // The type is near the start of every message: no full parse on the receiving hot path.
    const head = data.toString('latin1', 0, 40);
    if (head.includes('"next"')) {
      if (conn.armed && conn.firstAt === 0) conn.firstAt = monotonicMs();
    } else if (head.includes('connection_ack')) {
      ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: s.query, variables: { id: s.matchId } } }));
      conn.subscribed = true;
    } else if (head.includes('"ping"')) ws.send('{"type":"pong"}');
    else if (head.includes('"error"')) conn.failed ??= data.toString().slice(0, 300);
  });
  ws.on('error', (e) => (conn.failed ??= e.message));
  ws.on('close', (code) => (conn.failed ??= `closed ${code}`));
  return conn;
}

async function openAll(wsUrl: string, sockets: HeldSocket[], batch: number): Promise<void> {
  for (let i = 0; i < sockets.length; i += batch) {
    const wave = sockets.slice(i, i + batch).map((s) => open(wsUrl, s));
    conns.push(...wave);
    const until = Date.now() + 30_000;
    while (Date.now() < until && !wave.every((c) => c.subscribed || c.failed)) await sleep(20);
  }
  const failed = conns.filter((c) => c.failed);
  send({
    type: 'opened',
    subscribed: conns.filter((c) => c.subscribed && !c.failed).length,
    failed: failed.length,
    firstError: failed[0]?.failed ?? null,
  });
}

process.on('message', (m: ToHolder) => {
  if (m.type === 'open') void openAll(m.wsUrl, m.sockets, m.batch);
  else if (m.type === 'arm') {
    for (const c of conns) {
      if (c.matchId !== m.matchId) continue;
      c.armed = true;
      c.firstAt = 0;
    }
  } else if (m.type === 'status') {
    const mine = conns.filter((c) => c.matchId === m.matchId && !c.failed);
    const reached = mine.filter((c) => c.firstAt > 0);
    const failed = conns.filter((c) => c.failed);
    send({
      type: 'status',
      watching: mine.length,
      reached: reached.length,
      lastAt: reached.reduce((t, c) => Math.max(t, c.firstAt), 0),
      failed: failed.length,
      firstError: failed[0]?.failed ?? null,
    });
  } else if (m.type === 'close') {
    for (const c of conns) c.ws.terminate();
    setTimeout(() => process.exit(0), 100);
  }
});
process.on('disconnect', () => process.exit(0));
