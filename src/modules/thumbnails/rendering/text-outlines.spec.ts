import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
import { expectSameDrawing } from './__tests__/same-drawing';
import { SHARE_CARD_FONT_FAMILY, SHARE_CARD_FONT_FILES } from './fonts';
import { TextOutliner } from './text-outlines';

const IMAGE = { width: 600, height: 200 };
const fonts: ResvgRenderOptions = {
  font: { fontFiles: [...SHARE_CARD_FONT_FILES], loadSystemFonts: false, defaultFontFamily: SHARE_CARD_FONT_FAMILY },
  logLevel: 'off',
};
const text = (content: string, attributes = '') =>
  `<text x="20" y="120" font-family="${SHARE_CARD_FONT_FAMILY}" font-size="64" font-weight="700" fill="#ffffff"${attributes}>${content}</text>`;
const pixels = (content: string, options: ResvgRenderOptions) =>
  new Resvg(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${IMAGE.width}" height="${IMAGE.height}"><rect width="100%" height="100%" fill="#1e3a8a"/>${content}</svg>`,
    options,
  ).render().pixels;

describe('TextOutliner', () => {
  it.each([
    ['Latin', text('Ada Lovelace')],
    ['Greek and Cyrillic', text('Αλέξανδρος Юрий')],
    ['escaped markup', text('Tom &amp; Jerry &lt;b&gt;')],
    ['stacked marks', text(`Z${'\u0301\u0302\u0303'.repeat(6)}algo`)],
    ['anchored in the middle', text('AL', ' text-anchor="middle"')],
  ])(
    'outlines %s so that drawing the outlines, without fonts, gives the text drawn with them, up to anti-aliasing',
    (_label, element) => {
      const outline = new TextOutliner(IMAGE, fonts).outline(element);

      expect(outline.svg).toContain('<path');
      expect(outline.svg).not.toContain('<text');
      expectSameDrawing(pixels(outline.svg, { font: { loadSystemFonts: false } }), pixels(element, fonts));
    },
  );

  it('gives the box of the ink, and no box or outline for text that draws nothing', () => {
    const outliner = new TextOutliner(IMAGE, fonts);
    const wide = outliner.outline(text('WWWW'));
    const narrow = outliner.outline(text('iiii'));

    expect(wide.box).toEqual({
      x: expect.closeTo(20, -1),
      y: expect.any(Number),
      width: expect.any(Number),
      height: expect.any(Number),
    });
    expect(wide.box!.width).toBeGreaterThan(3 * narrow.box!.width);
    expect(wide.box!.y + wide.box!.height).toBeCloseTo(120, 0); // capitals sit on the baseline
    expect(outliner.outline(text(' '))).toEqual({ svg: '', box: null });
  });

  it('lays an element out once and answers it again from what it kept', () => {
    const outliner = new TextOutliner(IMAGE, fonts);
    const first = outliner.outline(text('Analytical Engines Ltd'));

    expect(outliner.outline(text('Analytical Engines Ltd'))).toBe(first);
    expect(outliner.outline(text('Difference Engines Ltd'))).not.toBe(first);
  });
});
