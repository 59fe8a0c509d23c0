import { gunzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { ChunkedGzip } from './chunked-gzip';

describe('ChunkedGzip', () => {
  it('stores numbered chunks of about the chunk size that make one gzip file', async () => {
    const chunks: { seq: number; data: Buffer }[] = [];
    const file = new ChunkedGzip(16 * 1024, async (seq, data) => (chunks.push({ seq, data }), true));
    const lines = Array.from({ length: 2000 }, (_, i) => `${i},${randomBytes(60).toString('hex')}\n`);
    for (let i = 0; i < lines.length; i += 100) expect(await file.write(lines.slice(i, i + 100).join(''))).toBe(true);
    expect(await file.end()).toBe(true);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.map((c) => c.seq)).toEqual(chunks.map((_, i) => i));
    expect(chunks.slice(0, -1).every((c) => c.data.length >= 16 * 1024 && c.data.length < 64 * 1024)).toBe(true);
    expect(gunzipSync(Buffer.concat(chunks.map((c) => c.data))).toString()).toBe(lines.join(''));
  });

  it('stores an empty file as one valid gzip chunk', async () => {
    const chunks: Buffer[] = [];
    const file = new ChunkedGzip(1024, async (_seq, data) => (chunks.push(data), true));
    expect(await file.end()).toBe(true);
    expect(gunzipSync(Buffer.concat(chunks)).toString()).toBe('');
  });

  it('tells the writer when a chunk was refused', async () => {
    let stored = 0;
    const file = new ChunkedGzip(16, async () => (stored++, false));
    const results: boolean[] = [];
    while (stored === 0 && results.length < 50) results.push(await file.write(randomBytes(32 * 1024).toString('hex')));
    expect(results[results.length - 1]).toBe(false);
    expect(results.slice(0, -1).every(Boolean)).toBe(true);
  });
});
