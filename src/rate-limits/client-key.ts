import { isIPv4, isIPv6 } from 'node:net';

/**
 * Whose budget an address spends: an IPv4 address as is (an IPv4-mapped IPv6 one as its IPv4),
 * an IPv6 address by its /64. A single IPv6 subscriber is routinely given a whole /64, so one
 * client could otherwise take a fresh address, and fresh per-address budgets, for every request.
 */
export function clientKey(address: string): string {
  const bare = address.split('%')[0]; // a zone id (fe80::1%eth0) names an interface, not a client
  if (!isIPv6(bare)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  return `${hextets(bare).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, "::" expanded, an embedded IPv4 tail as two groups. */
function hextets(address: string): string[] {
  const [head, tail] = address.includes('::') ? address.split('::') : [address, null];
  const groups = (part: string) => (part === '' ? [] : part.split(':').flatMap((g) => (g.includes('.') ? ipv4Groups(g) : [g])));
  const left = groups(head);
  const right = tail === null ? [] : groups(tail);
  const zeros = Array.from({ length: 8 - left.length - right.length }, () => '0');
  return [...left, ...zeros, ...right].map((g) => parseInt(g, 16).toString(16));
}

function ipv4Groups(v4: string): string[] {
  const [a, b, c, d] = v4.split('.').map(Number);
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}
