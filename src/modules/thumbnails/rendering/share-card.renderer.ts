import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
import { SHARE_CARD_FONT_FAMILY, SHARE_CARD_FONT_FILES } from './fonts';
import { CardCanvas, coveringWindow, type Box } from './card-canvas';
import { TextOutliner, type Outline } from './text-outlines';
import { logoImageProblem, sniffImageType } from './image-header';

// The 1200x630 share card of docs/api.md §12.6: the prospect's name, company and logo, drawn as SVG and
// rasterised by resvg with the bundled DejaVu fonts only, so output does not depend on the host. Each
// text is laid out once (TextOutliner), and the card is its fixed background (drawn once per thread)
// plus the outlines and the logo, drawn only in the windows their ink covers (CardCanvas).

export const SHARE_CARD_WIDTH = 1200;
export const SHARE_CARD_HEIGHT = 630;

export interface ShareCardInput {
  name: string;
  company: string | null;
  logo: { bytes: Buffer; mimeType: string } | null;
}

/**
 * The logo cannot be drawn: not PNG/JPEG/GIF (resvg-js 2.6.2 has no WebP decoder), too large, or
 * bytes resvg fails to decode. Callers can fall back to the card without a logo.
 */
export class UnusableLogoError extends Error {
  override readonly name = 'UnusableLogoError';
}

const MARGIN = 80;
const TEXT_WIDTH = SHARE_CARD_WIDTH - 2 * MARGIN;
const PANEL = { x: MARGIN, y: MARGIN, size: 176, padding: 16, radius: 24 };
const NAME = { baseline: 420, maxSize: 80, minSize: 56, weight: 700 };
const COMPANY = { baseline: 496, maxSize: 44, minSize: 36, weight: 400 };
// Past this many graphemes text is cut before measuring: it would be truncated anyway.
const MAX_GRAPHEMES = 200;

const fontOptions: NonNullable<ResvgRenderOptions['font']> = {
  fontFiles: [...SHARE_CARD_FONT_FILES],
  loadSystemFonts: false,
  defaultFontFamily: SHARE_CARD_FONT_FAMILY,
};
const layoutOptions: ResvgRenderOptions = { font: fontOptions, logLevel: 'off' };
// Cards are drawn from text outlines: no fonts to load.
const drawOptions: ResvgRenderOptions = { font: { loadSystemFonts: false }, logLevel: 'off' };

// What every card shows: the gradient, the bottom stripe and the white panel. The whole card is opaque.
const BACKGROUND = [
  '<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">',
  '<stop offset="0" stop-color="#0f172a"/><stop offset="1" stop-color="#1e3a8a"/>',
  '</linearGradient></defs>',
  `<rect width="${SHARE_CARD_WIDTH}" height="${SHARE_CARD_HEIGHT}" fill="url(#bg)"/>`,
  `<rect y="${SHARE_CARD_HEIGHT - 16}" width="${SHARE_CARD_WIDTH}" height="16" fill="#38bdf8"/>`,
  `<rect x="${PANEL.x}" y="${PANEL.y}" width="${PANEL.size}" height="${PANEL.size}" rx="${PANEL.radius}" fill="#ffffff"/>`,
].join('');
const LOGO_BOX = {
  x: PANEL.x + PANEL.padding,
  y: PANEL.y + PANEL.padding,
  width: PANEL.size - 2 * PANEL.padding,
  height: PANEL.size - 2 * PANEL.padding,
};

