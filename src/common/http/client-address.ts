import type { Request } from 'express';
import { isIP } from 'node:net';

/**
 * The client a per-client limit counts: `req.ip`, which Express derives from X-Forwarded-For as far
 * as TRUST_PROXY trusts the proxies in front (the connection's peer when it trusts none). IPv4
 * (also IPv4-mapped IPv6) counts per address; IPv6 per /64, the block one site or subscriber gets,
 * so an attacker cannot rotate through the addresses of their own /64.
 */
export function clientAddressOf(req: Request): string {
  return addressBucket(req.ip ?? req.socket.remoteAddress ?? 'unknown');
}

export function addressBucket(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1];
  if (isIP(ip) !== 6) return ip;
  return `${ipv6Hextets(ip).slice(0, 4).join(':')}::/64`;
}

/** The eight hextets of an IPv6 address, `::` expanded and leading zeros dropped (zone ids ignored). */
function ipv6Hextets(ip: string): string[] {
  const address = ip.split('%')[0].toLowerCase();
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  // An embedded IPv4 address (`::ffff:1.2.3.4`, `64:ff9b::1.2.3.4`) fills the last two hextets.
  const width = (parts: string[]) => parts.reduce((sum, part) => sum + (part.includes('.') ? 2 : 1), 0);
  const zeros = tail === undefined ? 0 : 8 - width(headParts) - width(tailParts);
  return [...headParts, ...Array<string>(zeros).fill('0'), ...tailParts].map((part) =>
    part.includes('.') ? part : parseInt(part, 16).toString(16),
  );
}

/**
 * Whether the connection's peer is a proxy that TRUST_PROXY trusts (Express's compiled `trust proxy`
 * setting): only then is a header it adds (a country, a forwarded address) believed.
 */
export function fromTrustedProxy(req: Request): boolean {
  const trust = req.app.get('trust proxy fn') as ((address: string, hop: number) => boolean) | undefined;
  const peer = req.socket.remoteAddress;
  return trust !== undefined && peer !== undefined && trust(peer, 0);
}
