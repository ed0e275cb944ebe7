import { createSocket } from 'node:dgram';
import { ADDRCONFIG, lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { networkInterfaces } from 'node:os';
import { Resolver } from 'node:dns/promises';
import { BlockedAddressError, guardedLookup, isPublicAddress, type NameResolver, urlProblem } from './ssrf-guard.js';

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
    for (const raw of [
      'https://hooks.example.com/a\u0000b',
      'https://hooks.example.com/?q=\u0000',
      'https://hooks.example.com/#\u0000',
      'https://hooks.example.com/a b',
      ' https://hooks.example.com/',
      'https://hooks.example.com/\t',
      'https://hooks.example.com/\u0085',
    ])
      expect(urlProblem(raw, true)).toMatch(/spaces or control characters/);
    expect(urlProblem('https://bücher.example/ß', false)).toBeNull();
  });

  it('says of a name that does not resolve what it says of a private one: the owner cannot tell them apart', async () => {
    const notFound = Object.assign(new Error('queryA ENOTFOUND'), { code: 'ENOTFOUND' });
    const lookup = guardedLookup(false, { newResolver: () => answering(notFound, notFound) });
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

/** A resolver answering every name with these A and AAAA records (or failing with this error). */
function answering(v4: string[] | Error, v6: string[] | Error): NameResolver {
  const answer = (a: string[] | Error) => (a instanceof Error ? Promise.reject(a) : Promise.resolve(a));
  return { resolve4: () => answer(v4), resolve6: () => answer(v6), cancel: () => {} } as unknown as NameResolver;
}

const lookUp = (lookup: ReturnType<typeof guardedLookup>, name: string, options: LookupAllOptions = { all: true }) =>
  new Promise<LookupAddress[]>((resolve, reject) => lookup(name, options, (e, a) => (e ? reject(e) : resolve(a as LookupAddress[]))));

describe('guardedLookup on the answers of DNS', () => {
  it('refuses a name when any of its addresses, A or AAAA, is not public', async () => {
    const noData = Object.assign(new Error('queryAaaa ENODATA'), { code: 'ENODATA' });
    for (const [v4, v6] of [
      [['93.184.216.34', '10.0.0.1'], noData],
      [noData, ['2606:2800:220:1::1', '::1']],
      [noData, ['::ffff:127.0.0.1']],
      [['169.254.169.254'], ['2606:2800:220:1::1']],
    ] as const) {
      const lookup = guardedLookup(false, { newResolver: () => answering(v4 as string[] | Error, v6 as string[] | Error) });
      const refused = lookUp(lookup, 'rebinding.example');
      await expect(refused).rejects.toBeInstanceOf(BlockedAddressError);
      await expect(refused).rejects.toMatchObject({ detail: expect.stringMatching(/not a public address/) });
    }
  });

  it('keeps the family asked for, as getaddrinfo did', async () => {
    const lookup = guardedLookup(false, { newResolver: () => answering(['93.184.216.34'], ['2606:2800:220:1::1']) });
    expect(await lookUp(lookup, 'both.example', { all: true, family: 4 })).toEqual([{ address: '93.184.216.34', family: 4 }]);
    expect(await lookUp(lookup, 'both.example', { all: true, family: 6 })).toEqual([{ address: '2606:2800:220:1::1', family: 6 }]);
    expect(await lookUp(lookup, 'both.example')).toHaveLength(2);
    // With ADDRCONFIG (what net.connect asks), only the families this host has an address in.
    const own = new Set<number>();
    for (const i of Object.values(networkInterfaces()).flat()) if (i && !i.internal) own.add(i.family === 'IPv6' ? 6 : 4);
    const configured = await lookUp(lookup, 'both.example', { all: true, hints: ADDRCONFIG }).catch(() => []);
    expect(configured.map((a) => a.family)).toEqual([4, 6].filter((f) => own.has(f)));
  });
});

describe('guardedLookup and a name server that never answers', () => {
  const settled = (lookup: ReturnType<typeof guardedLookup>, name: string, order: string[]) =>
    new Promise<Error | null>((resolve) =>
      lookup(name, { all: true }, (e) => {
        order.push(name);
        resolve(e);
      }),
    );

  it("resolves other names meanwhile, off libuv's thread pool, and gives up on it in its time", async () => {
    const server = await nameServer();
    try {
      // c-ares would go on retrying for 0.3 + 0.6 + 1.2 + 2.4 s; the lookup stops it at 1.5 s.
      const newResolver = () => {
        const resolver = new Resolver({ timeout: 300, tries: 4 });
        resolver.setServers([server.address]);
        return resolver;
      };
      const lookup = guardedLookup(false, { newResolver, timeoutMs: 1500 });
      const order: string[] = [];
      // More hanging names than the thread pool has threads (4) for getaddrinfo to block.
      const hanging = Array.from({ length: 8 }, (_, i) => settled(lookup, `h${i}.swallowed.test`, order));
      const good = await lookUp(lookup, 'good.test');
      expect(good).toEqual([{ address: '93.184.216.34', family: 4 }]);
      // The system resolver (getaddrinfo, on the thread pool) answers meanwhile too.
      await new Promise((resolve, reject) => dnsLookup('localhost', (e, a) => (e ? reject(e) : resolve(a))));
      expect(order).toEqual([]);
      const errors = await Promise.all(hanging);
      for (const e of errors) {
        expect(e).toBeInstanceOf(BlockedAddressError);
        expect((e as BlockedAddressError).detail).toMatch(/does not resolve: no answer within 1500 ms/);
      }
      // Asked of this name server, not of the system's.
      for (let i = 0; i < 8; i++) expect(server.queriesOf(`h${i}.swallowed.test`)).toBeGreaterThan(0);
    } finally {
      server.close();
    }
  });
});
