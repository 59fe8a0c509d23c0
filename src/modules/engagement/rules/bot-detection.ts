import { isbot } from 'isbot';

/** Link scanners of mail gateways that prefetch links; isbot does not know all of them. */
const SCANNERS = /proofpoint|mimecast|barracuda|safelinks|urldefense|forcepoint|trend ?micro|symantec|messagelabs|cisco|ironport|sophos|fireeye|zscaler|bitdefender|checkpoint|scanner|preview|prefetch/i;

/** docs/api.md §6.1, §6.3: isbot, known scanner patterns, HEAD requests and a missing User-Agent are bots. */
export function isBotRequest(userAgent: string | undefined | null, method = 'GET'): boolean {
  if (method === 'HEAD') return true;
  if (!userAgent || userAgent.trim() === '') return true;
  return isbot(userAgent) || SCANNERS.test(userAgent);
}
