import { createSocket } from 'node:dgram';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Resolver } from 'node:dns/promises';
import { BlockedAddressError, guardedLookup, isPublicAddress, urlProblem } from './ssrf-guard.js';

describe('the SSRF guard', () => {
  it('tells public addresses from private, loopback, link-local, ULA and multicast ones', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700::1111', '2001:4860:4860::8888', '::ffff:8.8.8.8'])
      expect(isPublicAddress(a)).toBe(true);
    for (const a of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fec0::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::7f00:1',
      '64:ff9b:1::a00:1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '2002:7f00:1::1',
      'not-an-ip',
    ])
      expect(isPublicAddress(a)).toBe(false);
  });

  it('takes only https URLs of public hosts by default, anything http(s) with allowPrivate', () => {
    expect(urlProblem('https://hooks.example.com/x', false)).toBeNull();
    expect(urlProblem('http://hooks.example.com/x', false)).toMatch(/https/);
    expect(urlProblem('https://127.0.0.1/x', false)).toMatch(/public/);
    expect(urlProblem('https://[::1]:8443/x', false)).toMatch(/public/);
    expect(urlProblem('https://localhost/x', false)).toMatch(/localhost/);
    // A fully qualified name's trailing dot names the same host.
    expect(urlProblem('https://localhost./x', false)).toMatch(/localhost/);
    expect(urlProblem('https://LOCALHOST./x', false)).toMatch(/localhost/);
    expect(urlProblem('https://a.localhost./x', false)).toMatch(/localhost/);
    expect(urlProblem('https://hooks.example.com./x', false)).toBeNull();
    expect(urlProblem('https://user:pw@hooks.example.com/x', false)).toMatch(/credentials/);
    expect(urlProblem('ftp://hooks.example.com/x', true)).toBe('url must be https:// or http://');
    expect(urlProblem('http://127.0.0.1:3000/x', true)).toBeNull();
  });

  it('says of a name that does not resolve what it says of a private one: the owner cannot tell them apart', async () => {
    const lookup = guardedLookup(false);
    const nowhere = 'no-such-host.invalid';
    const err = await new Promise<Error | null>((resolve) => lookup(nowhere, {}, (e) => resolve(e)));
    expect(err?.message).toBe(`${nowhere} is not a public address (after DNS resolution)`);
    expect((err as BlockedAddressError).detail).toMatch(/does not resolve/);
    // With private addresses allowed (development), the resolver's own error comes through.
    const open = await new Promise<NodeJS.ErrnoException | null>((resolve) => guardedLookup(true)(nowhere, {}, (e) => resolve(e)));
    expect(open?.code).toMatch(/ENOTFOUND|EAI_AGAIN/);
  });

  it('refuses a name that resolves to a loopback address, after the lookup', async () => {
    const lookup = guardedLookup(false);
    const err = await new Promise<Error | null>((resolve) => lookup('localhost', {}, (e) => resolve(e)));
    expect(err?.message).toMatch(/not a public address/);
    // The message reaches the endpoint's owner (the delivery log): it never says what the name
    // resolved to. The address is in the detail, for the server's log.
    expect(err?.message).not.toMatch(/127\.|::1/);
    expect(err).toBeInstanceOf(BlockedAddressError);
    expect((err as BlockedAddressError).detail).toMatch(/localhost resolves to (127\.0\.0\.1|::1)/);
    const allowed = await new Promise<string>((resolve, reject) =>
      guardedLookup(true)('localhost', {}, (e, a) => (e ? reject(e) : resolve(a as string))),
    );
    expect(isPublicAddress(allowed)).toBe(false);
  });
});

/**
 * A name server on 127.0.0.1 that answers `good.test` with a public IPv4 address (and no IPv6)
 * and never answers anything else: an attacker's name server that swallows queries.
 */
async function nameServer(): Promise<{ address: string; queriesOf: (name: string) => number; close: () => void }> {
  const socket = createSocket('udp4');
  const asked: string[] = [];
  socket.on('message', (query, peer) => {
    let end = 12;
    const labels: string[] = [];
    while (query[end] !== 0) {
      labels.push(query.subarray(end + 1, end + 1 + query[end]).toString());
      end += query[end] + 1;
    }
    const type = query.readUInt16BE(end + 1);
    asked.push(labels.join('.'));
    if (labels.join('.') !== 'good.test') return;
    const question = query.subarray(12, end + 5);
    const answers = type === 1 ? [Buffer.from([0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 93, 184, 216, 34])] : [];
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2); // the query's id
    header.writeUInt16BE(0x8180, 2); // a response, recursion desired and available, no error
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    socket.send(Buffer.concat([header, question, ...answers]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { address: `127.0.0.1:${socket.address().port}`, queriesOf: (name) => asked.filter((a) => a === name).length, close: () => socket.close() };
}

describe('guardedLookup and a name server that never answers', () => {
  const settled = (lookup: ReturnType<typeof guardedLookup>, name: string, order: string[]) =>
    new Promise<Error | null>((resolve) =>
      lookup(name, { all: true }, (e) => {
        order.push(name);
        resolve(e);
      }),
    );

  it("resolves other names meanwhile, off libuv's thread pool, and gives up on it after one bounded try", async () => {
    const server = await nameServer();
    try {
      const resolver = new Resolver({ timeout: 1000, tries: 1 });
      resolver.setServers([server.address]);
      const lookup = guardedLookup(false, resolver);
      const order: string[] = [];
      // More hanging names than the thread pool has threads (4) for getaddrinfo to block.
      const hanging = Array.from({ length: 8 }, (_, i) => settled(lookup, `h${i}.swallowed.test`, order));
      const good = await new Promise<LookupAddress[]>((resolve, reject) =>
        lookup('good.test', { all: true }, (e, a) => (e ? reject(e) : resolve(a as LookupAddress[]))),
      );
      expect(good).toEqual([{ address: '93.184.216.34', family: 4 }]);
      // The system resolver (getaddrinfo, on the thread pool) answers meanwhile too.
      await new Promise((resolve, reject) => dnsLookup('localhost', (e, a) => (e ? reject(e) : resolve(a))));
      expect(order).toEqual([]);
      const errors = await Promise.all(hanging);
      for (const e of errors) {
        expect(e).toBeInstanceOf(BlockedAddressError);
        expect((e as BlockedAddressError).detail).toMatch(/does not resolve: ETIMEOUT/);
      }
      // One try per name and family (A and AAAA): nothing keeps asking.
      for (let i = 0; i < 8; i++) expect(server.queriesOf(`h${i}.swallowed.test`)).toBe(2);
    } finally {
      server.close();
    }
  });
});