const cardSvg = (content: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${SHARE_CARD_WIDTH}" height="${SHARE_CARD_HEIGHT}" viewBox="0 0 ${SHARE_CARD_WIDTH} ${SHARE_CARD_HEIGHT}">${content}</svg>`;

const CARD = { width: SHARE_CARD_WIDTH, height: SHARE_CARD_HEIGHT };
// Module state is per thread: each drawing thread draws the background once and keeps its own outlines.
let canvas: CardCanvas | null = null;
const outliner = new TextOutliner(CARD, layoutOptions);

const NOTHING: Outline = { svg: '', box: null };

/** A 1200x630 PNG share card: prospect name, company, and the logo when given. Throws on a logo resvg cannot decode. */
export function renderShareCard(input: ShareCardInput): Buffer {
  const { svg, windows } = composeShareCard(input);
  return (canvas ??= new CardCanvas(SHARE_CARD_WIDTH, SHARE_CARD_HEIGHT, cardSvg(BACKGROUND), drawOptions)).draw(
    svg,
    windows,
  );
}

/** The card as SVG, and the windows outside which it is its background: the panel's content, the name and the company. */
export function composeShareCard(input: ShareCardInput): { svg: string; windows: Box[] } {
  const logoHref = input.logo === null ? null : logoDataUri(input.logo.bytes);
  const name = fitText(cleanText(input.name), NAME, '#ffffff');
  const company = input.company === null ? NOTHING : fitText(cleanText(input.company), COMPANY, '#cbd5e1');
  const panel = logoHref === null ? monogram(name.text) : logoImage(logoHref);
  const windows = [panel, name, company]
    .map((part) => coveringWindow(part.box, CARD))
    .filter((window): window is Box => window !== null);
  return { svg: cardSvg(BACKGROUND + panel.svg + name.svg + company.svg), windows };
}

/** What drawing a card gave: the PNG, and whether the logo is on it. */
export type CardDrawing = { ok: true; png: Buffer; logo: 'drawn' | 'none' | 'unusable' } | { ok: false };

/** The card with the logo, or without it when the logo cannot be drawn; `ok: false` when no card can be drawn. */
export function drawCard(input: ShareCardInput): CardDrawing {
  if (input.logo !== null) {
    try {
      return { ok: true, png: renderShareCard(input), logo: 'drawn' };
    } catch {
      // The default card follows.
    }
  }
  try {
    return {
      ok: true,
      png: renderShareCard({ ...input, logo: null }),
      logo: input.logo === null ? 'none' : 'unusable',
    };
  } catch {
    return { ok: false };
  }
}

function logoImage(href: string): Outline {
  return {
    svg: `<image x="${LOGO_BOX.x}" y="${LOGO_BOX.y}" width="${LOGO_BOX.width}" height="${LOGO_BOX.height}" preserveAspectRatio="xMidYMid meet" href="${href}"/>`,
    box: LOGO_BOX,
  };
}

/** Without a logo the panel shows the name's initials, so the default card is not an empty box. */
function monogram(name: string): Outline {
  const initials = graphemes(name.replace(/…$/, ''))
    .filter((g, i, all) => /\p{L}|\p{N}/u.test(g) && (i === 0 || /\s/u.test(all[i - 1])))
    .slice(0, 2)
    .join('')
    .toUpperCase();
  if (initials === '') {
    return NOTHING;
  }
  const centre = PANEL.size / 2;
  return outliner.outline(
    `<text x="${PANEL.x + centre}" y="${PANEL.y + centre + 26}" font-family="${SHARE_CARD_FONT_FAMILY}" font-size="72" font-weight="700" text-anchor="middle" fill="#1e3a8a">${escapeXml(initials)}</text>`,
  );
}

interface FittedText extends Outline {
  text: string;
}

interface TextStyle {
  baseline: number;
  maxSize: number;
  minSize: number;
  weight: number;
}

/** Shrinks the text down to minSize to fit the card, then cuts it at a grapheme and adds an ellipsis. */
function fitText(text: string, style: TextStyle, fill: string): FittedText {
  const parts = graphemes(text).slice(0, MAX_GRAPHEMES);
  const full = parts.join('');
  if (full === '') {
    return { text: '', svg: '', box: null };
  }
  const fitted = (candidate: string, size: number): FittedText => {
    const element = `<text x="${MARGIN}" y="${style.baseline}" font-family="${SHARE_CARD_FONT_FAMILY}" font-size="${size}" font-weight="${style.weight}" fill="${fill}">${escapeXml(candidate)}</text>`;
    return { text: candidate, ...outliner.outline(element) };
  };
  const fits = (candidate: FittedText) => (candidate.box?.width ?? 0) <= TEXT_WIDTH;
  const atMax = fitted(full, style.maxSize);
  if (fits(atMax)) {
    return atMax;
  }
  // Advance widths scale linearly with the font size.
  const size = Math.floor((style.maxSize * TEXT_WIDTH) / (atMax.box?.width ?? TEXT_WIDTH));
  const shrunk = size >= style.minSize ? fitted(full, size) : null;
  if (shrunk && fits(shrunk)) {
    return shrunk;
  }
  const cut = (count: number) => fitted(`${parts.slice(0, count).join('').trimEnd()}…`, style.minSize);
  let best: FittedText | null = null;
  let shortest = 0;
  let tooLong = parts.length;
  while (tooLong - shortest > 1) {
    const middle = Math.floor((shortest + tooLong) / 2);
    const candidate = cut(middle);
    if (fits(candidate)) {
      best = candidate;
      shortest = middle;
    } else {
      tooLong = middle;
    }
  }
  return best ?? cut(0);
}

/** One line of text that XML accepts: NFC, no control characters or lone surrogates, whitespace collapsed. */
function cleanText(text: string): string {
  return text
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cs}\uFFFE\uFFFF]/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

/** The logo as a data: URI resvg can draw, after checking its real type, its size and that it decodes. */
function logoDataUri(bytes: Buffer): string {
  const type = sniffImageType(bytes);
  if (type === 'image/webp') {
    throw new UnusableLogoError('WebP logos cannot be rendered');
  }
  const problem = logoImageProblem(bytes);
  if (type === null || problem !== null) {
    throw new UnusableLogoError(problem ?? 'logo is not a PNG, JPEG or GIF image');
  }
  // resvg picks the decoder from the data: URI's type, so it must be the sniffed one.
  const href = `data:${type};base64,${bytes.toString('base64')}`;
  assertDecodes(href);
  return href;
}

/** resvg draws an image it cannot decode as nothing, silently; a logo that leaves no pixel is refused. */
function assertDecodes(href: string): void {
  const probe = `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"><image width="32" height="32" preserveAspectRatio="none" href="${href}"/></svg>`;
  const pixels = new Resvg(probe, { font: { loadSystemFonts: false }, logLevel: 'off' }).render().pixels;
  for (let alpha = 3; alpha < pixels.length; alpha += 4) {
    if (pixels[alpha] !== 0) {
      return;
    }
  }
  throw new UnusableLogoError('logo could not be decoded');
}
