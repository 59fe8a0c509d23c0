import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

export type ProxyMode = 'open' | 'refuse' | 'stall';

/**
 * A TCP proxy in front of a real PostgreSQL or Redis that a test can cut: `refuse` closes every
 * connection and answers new ones with a reset (the service is down), `stall` keeps connections
 * open but forwards no byte either way (a network partition or a hung server), `open` heals.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly pairs = new Set<{ client: Socket; upstream: Socket }>();
  private mode: ProxyMode = 'open';
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** A proxy for a URL (postgres:// or redis://); `url` gives the same URL through the proxy. */
  static async for(url: string): Promise<{ proxy: TcpProxy; url: string }> {
    const parsed = new URL(url);
    const proxy = new TcpProxy(parsed.hostname, Number(parsed.port));
    await proxy.start();
    parsed.hostname = '127.0.0.1';
    parsed.port = String(proxy.port);
    return { proxy, url: parsed.toString() };
  }

  async start(): Promise<void> {
    this.server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  set(mode: ProxyMode): void {
    this.mode = mode;
    for (const pair of this.pairs) {
      if (mode === 'refuse') this.drop(pair);
      else if (mode === 'stall') {
        pair.client.pause();
        pair.upstream.pause();
      } else {
        pair.client.resume();
        pair.upstream.resume();
      }
    }
  }

  async stop(): Promise<void> {
    for (const pair of this.pairs) this.drop(pair);
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private accept(client: Socket): void {
    if (this.mode === 'refuse') return void client.resetAndDestroy();
    const upstream = connect(this.targetPort, this.targetHost);
    const pair = { client, upstream };
    this.pairs.add(pair);
    // Bytes are forwarded by hand so a stall holds them back in either direction.
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => client.write(chunk));
    const close = () => this.drop(pair);
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
    if (this.mode === 'stall') {
      client.pause();
      upstream.pause();
    }
  }

  private drop(pair: { client: Socket; upstream: Socket }): void {
    this.pairs.delete(pair);
    pair.client.resetAndDestroy();
    pair.upstream.destroy();
  }
}
