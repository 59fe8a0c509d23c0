import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';

const IDLE_SWEEP_MS = 100;

/**
 * On shutdown the HTTP server stops accepting and waits for open connections. A keep-alive
 * connection whose request finishes after that would linger until its idle timeout (~5 s); closing
 * idle connections as they appear ends shutdown as soon as the last in-flight response is sent.
 */
@Injectable()
export class GracefulShutdown implements BeforeApplicationShutdown {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  beforeApplicationShutdown(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server?.listening) return;
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    sweep.unref();
    server.once('close', () => clearInterval(sweep));
  }
}
