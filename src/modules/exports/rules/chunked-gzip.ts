import { once } from 'node:events';
import { createGzip } from 'node:zlib';

/** Stores one chunk; false when the file's run was superseded (nothing stored). */
export type ChunkStore = (seq: number, data: Buffer) => Promise<boolean>;

/**
 * A gzip file written in chunks of about `chunkBytes` as text comes in, so memory holds one chunk
 * and what zlib buffers, whatever the file's size. Each write resolves false once a chunk could not
 * be stored (the writer stops).
 */
export class ChunkedGzip {
  private readonly gzip = createGzip();
  private pending: Buffer[] = [];
  private size = 0;
  private seq = 0;
  /** Bytes handed to the store so far. */
  stored = 0;

  constructor(
    private readonly chunkBytes: number,
    private readonly store: ChunkStore,
  ) {
    this.gzip.on('data', (data: Buffer) => {
      this.pending.push(data);
      this.size += data.length;
    });
  }

  async write(text: string): Promise<boolean> {
    // Resolved once zlib took the text in: its output so far has come out as 'data'.
    await new Promise<void>((resolve, reject) => this.gzip.write(text, (err) => (err ? reject(err) : resolve())));
    return this.size >= this.chunkBytes ? this.flush() : true;
  }

  async end(): Promise<boolean> {
    const ended = once(this.gzip, 'end');
    this.gzip.end();
    await ended;
    return this.size > 0 ? this.flush() : true;
  }

  private flush(): Promise<boolean> {
    const data = Buffer.concat(this.pending);
    this.pending = [];
    this.size = 0;
    this.stored += data.length;
    return this.store(this.seq++, data);
  }
}
