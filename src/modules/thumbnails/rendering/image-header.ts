// What a logo's bytes are and how many pixels decoding them would take, read from the headers only.
// A 2 MiB file can declare gigapixels (a PNG of zeros deflates ~1000:1, a GIF frame can be far larger
// than its logical screen), so every frame's extent is checked before a decoder sees the bytes.

export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export interface ImageSize {
  width: number;
  height: number;
}

/** Logos are drawn at 144 px; a larger source only costs decoding memory (4096² RGBA is 64 MiB). */
export const MAX_LOGO_SIDE = 4096;

/** The image type the bytes start with, whatever a server claimed. */
export function sniffImageType(bytes: Buffer): ImageType | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return 'image/png';
  }
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return 'image/jpeg';
  }
  if (bytes.length >= 6 && ['GIF87a', 'GIF89a'].includes(bytes.toString('latin1', 0, 6))) {
    return 'image/gif';
  }
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') {
    return 'image/webp';
  }
  return null;
}

/** Why these bytes must not be decoded as a logo, or null when they may be. */
export function logoImageProblem(bytes: Buffer): string | null {
  const type = sniffImageType(bytes);
  if (type === null) {
    return 'logo is not a PNG, JPEG, GIF or WebP image';
  }
  const size = imageSize(bytes, type);
  if (size === null || size.width === 0 || size.height === 0) {
    return 'logo image header is unreadable';
  }
  if (size.width > MAX_LOGO_SIDE || size.height > MAX_LOGO_SIDE) {
    return `logo is larger than ${MAX_LOGO_SIDE}x${MAX_LOGO_SIDE} pixels`;
  }
  return null;
}

/**
 * The largest extent decoding would allocate: the image for PNG and JPEG, the canvas for WebP, the
 * logical screen or any frame (offset included) for GIF. Null when the header cannot be read.
 */
export function imageSize(bytes: Buffer, type: ImageType): ImageSize | null {
  switch (type) {
    case 'image/png':
      return bytes.length >= 24 && bytes.toString('latin1', 12, 16) === 'IHDR'
        ? { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
        : null;
    case 'image/gif':
      return gifExtent(bytes);
    case 'image/jpeg':
      return jpegSize(bytes);
    case 'image/webp':
      return webpSize(bytes);
  }
}

/** Walks the JPEG segments to the first start-of-frame marker. */
function jpegSize(bytes: Buffer): ImageSize | null {
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) {
      return null;
    }
    const marker = bytes[offset + 1];
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2; // markers without a length
      continue;
    }
    const length = bytes.readUInt16BE(offset + 2);
    const isStartOfFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isStartOfFrame) {
      return offset + 9 <= bytes.length
        ? { width: bytes.readUInt16BE(offset + 7), height: bytes.readUInt16BE(offset + 5) }
        : null;
    }
    offset += 2 + length;
  }
  return null;
}

const GIF_TRAILER = 0x3b;
const GIF_EXTENSION = 0x21;
const GIF_IMAGE = 0x2c;

/** The logical screen and every frame's far corner (GIF89a §18-§20); null without a readable frame. */
function gifExtent(bytes: Buffer): ImageSize | null {
  if (bytes.length < 13) {
    return null;
  }
  const extent = { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  let offset = 13 + colorTableSize(bytes[10]);
  let frames = 0;
  while (offset < bytes.length && bytes[offset] !== GIF_TRAILER) {
    if (bytes[offset] === GIF_EXTENSION) {
      offset = skipSubBlocks(bytes, offset + 2);
    } else if (bytes[offset] === GIF_IMAGE && offset + 10 <= bytes.length) {
      extent.width = Math.max(extent.width, bytes.readUInt16LE(offset + 1) + bytes.readUInt16LE(offset + 5));
      extent.height = Math.max(extent.height, bytes.readUInt16LE(offset + 3) + bytes.readUInt16LE(offset + 7));
      frames += 1;
      // Descriptor, local color table, LZW minimum code size, then the image data sub-blocks.
      offset = skipSubBlocks(bytes, offset + 10 + colorTableSize(bytes[offset + 9]) + 1);
    } else {
      return null; // not a block a decoder would accept here
    }
  }
  return frames > 0 ? extent : null;
}

function colorTableSize(packed: number): number {
  return packed & 0x80 ? 3 * (1 << ((packed & 0x07) + 1)) : 0;
}

/** The offset after a chain of data sub-blocks (a length byte, then that many bytes; 0 ends it). */
function skipSubBlocks(bytes: Buffer, offset: number): number {
  while (offset < bytes.length && bytes[offset] !== 0) {
    offset += bytes[offset] + 1;
  }
  return offset + 1;
}

/** The canvas of a simple (VP8, VP8L) or extended (VP8X) WebP file. */
function webpSize(bytes: Buffer): ImageSize | null {
  if (bytes.length < 30) {
    return null;
  }
  switch (bytes.toString('latin1', 12, 16)) {
    case 'VP8X':
      return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
    case 'VP8L': {
      if (bytes[20] !== 0x2f) return null;
      const bits = bytes.readUInt32LE(21);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    case 'VP8 ':
      if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return null;
      return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
    default:
      return null;
  }
}
