import { Resvg } from '@resvg/resvg-js';
import { inflateSync } from 'node:zlib';
import { expectSameDrawing } from './__tests__/same-drawing';
import {
  SHARE_CARD_HEIGHT,
  SHARE_CARD_WIDTH,
  UnusableLogoError,
  composeShareCard,
  drawCard,
  renderShareCard,
  type ShareCardInput,
} from './share-card.renderer';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
// 8x8 solid red images made with ImageMagick.
const RED_JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4RDgsLEBYQERMUFRUVDA8XGBYUGBIUFRT/2wBDAQMEBAUEBQkFBQkUDQsNFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBT/wAARCAAIAAgDAREAAhEBAxEB/8QAFAABAAAAAAAAAAAAAAAAAAAACP/EABQQAQAAAAAAAAAAAAAAAAAAAAD/xAAVAQEBAAAAAAAAAAAAAAAAAAAHCf/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/ADoDFU3/2Q==',
  'base64',
);
const RED_CMYK_JPEG = Buffer.from(
  '/9j/7gAOQWRvYmUAZAAAAAAC/9sAQwADAgIDAgIDAwMDBAMDBAUIBQUEBAUKBwcGCAwKDAwLCgsLDQ4SEA0OEQ4LCxAWEBETFBUVFQwPFxgWFBgSFBUU/9sAQwEDBAQFBAUJBQUJFA0LDRQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQU/8AAFAgACAAIBAERAAIRAQMRAQQRAP/EABUAAQEAAAAAAAAAAAAAAAAAAAgJ/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/EABUBAQEAAAAAAAAAAAAAAAAAAAcJ/8QAFBEBAAAAAAAAAAAAAAAAAAAAAP/aAA4EAQACEQMRBAAAPwBEHNKpVN//2Q==',
  'base64',
);
const RED_GIF = Buffer.from('R0lGODlhCAAIAPAAAP8AAAAAACH5BAAAAAAALAAAAAAIAAgAAAIHhI+py+1dAAA7', 'base64');
const RED_WEBP = Buffer.from('UklGRhwAAABXRUJQVlA4TA8AAAAvB8ABAAcQ/Y/+ByKi/wEA', 'base64');

/** A solid PNG drawn by resvg itself. */
function solidPng(color: string, width = 40, height = 40): Buffer {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${color}"/></svg>`;
  return new Resvg(svg, { font: { loadSystemFonts: false } }).render().asPng();
}

/** RGBA pixels of a PNG, decoded by drawing it with resvg at its own size. */
function decode(png: Buffer): { at(x: number, y: number): [number, number, number, number] } {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${SHARE_CARD_WIDTH}" height="${SHARE_CARD_HEIGHT}"><image width="${SHARE_CARD_WIDTH}" height="${SHARE_CARD_HEIGHT}" href="data:image/png;base64,${png.toString('base64')}"/></svg>`;
  const pixels = new Resvg(svg, { font: { loadSystemFonts: false } }).render().pixels;
  return {
    at(x, y) {
      const i = (y * SHARE_CARD_WIDTH + x) * 4;
      return [pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]];
    },
  };
}

/** The RGB bytes of a card's PNG, row by row, read exactly (8-bit RGB, every scanline unfiltered). */
function rgbOf(png: Buffer): Buffer {
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  expect([png[24], png[25]]).toEqual([8, 2]);
  const scanlines = inflateSync(Buffer.concat(idat));
  const row = 1 + 3 * SHARE_CARD_WIDTH;
  expect(scanlines.length).toBe(row * SHARE_CARD_HEIGHT);
  const rows = Array.from({ length: SHARE_CARD_HEIGHT }, (_, y) => scanlines.subarray(y * row, (y + 1) * row));
  expect(rows.filter((line) => line[0] !== 0)).toEqual([]);
  return Buffer.concat(rows.map((line) => line.subarray(1)));
}

/** The RGB of resvg drawing the whole card (its outlines: no fonts) in one go. */
function wholeCardRgb(input: ShareCardInput): Buffer {
  const rgba = new Resvg(composeShareCard(input).svg, { font: { loadSystemFonts: false }, logLevel: 'off' }).render()
    .pixels;
  const rgb = Buffer.alloc((rgba.length / 4) * 3);
  let translucent = 0;
  for (let i = 0, o = 0; i < rgba.length; i += 4, o += 3) {
    if (rgba[i + 3] !== 255) translucent++;
    rgb[o] = rgba[i];
    rgb[o + 1] = rgba[i + 1];
    rgb[o + 2] = rgba[i + 2];
  }
  expect(translucent).toBe(0);
  return rgb;
}

