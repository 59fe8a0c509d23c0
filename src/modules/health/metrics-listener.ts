import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { carriesToken } from '../../common/http/operator-token';
import { applyServerTimeouts } from '../../common/http/server-timeouts';
import { metricsRegistry } from '../../common/metrics/metrics-registry';
import { AppConfigService } from '../../config/app-config';
import { METRICS_REUSE_MS } from './metrics';
import { RecentResult } from './recent-result';

/**
 * METRICS_PORT: GET /metrics on a small node:http listener of its own instead of PORT, so that an
 * Ingress, which routes PORT, cannot expose it whatever its paths (deploy/ sets 9400 and scrapes it
 * with a PodMonitor). Nothing else is served there. METRICS_TOKEN still applies. It starts with the
 * app and closes last, after the app's own listener, so scrapes see a draining pod to the end.
 */
@Injectable()
export class MetricsListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private server?: Server;
  private readonly rendering = new RecentResult(METRICS_REUSE_MS, () => metricsRegistry.metrics());

  constructor(private readonly config: AppConfigService) {}

  async onApplicationBootstrap(): Promise<void> {
    const { metricsPort: port, metricsToken: token } = this.config.values.operations;
    if (port === null) return;
    const server = createServer((req, res) => void this.answer(req, res, token));
    applyServerTimeouts(server, this.config.values.timeouts);
    await new Promise<void>((listening, failed) => {
      server.once('error', failed);
      server.listen(port, () => {
        server.off('error', failed);
        listening();
      });
    });
    this.server = server;
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = new Promise<void>((done) => server.close(() => done()));
    // Scrapers keep their connections alive: idle or not, nothing of value is in flight on them.
    server.closeAllConnections();
    await closed;
  }

  /** The port's address, once listening (tests ask for port 0). */
  address(): number | undefined {
    const address = this.server?.address();
    return typeof address === 'object' && address !== null ? address.port : undefined;
  }

  private async answer(req: IncomingMessage, res: ServerResponse, token: string | null): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD'))
      return send(res, 404, 'application/json', JSON.stringify({ detail: 'Not Found' }));
    if (token !== null && !carriesToken(req.headers.authorization, token))
      return send(res, 401, 'application/json', JSON.stringify({ detail: 'Operator token required or invalid.' }), {
        'WWW-Authenticate': 'Basic realm="metrics", charset="UTF-8"',
      });
    try {
      send(res, 200, metricsRegistry.contentType, req.method === 'HEAD' ? '' : await this.rendering.get());
    } catch {
      send(res, 500, 'application/json', JSON.stringify({ detail: 'Internal Server Error' }));
    }
  }
}

function send(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'Content-Type': contentType, 'Cache-Control': 'no-store', ...headers }).end(body);
}
