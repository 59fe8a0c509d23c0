import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * The drain before a shutdown. From `begin()`, /readyz answers 503 (load balancers stop sending
 * traffic here) and every response closes its connection (keep-alive clients reconnect, to another
 * instance), while the server still accepts and serves as before.
 */
@Injectable()
export class Draining {
  private started = false;

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  get active(): boolean {
    return this.started;
  }

  begin(): void {
    if (this.started) return;
    this.started = true;
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    // Ahead of Express's listener, so that a response sent at once (a middleware's refusal) carries it too.
    server?.prependListener('request', closeAfterResponse);
  }
}

const closeAfterResponse = (_req: IncomingMessage, res: ServerResponse): void => {
  res.setHeader('Connection', 'close');
};
