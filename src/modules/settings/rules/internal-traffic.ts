import { BlockList, isIP } from 'node:net';

/** docs/api.md §6.8: what makes an open or event internal. */
export interface InternalTraffic {
  ipRanges: string[];
  visitorIds: string[];
  userAgentContains: string[];
}

export const INTERNAL_REASONS = ['ip_range', 'visitor_id', 'user_agent', 'preview', 'declared'] as const;
export type InternalReason = (typeof INTERNAL_REASONS)[number];

export const noInternalTraffic = (): InternalTraffic => ({ ipRanges: [], visitorIds: [], userAgentContains: [] });

/** An IPv4 or IPv6 range in CIDR notation (a bare address is a range of one), or null when it is none. */
export function parseCidr(value: string): { network: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const [network, prefixText, ...rest] = value.trim().split('/');
  const version = isIP(network);
  if (version === 0 || rest.length > 0) return null;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  const bits = version === 4 ? 32 : 128;
  if (prefixText === undefined) return { network, prefix: bits, family };
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > bits) return null;
  return { network, prefix: Number(prefixText), family };
}

/** What is tested against each open or event: the ranges compiled once per setting. */
export interface InternalTrafficRules {
  ranges: BlockList;
  visitorIds: ReadonlySet<string>;
  /** Lower case: a User-Agent matches one that it contains, in any case. */
  userAgentContains: readonly string[];
}

export function compileInternalTraffic(setting: InternalTraffic): InternalTrafficRules {
  const ranges = new BlockList();
  for (const cidr of setting.ipRanges) {
    const range = parseCidr(cidr);
    if (range) ranges.addSubnet(range.network, range.prefix, range.family);
  }
  return {
    ranges,
    visitorIds: new Set(setting.visitorIds),
    userAgentContains: setting.userAgentContains.map((part) => part.toLowerCase()),
  };
}

/** What an open or event tells about who sent it. */
export interface TrafficSignals {
  /** The client address, when known (looked up, never kept). */
  address?: string | null;
  visitorId?: string | null;
  userAgent?: string | null;
  /** Opened through the link's preview URL. */
  preview?: boolean;
  /** Sent with `internal: true`. */
  declared?: boolean;
}

/**
 * Why an open or event is internal (the first reason that applies, in INTERNAL_REASONS' order), or
 * null when it is not.
 */
export function internalReasonOf(signals: TrafficSignals, rules: InternalTrafficRules): InternalReason | null {
  if (signals.address && inRanges(signals.address, rules.ranges)) return 'ip_range';
  if (signals.visitorId && rules.visitorIds.has(signals.visitorId)) return 'visitor_id';
  if (signals.userAgent && rules.userAgentContains.length > 0) {
    const userAgent = signals.userAgent.toLowerCase();
    if (rules.userAgentContains.some((part) => userAgent.includes(part))) return 'user_agent';
  }
  if (signals.preview) return 'preview';
  if (signals.declared) return 'declared';
  return null;
}

function inRanges(address: string, ranges: BlockList): boolean {
  // An IPv4-mapped IPv6 address (a dual-stack socket's peer) is its IPv4 address.
  const ip = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  const version = isIP(ip);
  return version !== 0 && ranges.check(ip, version === 4 ? 'ipv4' : 'ipv6');
}
