import { BlockList, isIPv4, isIPv6 } from 'node:net';

// SSRF policy for requests to client-given hosts (logo fetches, docs/api.md §12.6, webhook
// deliveries): "public addresses only". Deny by default: IPv6 must be global unicast (2000::/3) to be considered at all, then both families are checked against the IANA
// special-purpose registries. Forms that embed an IPv4 address (mapped, NAT64, 6to4) are judged by
// the IPv4 address they reach.

const refusedIPv4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata endpoints
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, including the 255.255.255.255 broadcast
] as const) {
  refusedIPv4.addSubnet(network, prefix, 'ipv4');
}

const globalUnicastIPv6 = new BlockList();
globalUnicastIPv6.addSubnet('2000::', 3, 'ipv6');

// Inside 2000::/3, ranges that are not ordinary public hosts.
const refusedIPv6 = new BlockList();
for (const [network, prefix] of [
  ['2001::', 23], // IETF protocol assignments: Teredo, benchmarking 2001:2::/48, ORCHID
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation (RFC 9637)
  ['3ffe::', 16], // former 6bone, returned to IANA
] as const) {
  refusedIPv6.addSubnet(network, prefix, 'ipv6');
}

/** true only for public unicast addresses; see the ranges above. Anything that is not an IP literal is refused. */
export function isPublicAddress(ip: string): boolean {
  if (isIPv4(ip)) {
    return !refusedIPv4.check(ip, 'ipv4');
  }
  // A zone id ("fe80::1%eth0") only ever accompanies a link-local address.
  if (ip.includes('%') || !isIPv6(ip)) {
    return false;
  }
  const bytes = parseIPv6(ip);
  const embedded = embeddedIPv4(bytes);
  if (embedded !== null) {
    return !refusedIPv4.check(embedded, 'ipv4');
  }
  if (isNat64LocalUse(bytes)) {
    return false;
  }
  return globalUnicastIPv6.check(ip, 'ipv6') && !refusedIPv6.check(ip, 'ipv6');
}

/** The IPv4 address an IPv6 address stands for, or null: IPv4-mapped ::ffff:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16. */
function embeddedIPv4(b: number[]): string | null {
  const zeros = (from: number, to: number): boolean => b.slice(from, to).every((x) => x === 0);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) {
    return b.slice(12, 16).join('.');
  }
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) {
    return b.slice(12, 16).join('.');
  }
  if (b[0] === 0x20 && b[1] === 0x02) {
    return b.slice(2, 6).join('.');
  }
  return null;
}

/** 64:ff9b:1::/48, NAT64 for local use only (RFC 8215). */
function isNat64LocalUse(b: number[]): boolean {
  return b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && b[4] === 0x00 && b[5] === 0x01;
}

/** 16 bytes of an address that isIPv6 has already accepted (no zone id). */
function parseIPv6(ip: string): number[] {
  let text = ip.toLowerCase();
  const tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    // Dotted-quad tail, e.g. ::ffff:127.0.0.1.
    tail.push(...last.split('.').map((part) => Number(part)));
    text = text.slice(0, lastColon + 1) + '0:0';
  }
  const [head, rest] = text.includes('::') ? text.split('::') : [text, null];
  const groupsOf = (part: string): number[] => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const headGroups = groupsOf(head);
  const restGroups = rest === null ? [] : groupsOf(rest);
  const groups = [
    ...headGroups,
    ...new Array<number>(8 - headGroups.length - restGroups.length).fill(0),
    ...restGroups,
  ];
  const bytes = groups.flatMap((g) => [g >> 8, g & 0xff]);
  if (tail.length === 4) {
    bytes.splice(12, 4, ...tail);
  }
  return bytes;
}
