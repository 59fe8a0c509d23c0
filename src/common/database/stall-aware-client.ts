import type { Socket } from 'node:net';
import { Client, type ClientConfig } from 'pg';

/** pg sets it false when a query goes out and true when the server says it is ready again (not in @types/pg). */
interface ClientState {
  readyForQuery: boolean;
}

/**
 * A pg Client that gives up on a server that stopped answering (a hung server or a network
 * partition): while it waits for the server, a connection that has neither sent nor received a
 * byte for `readTimeoutMs` is destroyed, which fails what it was running with "Connection
 * terminated unexpectedly" (a dependency failure, 503) and takes it out of the pool. An idle
 * connection is left alone however long it sleeps.
 *
 * This replaces pg's `query_timeout`, which arms a timer per query whose closure holds the query,
 * and through its callback the rows and the request waiting for them: on the bench's small reads
 * that kept about three times as many bytes alive past a young-generation collection, and major
 * collections ran 2.5 to 4 times as often (bench/RESULTS.md, issue 17 A/B after the fixes). The
 * socket's own inactivity timer is armed once per connection and only moved on by traffic.
 */
export function stallAwareClient(readTimeoutMs: number): typeof Client {
  return class StallAwareClient extends Client {
    constructor(config?: string | ClientConfig) {
      super(config);
      // After 'connect' the stream is the one queries travel on (pg swaps in a TLS socket for ssl).
      this.once('connect', () => {
        const socket = this.connection.stream as Socket;
        socket.setTimeout(readTimeoutMs);
        socket.on('timeout', () => {
          if (!(this as unknown as ClientState).readyForQuery) socket.destroy();
        });
      });
    }
  };
}
