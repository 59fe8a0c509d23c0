import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How long a closing connection keeps reading what its client still sends, and how much of it. */
export interface Lingering {
  maxMs: number;
  maxBytes: number;
  /** A client silent this long is done (or stuck): the connection closes without waiting for maxMs. */
  idleMs: number;
}

/**
 * Lingering close (issue 30 point 3). An answer given before the request body is read (401, 403,
 * 413, 429: docs/api.md §7.4) closes its connection. Node closes it as soon as the answer is
 * written; a client still sending its body then meets a reset, and a reset makes its TCP stack drop
 * the answer it had received but not yet read: a Node client sees EPIPE, curl "connection reset".
 * Here a closing connection first half-closes (the answer and a FIN go out), then reads and
 * discards what the client still sends, until the client is done or silent for `idleMs`, `maxBytes`
 * more arrived or `maxMs` passed, and only then is destroyed. A connection with nothing left to read
 * closes as before.
 */
export function lingerOnClose(server: Server, lingering: Lingering): void {
  server.on('connection', (socket: Socket) => {
    socket.destroySoon = () => linger(socket, lingering);
  });
}

function linger(socket: Socket, { maxMs, maxBytes, idleMs }: Lingering): void {
  if (socket.destroyed) return;
  socket.end();
  if (socket.readableEnded) return void socket.once('finish', () => socket.destroy());
  let discarded = 0;
  const done = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(done, maxMs);
  timer.unref();
  socket.setTimeout(idleMs, done);
  socket.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > maxBytes) done();
  });
  socket.once('end', done);
  socket.once('close', () => clearTimeout(timer));
  socket.resume();
}
