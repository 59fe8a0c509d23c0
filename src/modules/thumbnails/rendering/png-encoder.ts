import { constants, crc32, deflateRawSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const RGB = 2;
/** A zlib stream header: deflate, 32 KiB window, no dictionary (0x789c is divisible by 31). */
const ZLIB_HEADER = Buffer.from([0x78, 0x9c]);
/** The last deflate block, empty: BFINAL 1, fixed Huffman codes, then the end-of-block code. */
const LAST_BLOCK = Buffer.from([0x03, 0x00]);
const BLOCK_ROWS = 16;
/** The background's blocks are deflated once and can take the time to be small. */
const BACKGROUND_LEVEL = 9;
/**
 * zlib's fastest match search for the rows each image changes: level 2 took a third of level 6's
 * time on a card's rows, for a stream twice as large.
 */
const CHANGED_LEVEL = 2;
const ADLER_MODULUS = 65521;

/** Bytes per PNG scanline of an 8-bit RGB image: the filter-type byte, then the pixels. */
export function rgbScanlineBytes(width: number): number {
  return 1 + 3 * width;
}

interface Block {
  deflated: Buffer;
  adler: number;
  bytes: number;
}

/**
 * Opaque 8-bit RGB PNGs of images that share a background and differ from it in a few rows. The
 * image data is one zlib stream made of independently deflated runs of 16-row blocks (each ends on
 * a full flush, so runs can be joined): blocks no image changes are deflated once, at the best
 * compression, and only runs of changed blocks are deflated per image. The stream's Adler-32 is put
 * together from the blocks' own.
 */
export class RgbPngEncoder {
  private readonly rowBytes: number;
  private readonly background: Block[];

  /** `background`: height scanlines of rgbScanlineBytes(width) bytes, each led by its filter type. */
  constructor(
    private readonly width: number,
    private readonly height: number,
    background: Uint8Array,
  ) {
    this.rowBytes = rgbScanlineBytes(width);
    this.background = [];
    for (let top = 0; top < height; top += BLOCK_ROWS) {
      const rows = background.subarray(top * this.rowBytes, Math.min(height, top + BLOCK_ROWS) * this.rowBytes);
      this.background.push({ deflated: deflateRun(rows, BACKGROUND_LEVEL), adler: adler32(rows), bytes: rows.length });
    }
  }

  /** The PNG of `scanlines`, which equal the background's outside `changed` (row ranges, bottom excluded). */
  encode(scanlines: Uint8Array, changed: { top: number; bottom: number }[]): Buffer {
    const blockChanged = this.background.map((_, block) =>
      changed.some((rows) => rows.top < (block + 1) * BLOCK_ROWS && rows.bottom > block * BLOCK_ROWS),
    );
    const parts: Buffer[] = [ZLIB_HEADER];
    let checksum = 1;
    for (let block = 0; block < this.background.length;) {
      let end = block + 1;
      if (!blockChanged[block]) {
        parts.push(this.background[block].deflated);
        checksum = adler32Joined(checksum, this.background[block].adler, this.background[block].bytes);
      } else {
        while (end < this.background.length && blockChanged[end]) end++;
        const rows = scanlines.subarray(
          block * BLOCK_ROWS * this.rowBytes,
          Math.min(this.height, end * BLOCK_ROWS) * this.rowBytes,
        );
        parts.push(deflateRun(rows, CHANGED_LEVEL));
        checksum = adler32Joined(checksum, adler32(rows), rows.length);
      }
      block = end;
    }
    const trailer = Buffer.alloc(4);
    trailer.writeUInt32BE(checksum >>> 0, 0);
    parts.push(LAST_BLOCK, trailer);

    const header = Buffer.alloc(13);
    header.writeUInt32BE(this.width, 0);
    header.writeUInt32BE(this.height, 4);
    header.set([8, RGB, 0, 0, 0], 8);
    return Buffer.concat([
      SIGNATURE,
      chunk('IHDR', header),
      chunk('IDAT', Buffer.concat(parts)),
      chunk('IEND', Buffer.alloc(0)),
    ]);
  }
}

/** Raw deflate data of `bytes` that ends on a byte boundary with its window reset (a full flush), not finished. */
function deflateRun(bytes: Uint8Array, level: number): Buffer {
  return deflateRawSync(bytes, { level, finishFlush: constants.Z_FULL_FLUSH });
}

/** Adler-32 (RFC 1950): A = 1 + the bytes' sum, B = the sum of every A along the way, both mod 65521. */
function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  // Reduced every 1,024 bytes, the sums stay small integers, which V8 adds fastest.
  for (let start = 0; start < bytes.length; start += 1024) {
    const end = Math.min(bytes.length, start + 1024);
    for (let i = start; i < end; i++) {
      a += bytes[i];
      b += a;
    }
    a %= ADLER_MODULUS;
    b %= ADLER_MODULUS;
  }
  return ((b << 16) | a) >>> 0;
}

/**
 * The Adler-32 of X followed by Y, from each one's and Y's length n: A = A_X + A_Y - 1, and
 * B = B_X + B_Y + n (A_X - 1), as every A along Y starts A_X - 1 higher.
 */
function adler32Joined(first: number, second: number, secondLength: number): number {
  const [aX, bX] = [first & 0xffff, first >>> 16];
  const [aY, bY] = [second & 0xffff, second >>> 16];
  const a = (aX + aY + ADLER_MODULUS - 1) % ADLER_MODULUS;
  const b = (bX + bY + (secondLength % ADLER_MODULUS) * ((aX + ADLER_MODULUS - 1) % ADLER_MODULUS)) % ADLER_MODULUS;
  return ((b << 16) | a) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}
