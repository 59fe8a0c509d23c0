import type { Server } from 'node:http';
import type { TimeoutsConfig } from '../../config/environment';

/** Slow or idle clients cannot hold connections: headers, whole request and keep-alive are bounded. */
export function applyServerTimeouts(server: Server, timeouts: TimeoutsConfig): void {
  server.headersTimeout = timeouts.httpHeadersMs;
  server.requestTimeout = timeouts.httpRequestMs;
  server.keepAliveTimeout = timeouts.httpKeepAliveMs;
}