const LOGO_CENTRE = [168, 168] as const;
const base: ShareCardInput = { name: 'Ada Lovelace', company: 'Analytical Engines Ltd', logo: null };

describe('renderShareCard', () => {
  it('renders a 1200x630 PNG', () => {
    const png = renderShareCard(base);

    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(png.toString('latin1', 12, 16)).toBe('IHDR');
    expect(png.readUInt32BE(16)).toBe(SHARE_CARD_WIDTH);
    expect(png.readUInt32BE(20)).toBe(SHARE_CARD_HEIGHT);
    expect([SHARE_CARD_WIDTH, SHARE_CARD_HEIGHT]).toEqual([1200, 630]);
  });

  const stacked = (marks: number) => `Z${'\u0301\u0302\u0303\u0304\u0306'.repeat(marks / 5)}algo`;
  it.each([
    ['a name and a company', base],
    ['no company', { ...base, company: null }],
    ['a name shrunk to fit', { ...base, name: 'Bartholomew Fitzgerald-Montgomery' }],
    ['names cut with an ellipsis', { name: 'W'.repeat(80), company: 'M'.repeat(80), logo: null }],
    [
      'marks stacked far above the text and the panel',
      { name: `${stacked(60)} ${stacked(60)}`, company: stacked(60), logo: null },
    ],
    // At 72 px the initial's marks rise above the card; at 80 px the name's reach only y = 158.
    ['marks stacked above the panel, higher than the name', { name: stacked(15), company: null, logo: null }],
    ['no text at all', { name: '   ', company: '', logo: null }],
    ['a logo', { ...base, logo: { bytes: solidPng('#ff0000', 400, 40), mimeType: 'image/png' } }],
  ])('draws the pixels of the whole card drawn at once, up to anti-aliasing: %s', (_label, input: ShareCardInput) => {
    expectSameDrawing(rgbOf(renderShareCard(input)), wholeCardRgb(input));
  });

  it('draws the text with the bundled font: different names and companies give different images', () => {
    const ada = renderShareCard(base);

    expect(renderShareCard({ ...base, name: 'Grace Hopper' }).equals(ada)).toBe(false);
    expect(renderShareCard({ ...base, company: 'Difference Engines Ltd' }).equals(ada)).toBe(false);
    expect(renderShareCard({ ...base, company: null }).equals(ada)).toBe(false);
  });

  it('draws the name in white in the name row', () => {
    const pixels = decode(renderShareCard({ ...base, name: 'IIIIIIIIII' }));

    // The first stroke of a bold 80 px "I" at x = 80..100, above the 420 baseline.
    expect(pixels.at(88, 390)).toEqual([255, 255, 255, 255]);
  });

  it('embeds a PNG logo in the top-left panel', () => {
    const withLogo = renderShareCard({ ...base, logo: { bytes: solidPng('#ff0000'), mimeType: 'image/png' } });
    const without = renderShareCard(base);

    expect(withLogo.equals(without)).toBe(false);
    expect(decode(withLogo).at(...LOGO_CENTRE)).toEqual([255, 0, 0, 255]);
    expect(decode(without).at(...LOGO_CENTRE)).not.toEqual([255, 0, 0, 255]);
  });

  it.each([
    ['JPEG', RED_JPEG, 'image/jpeg'],
    ['GIF', RED_GIF, 'image/gif'],
    ['JPEG labelled as PNG', RED_JPEG, 'image/png'],
  ])('embeds a %s logo', (_label, bytes, mimeType) => {
    const [r, g, b] = decode(renderShareCard({ ...base, logo: { bytes, mimeType } })).at(...LOGO_CENTRE);

    expect(r).toBeGreaterThan(240);
    expect(g).toBeLessThan(16);
    expect(b).toBeLessThan(16);
  });

  it('keeps a non-square logo inside the panel', () => {
    const pixels = decode(
      renderShareCard({ ...base, logo: { bytes: solidPng('#ff0000', 400, 40), mimeType: 'image/png' } }),
    );

    expect(pixels.at(...LOGO_CENTRE)).toEqual([255, 0, 0, 255]);
    expect(pixels.at(168, 110)).toEqual([255, 255, 255, 255]); // panel above the letterboxed logo
  });

  it.each([
    ['WebP (resvg-js 2.6.2 has no WebP decoder)', RED_WEBP, 'image/webp'],
    ['CMYK JPEG (resvg draws nothing)', RED_CMYK_JPEG, 'image/jpeg'],
    ['HTML', Buffer.from('<html></html>'), 'image/png'],
    ['an empty buffer', Buffer.alloc(0), 'image/png'],
    [
      'a PNG signature followed by garbage',
      Buffer.concat([solidPng('#ff0000').subarray(0, 33), Buffer.from('garbage garbage garbage')]),
      'image/png',
    ],
    ['a truncated JPEG', RED_JPEG.subarray(0, 120), 'image/jpeg'],
    ['an SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml'],
  ])('refuses %s as a logo', (_label, bytes, mimeType) => {
    expect(() => renderShareCard({ ...base, logo: { bytes, mimeType } })).toThrow(UnusableLogoError);
  });

  it('refuses a logo whose header claims huge dimensions, before decoding it', () => {
    const bomb = Buffer.from(solidPng('#ff0000'));
    bomb.writeUInt32BE(100_000, 16);
    bomb.writeUInt32BE(100_000, 20);

    expect(() => renderShareCard({ ...base, logo: { bytes: bomb, mimeType: 'image/png' } })).toThrow(
      /larger than 4096x4096/,
    );
  });

  it('refuses a GIF whose frame is far larger than its logical screen, before decoding it', () => {
    // A 1x1 screen holding a 60000x60000 frame: decoding it would take ~14 GB.
    const u16 = (n: number) => Buffer.from([n & 0xff, n >> 8]);
    const bomb = Buffer.concat([
      Buffer.from('GIF89a', 'latin1'),
      u16(1),
      u16(1),
      Buffer.from([0, 0, 0]),
      Buffer.from([0x2c]),
      u16(0),
      u16(0),
      u16(60000),
      u16(60000),
      Buffer.from([0, 2, 1, 0, 0, 0x3b]),
    ]);

    expect(() => renderShareCard({ ...base, logo: { bytes: bomb, mimeType: 'image/gif' } })).toThrow(
      /larger than 4096x4096/,
    );
  });

  it.each([
    `<&>"'`,
    'Tom & Jerry <script>alert("x")</script>',
    ']]><!-- --><![CDATA[',
    '&amp; &#x3c; &lt;',
    'Null\u0000 and \u0008 controls\u001f',
    'Lone \ud800 surrogate',
    'Line\nbreaks\tand   spaces',
    '',
    '   ',
  ])('renders text that needs escaping or cleaning: %j', (text) => {
    const png = renderShareCard({ name: text, company: text, logo: null });

    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  });

  it('escapes rather than interprets markup', () => {
    const literal = renderShareCard({ ...base, name: 'A<tspan>B</tspan>' });

    expect(literal.equals(renderShareCard({ ...base, name: 'AB' }))).toBe(false);
  });

  it('keeps very long names and companies inside the right margin', () => {
    const long = 'W'.repeat(500);
    const pixels = decode(renderShareCard({ name: long, company: long, logo: null }));

    for (let x = 1125; x < SHARE_CARD_WIDTH; x += 5) {
      for (const y of [370, 400, 470, 490]) {
        const [r, g, b] = pixels.at(x, y);
        expect(Math.min(r, g, b)).toBeLessThan(150); // background, not white or light-grey text
      }
    }
  });

  it('renders scripts the font covers and survives ones it does not', () => {
    const greek = renderShareCard({ ...base, name: 'Αλέξανδρος Παπαδόπουλος' });
    const cjk = renderShareCard({ ...base, name: '山田太郎', company: '株式会社 🚀' });

    expect(greek.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(cjk.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  });
});

describe('drawCard', () => {
  it('draws the logo when it can: logo drawn', () => {
    const drawing = drawCard({ ...base, logo: { bytes: solidPng('#ff0000'), mimeType: 'image/png' } });

    expect(drawing).toMatchObject({ ok: true, logo: 'drawn' });
    expect(drawing.ok && decode(drawing.png).at(...LOGO_CENTRE)).toEqual([255, 0, 0, 255]);
  });

  it('draws the default card when the logo cannot be drawn: logo unusable, same image as without a logo', () => {
    const drawing = drawCard({ ...base, logo: { bytes: RED_WEBP, mimeType: 'image/webp' } });

    expect(drawing).toMatchObject({ ok: true, logo: 'unusable' });
    expect(drawing.ok && drawing.png.equals(renderShareCard(base))).toBe(true);
  });

  it('a card without a logo: logo none', () => {
    expect(drawCard(base)).toMatchObject({ ok: true, logo: 'none' });
  });
});
