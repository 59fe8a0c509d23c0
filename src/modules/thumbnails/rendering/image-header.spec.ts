import { imageSize, logoImageProblem, sniffImageType } from './image-header';

// Real images: a 1x1 PNG, 8x8 JPEG, GIF and lossless WebP (ImageMagick).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4RDgsLEBYQERMUFRUVDA8XGBYUGBIUFRT/2wBDAQMEBAUEBQkFBQkUDQsNFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBT/wAARCAAIAAgDAREAAhEBAxEB/8QAFAABAAAAAAAAAAAAAAAAAAAACP/EABQQAQAAAAAAAAAAAAAAAAAAAAD/xAAVAQEBAAAAAAAAAAAAAAAAAAAHCf/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/ADoDFU3/2Q==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhCAAIAPAAAP8AAAAAACH5BAAAAAAALAAAAAAIAAgAAAIHhI+py+1dAAA7', 'base64');
const WEBP_LOSSLESS = Buffer.from('UklGRhwAAABXRUJQVlA4TA8AAAAvB8ABAAcQ/Y/+ByKi/wEA', 'base64');

const u16 = (n: number) => Buffer.from([n & 0xff, n >> 8]);

/** A GIF whose 1x1 logical screen holds one frame of the given placement (no pixel data needed to read headers). */
function gifWithFrame(
  left: number,
  top: number,
  width: number,
  height: number,
  extra: Buffer = Buffer.alloc(0),
): Buffer {
  return Buffer.concat([
    Buffer.from('GIF89a', 'latin1'),
    u16(1),
    u16(1),
    Buffer.from([0x00, 0x00, 0x00]), // 1x1 screen, no global color table
    Buffer.from([0x21, 0xf9, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00]), // graphic control extension
    Buffer.from([0x2c]),
    u16(left),
    u16(top),
    u16(width),
    u16(height),
    Buffer.from([0x00]),
    Buffer.from([0x02, 0x02, 0x4c, 0x01, 0x00]), // LZW minimum code size, one data sub-block, terminator
    extra,
    Buffer.from([0x3b]),
  ]);
}

function webp(chunk: 'VP8X' | 'VP8 ', payload: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(chunk, 'latin1'), Buffer.from([payload.length, 0, 0, 0]), payload]);
  return Buffer.concat([
    Buffer.from('RIFF', 'latin1'),
    Buffer.from([body.length + 4, 0, 0, 0]),
    Buffer.from('WEBP', 'latin1'),
    body,
  ]);
}

describe('sniffImageType', () => {
  it.each([
    [PNG, 'image/png'],
    [Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), 'image/jpeg'],
    [Buffer.from('GIF87a\x01\x00', 'latin1'), 'image/gif'],
    [Buffer.from('GIF89a\x01\x00', 'latin1'), 'image/gif'],
    [Buffer.from('RIFF\x1a\x00\x00\x00WEBPVP8L', 'latin1'), 'image/webp'],
    [Buffer.from('RIFF\x1a\x00\x00\x00WAVEfmt ', 'latin1'), null],
    [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), null],
    [Buffer.from('BM'), null],
    [PNG.subarray(0, 7), null],
    [Buffer.alloc(0), null],
  ])('case %#', (bytes, expected) => {
    expect(sniffImageType(bytes)).toBe(expected);
  });
});

describe('imageSize', () => {
  it('reads PNG, JPEG, GIF and WebP headers', () => {
    expect(imageSize(PNG, 'image/png')).toEqual({ width: 1, height: 1 });
    expect(imageSize(JPEG, 'image/jpeg')).toEqual({ width: 8, height: 8 });
    expect(imageSize(GIF, 'image/gif')).toEqual({ width: 8, height: 8 });
    expect(imageSize(WEBP_LOSSLESS, 'image/webp')).toEqual({ width: 8, height: 8 });
  });

  it('reads the canvas of extended and lossy WebP files', () => {
    const vp8x = Buffer.alloc(10);
    vp8x.writeUIntLE(4999, 4, 3);
    vp8x.writeUIntLE(299, 7, 3);
    expect(imageSize(webp('VP8X', vp8x), 'image/webp')).toEqual({ width: 5000, height: 300 });

    const vp8 = Buffer.from([0x30, 0x01, 0x00, 0x9d, 0x01, 0x2a, 0x40, 0x01, 0xf0, 0x00]); // 320x240
    expect(imageSize(webp('VP8 ', vp8), 'image/webp')).toEqual({ width: 320, height: 240 });
  });

  it('takes the largest extent of a GIF: a frame reaching past its logical screen counts, offset included', () => {
    expect(imageSize(gifWithFrame(0, 0, 1, 1), 'image/gif')).toEqual({ width: 1, height: 1 });
    expect(imageSize(gifWithFrame(0, 0, 60000, 60000), 'image/gif')).toEqual({ width: 60000, height: 60000 });
    expect(imageSize(gifWithFrame(65000, 10, 100, 5), 'image/gif')).toEqual({ width: 65100, height: 15 });
  });

  it('checks every frame of a GIF, not only the first', () => {
    const second = Buffer.concat([
      Buffer.from([0x2c]),
      u16(0),
      u16(0),
      u16(9000),
      u16(2),
      Buffer.from([0x00, 0x02, 0x01, 0x00, 0x00]),
    ]);
    expect(imageSize(gifWithFrame(0, 0, 1, 1, second), 'image/gif')).toEqual({ width: 9000, height: 2 });
  });

  it('finds no size in a GIF without a frame or with a block no decoder accepts', () => {
    expect(imageSize(Buffer.concat([GIF.subarray(0, 13), Buffer.from([0x3b])]), 'image/gif')).toBeNull();
    expect(
      imageSize(Buffer.concat([gifWithFrame(0, 0, 1, 1).subarray(0, 13), Buffer.from([0x99, 0x00])]), 'image/gif'),
    ).toBeNull();
    expect(imageSize(gifWithFrame(0, 0, 1, 1).subarray(0, 25), 'image/gif')).toBeNull(); // descriptor cut short
  });
});

describe('logoImageProblem', () => {
  it('accepts real images within 4096 pixels a side', () => {
    for (const image of [PNG, JPEG, GIF, WEBP_LOSSLESS, gifWithFrame(0, 0, 4096, 4096)])
      expect(logoImageProblem(image)).toBeNull();
  });

  it.each([
    [
      'a PNG declaring 100000 pixels wide',
      (() => {
        const bomb = Buffer.from(PNG);
        bomb.writeUInt32BE(100_000, 16);
        return bomb;
      })(),
      'logo is larger than 4096x4096 pixels',
    ],
    [
      'a 1x1 GIF screen with a 60000x60000 frame',
      gifWithFrame(0, 0, 60000, 60000),
      'logo is larger than 4096x4096 pixels',
    ],
    ['a GIF frame placed 4096 pixels right', gifWithFrame(4096, 0, 1, 1), 'logo is larger than 4096x4096 pixels'],
    [
      'a PNG of zero width',
      (() => {
        const empty = Buffer.from(PNG);
        empty.writeUInt32BE(0, 16);
        return empty;
      })(),
      'logo image header is unreadable',
    ],
    ['a JPEG without a frame header', JPEG.subarray(0, 20), 'logo image header is unreadable'],
    ['HTML', Buffer.from('<html></html>'), 'logo is not a PNG, JPEG, GIF or WebP image'],
  ])('refuses %s', (_label, bytes, problem) => {
    expect(logoImageProblem(bytes)).toBe(problem);
  });
});
