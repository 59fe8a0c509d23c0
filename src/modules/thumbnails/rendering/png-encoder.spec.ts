import { crc32, inflateSync } from 'node:zlib';
import { RgbPngEncoder, rgbScanlineBytes } from './png-encoder';

const WIDTH = 37;
const HEIGHT = 70; // four blocks of 16 rows and a last one of 6
const ROW = rgbScanlineBytes(WIDTH);

/** Scanlines (filter type 0) of a smooth image, with `seed` varying the pixels. */
function scanlines(seed: number): Buffer {
  const rows = Buffer.alloc(ROW * HEIGHT);
  for (let y = 0; y < HEIGHT; y++)
    for (let i = 1; i < ROW; i++) rows[y * ROW + i] = (y * 3 + i + seed * (i % 7)) & 0xff;
  return rows;
}

/** The PNG's chunks, each CRC checked, and its image data inflated (zlib checks the Adler-32). */
function read(png: Buffer): { types: string[]; header: Buffer; data: Buffer } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const types: string[] = [];
  const idat: Buffer[] = [];
  let header: Buffer = Buffer.alloc(0);
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    expect(png.readUInt32BE(at + 8 + length)).toBe(crc32(body, crc32(png.subarray(at + 4, at + 8))));
    types.push(type);
    if (type === 'IHDR') header = body;
    if (type === 'IDAT') idat.push(body);
    at += 12 + length;
  }
  return { types, header, data: inflateSync(Buffer.concat(idat)) };
}

describe('RgbPngEncoder', () => {
  const background = scanlines(0);
  const encoder = new RgbPngEncoder(WIDTH, HEIGHT, background);

  it('encodes the background itself: an 8-bit RGB PNG holding exactly its scanlines', () => {
    const { types, header, data } = read(encoder.encode(background, []));

    expect(types).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect([header.readUInt32BE(0), header.readUInt32BE(4), header[8], header[9]]).toEqual([WIDTH, HEIGHT, 8, 2]);
    expect(data.equals(background)).toBe(true);
  });

  it.each([
    ['rows inside one block', [{ top: 20, bottom: 25 }]],
    ['rows across two blocks', [{ top: 10, bottom: 40 }]],
    [
      'separate runs, the first row and the last block',
      [
        { top: 0, bottom: 1 },
        { top: 33, bottom: 34 },
        { top: 66, bottom: 70 },
      ],
    ],
    ['every row', [{ top: 0, bottom: HEIGHT }]],
  ])('encodes an image that differs in %s', (_label, changed) => {
    const image = Buffer.from(background);
    const other = scanlines(5);
    for (const { top, bottom } of changed) other.copy(image, top * ROW, top * ROW, bottom * ROW);

    expect(read(encoder.encode(image, changed)).data.equals(image)).toBe(true);
  });

  it('keeps the background as it was when the changed rows are not declared (they are encoded from the background)', () => {
    const image = scanlines(9);

    expect(read(encoder.encode(image, [])).data.equals(background)).toBe(true);
  });
});
