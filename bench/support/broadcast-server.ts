/**
 * The fan-out floor, a child process of bench:subscriptions: a bare `ws` server that writes one
 * prepared message to every socket of a group in a plain loop, no GraphQL and no feed. The same
 * holders connect to it, so "last delivery" here is what the machine itself takes to write and
 * receive that many frames, in the same run and under the same load as the server measured.
 */
import { WebSocketServer, type WebSocket } from 'ws';
import { monotonicMs } from './socket-holder.js';

export type ToFloor = { type: 'broadcast'; group: string; message: string } | { type: 'memory' };
export type FromFloor =
  { type: 'listening'; port: number } | { type: 'sent'; at: number; sockets: number } | { type: 'memory'; rssBytes: number; sockets: number };

const groups = new Map<string, Set<WebSocket>>();
const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
wss.on('connection', (ws, req) => {
  const group = (req.url ?? '/').slice(1);
  let set = groups.get(group);
  if (!set) groups.set(group, (set = new Set()));
  set.add(ws);
  ws.on('message', (data: Buffer) => {
    if (data.toString().includes('connection_init')) ws.send('{"type":"connection_ack"}');
  });
  ws.on('close', () => set.delete(ws));
});
wss.on('listening', () => process.send!({ type: 'listening', port: (wss.address() as { port: number }).port } satisfies FromFloor));
process.on('message', (m: ToFloor) => {
  if (m.type === 'memory') {
    let sockets = 0;
    for (const g of groups.values()) sockets += g.size;
    return void process.send!({ type: 'memory', rssBytes: process.memoryUsage().rss, sockets } satisfies FromFloor);
  }
  const at = monotonicMs();
  const sockets = groups.get(m.group) ?? new Set();
  let n = 0;
  for (const ws of sockets) ws.send(`{"id":"${n++}","type":"next","payload":${m.message}}`);
  process.send!({ type: 'sent', at, sockets: n } satisfies FromFloor);
});
process.on('disconnect', () => process.exit(0));
