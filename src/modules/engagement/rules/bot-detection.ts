import { isbot } from 'isbot';

/** Why an event is a bot's (issue 20 point 4); null for a human. */
export const BOT_REASONS = ['user_agent', 'prefetch', 'head_request', 'scanner'] as const;
export type BotReason = (typeof BOT_REASONS)[number];

/**
 * Link scanners of mail and web security gateways that open links before the recipient does
 * (docs/api.md §6.3), by User-Agent. isbot knows some of them, not all; the list is documented
 * there: Microsoft Defender Safe Links, Proofpoint URL Defense, Mimecast, Barracuda, Forcepoint,
 * Trend Micro, Symantec / Broadcom MessageLabs, Cisco IronPort, Sophos, FireEye / Trellix, Zscaler,
 * Bitdefender, Check Point, and User-Agents that call themselves a scanner, preview or prefetcher.
 */
const SCANNERS =
  /proofpoint|mimecast|barracuda|safelinks|urldefense|forcepoint|trend ?micro|symantec|messagelabs|cisco|ironport|sophos|fireeye|zscaler|bitdefender|checkpoint|scanner|preview|prefetch/i;

/** A request as bot detection sees it; `headers` are lower-cased names (Node's IncomingHttpHeaders). */
export interface BotSignals {
  method?: string;
  userAgent: string | undefined | null;
  headers?: Record<string, string | string[] | undefined>;
}

/**
 * Browser prefetch and prerender announce themselves: `Sec-Purpose: prefetch` (Chromium, also
 * `prefetch;prerender`), `Purpose: prefetch` (older Chromium and Safari), `X-Moz: prefetch` (Firefox).
 */
const PREFETCH_HEADERS = ['sec-purpose', 'purpose', 'x-moz'];

function announcesPrefetch(headers: BotSignals['headers']): boolean {
  return PREFETCH_HEADERS.some((name) => [headers?.[name] ?? []].flat().some((value) => /prefetch/i.test(value)));
}

/**
 * The first reason that makes a request a bot's, in this order: a HEAD request (the public route
 * records it as a bot open), a prefetch header, a known scanner's User-Agent, then a bot User-Agent
 * by isbot, or none at all (a missing or blank User-Agent is no browser's).
 */
export function botReasonOf({ method = 'GET', userAgent, headers }: BotSignals): BotReason | null {
  if (method === 'HEAD') return 'head_request';
  if (announcesPrefetch(headers)) return 'prefetch';
  if (!userAgent || userAgent.trim() === '') return 'user_agent';
  if (SCANNERS.test(userAgent)) return 'scanner';
  return isbot(userAgent) ? 'user_agent' : null;
}

/** docs/api.md §6.1, §6.3: a request with any bot reason is a bot's. */
export function isBotRequest(userAgent: string | undefined | null, method = 'GET'): boolean {
  return botReasonOf({ userAgent, method }) !== null;
}
