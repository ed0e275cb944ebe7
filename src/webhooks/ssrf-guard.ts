import { ADDRCONFIG, lookup as dnsLookup, type LookupAddress, type LookupOneOptions, type LookupAllOptions } from 'node:dns';
import { Resolver } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/**
 * No server-side request forgery: a webhook may only reach public addresses. Checked when an
 * endpoint is saved (its URL) and again at every delivery after DNS resolution, on the very
 * address the connection then uses (so a name that resolves differently later gains nothing).
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 96], // unspecified, loopback, and the deprecated IPv4-compatible ::a.b.c.d
  ['64:ff9b::', 96], // NAT64 (embeds an IPv4 address)
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215)
  ['100::', 64], // discard
  ['2001::', 32], // Teredo (embeds an IPv4 server and client)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds an IPv4 address)
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated by RFC 3879, still routed inside some networks)
  ['ff00::', 8], // multicast
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** Whether a literal IP address is a public one (an IPv4-mapped IPv6 address is judged as its IPv4). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family !== 6) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]);
  if (/^::ffff:/i.test(address)) return false; // mapped, in hex form: refuse rather than decode
  return !blocked.check(address, 'ipv6');
}

/** Why a URL may not be an endpoint, or null when it may (the address check is repeated at delivery). */
export function urlProblem(raw: string, allowPrivate: boolean): string | null {
  // The URL is stored as given, and WHATWG parsing would accept (and quietly encode or strip) what
  // no stored URL should hold: a NUL, which PostgreSQL's text refuses, tabs, line breaks, spaces.
  if (/[\p{Cc}\s]/u.test(raw)) return 'url must not contain spaces or control characters';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url is not an absolute URL';
  }
  if (raw.length > 2048) return 'url is longer than 2048 characters';
  if (url.username || url.password) return 'url must not carry credentials';
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:'))
    return allowPrivate ? 'url must be https:// or http://' : 'url must be https://';
  if (allowPrivate) return null;
  const host = hostOf(url);
  // "localhost." is the same name, fully qualified.
  const name = host.replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return 'url must point to a public address, not localhost';
  if (isIP(host) && !isPublicAddress(host)) return `url must point to a public address, not ${host}`;
  return null;
}

/** A URL's host as a name or a bare IP literal (IPv6 without its brackets). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

/**
 * A name that resolved to a non-public address, or to none at all. Its message is stored in the
 * delivery log, which the endpoint's owner reads: it names the host they gave and says the same
 * either way, never what the name resolved to nor whether it resolved (that would map this
 * server's internal DNS for them: a name only this network knows would read differently from one
 * nobody knows). `detail` says which, for the server's log only.
 */
export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKEDADDRESS';
  constructor(
    hostname: string,
    readonly detail: string,
  ) {
    super(`${hostname} is not a public address (after DNS resolution)`);
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
type Lookup = (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback) => void;
/** What the guard asks of a resolver: node:dns/promises' Resolver, or a test's. */
export type NameResolver = Pick<Resolver, 'resolve4' | 'resolve6' | 'cancel'>;

export interface GuardOptions {
  /** A resolver for one lookup (it is cancelled when the lookup gives up). */
  newResolver?: () => NameResolver;
  /** How long one lookup may take, A and AAAA together. */
  timeoutMs?: number;
}

/**
 * How long the DNS lookup of a webhook's host may take. It does not run on libuv's thread pool,
 * as `dns.lookup` (getaddrinfo) does: there at most two slow lookups run at a time, for the whole
 * process, and a request that gives up does not stop its getaddrinfo, so a player's name server
 * that never answers would hold up every other webhook's lookup and the database pool's own host
 * name. c-ares retries on its own, with timeouts it adapts to the name server; this bounds the whole.
 */
export const RESOLVE_TIMEOUT_MS = 5000;

/**
 * A `lookup` for http(s).request that resolves the name and refuses when any address it returns
 * is not public: the socket then connects to the address checked here, never to a re-resolution.
 * The name is asked of DNS directly (c-ares, on the event loop), not of /etc/hosts; `localhost`
 * names are loopback without asking (RFC 6761). With private addresses allowed (development, or
 * receivers inside an operator's network) the system's resolver answers, /etc/hosts included.
 */
export function guardedLookup(allowPrivate: boolean, options: GuardOptions = {}): Lookup {
  if (allowPrivate) return systemLookup;
  const newResolver = options.newResolver ?? (() => new Resolver({ tries: 2 }));
  const timeoutMs = options.timeoutMs ?? RESOLVE_TIMEOUT_MS;
  return (hostname, lookupOptions, callback) => {
    publicAddressesOf(hostname, newResolver(), timeoutMs).then(
      (found) => answer(callback, usable(found, lookupOptions), lookupOptions, `${hostname} has no address this host can reach`),
      (err: Error) => callback(err, []),
    );
  };
}

async function publicAddressesOf(hostname: string, resolver: NameResolver, timeoutMs: number): Promise<LookupAddress[]> {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost'))
    throw new BlockedAddressError(hostname, `${hostname} resolves to 127.0.0.1, not a public address`);
  const timer = setTimeout(() => resolver.cancel(), timeoutMs); // the pending queries fail ECANCELLED
  const [v4, v6] = await Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]).finally(() => clearTimeout(timer));
  if (v4.status === 'rejected' && v6.status === 'rejected') {
    const err = v4.reason as NodeJS.ErrnoException;
    const why = err.code === 'ECANCELLED' ? `no answer within ${timeoutMs} ms` : (err.code ?? err.message);
    throw new BlockedAddressError(hostname, `${hostname} does not resolve: ${why}`);
  }
  const list: LookupAddress[] = [
    ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
    ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
  ];
  const bad = list.find((a) => !isPublicAddress(a.address));
  if (bad) throw new BlockedAddressError(hostname, `${hostname} resolves to ${bad.address}, not a public address`);
  if (list.length === 0) throw new BlockedAddressError(hostname, `${hostname} has no address`);
  return list;
}

/**
 * What getaddrinfo would have left of the addresses: the family asked for, and with ADDRCONFIG
 * (net.connect asks for it) only the families this host has an address of its own in. Otherwise
 * an IPv4-only host would try a dual-stack receiver's IPv6 addresses too, each attempt cut short.
 */
function usable(list: LookupAddress[], options: LookupOneOptions | LookupAllOptions): LookupAddress[] {
  const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
  let kept = family === 4 || family === 6 ? list.filter((a) => a.family === family) : list;
  if ((options.hints ?? 0) & ADDRCONFIG) {
    const own = new Set<number>();
    for (const i of Object.values(networkInterfaces()).flat()) if (i && !i.internal) own.add(i.family === 'IPv6' ? 6 : 4);
    kept = kept.filter((a) => own.has(a.family));
  }
  return kept;
}

const systemLookup: Lookup = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, list) =>
    err ? callback(err, []) : answer(callback, list, options, `${hostname} has no address`),
  );
};

/** Answers a lookup as `dns.lookup` would: every address when asked for all, else the first. */
function answer(callback: LookupCallback, list: LookupAddress[], options: LookupOneOptions | LookupAllOptions, noAddress: string): void {
  if (list.length === 0) return callback(Object.assign(new Error(noAddress), { code: 'ENOTFOUND' }), []);
  if (options.all) return callback(null, list);
  callback(null, list[0].address, list[0].family);
}
