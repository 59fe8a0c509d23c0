import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
import { RgbPngEncoder, rgbScanlineBytes } from './png-encoder';

/** A rectangle in image pixels. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Opaque images that differ from one fixed background only inside a few windows (share cards: the
 * text and the panel). resvg allocates, clears, rasterises and encodes every pixel of each image it
 * draws, which is most of a card's cost; here the background is drawn once, and each image draws only
 * its windows, all from one parse of its SVG cropped to each window in turn, and only the rows of
 * its windows are deflated again (RgbPngEncoder). Within a window resvg draws the whole SVG, so every pixel is the one a drawing of the whole
 * image gives (but for edges anti-aliased one step apart: offset coordinates round differently), as
 * long as the windows cover everything that is not background.
 */
export class CardCanvas {
  private readonly rowBytes: number;
  /** PNG scanlines (filter type 0, RGB) of the background, and the image being drawn. */
  private readonly background: Buffer;
  private readonly scanlines: Buffer;
  private readonly encoder: RgbPngEncoder;

  constructor(
    readonly width: number,
    readonly height: number,
    backgroundSvg: string,
    private readonly options: ResvgRenderOptions,
  ) {
    this.rowBytes = rgbScanlineBytes(width);
    this.background = Buffer.alloc(this.rowBytes * height);
    this.scanlines = Buffer.alloc(this.rowBytes * height);
    this.paste(new Resvg(backgroundSvg, options).render().pixels, { x: 0, y: 0, width, height }, this.background);
    this.encoder = new RgbPngEncoder(width, height, this.background);
  }

  /** The PNG of `svg` (the canvas's size, opaque wherever it differs from the background), drawn only in `windows` (coveringWindow). */
  draw(svg: string, windows: Box[]): Buffer {
    this.background.copy(this.scanlines);
    if (windows.length > 0) {
      const resvg = new Resvg(svg, this.options);
      // resvg-js crops only to a BBox of its own; the card's background makes one.
      const crop = resvg.getBBox();
      if (crop === undefined) throw new Error('The card draws nothing.');
      for (const window of windows) {
        Object.assign(crop, window);
        resvg.cropByBBox(crop);
        this.paste(resvg.render().pixels, window, this.scanlines);
      }
    }
    return this.encoder.encode(
      this.scanlines,
      windows.map((window) => ({ top: window.y, bottom: window.y + window.height })),
    );
  }

  /** Copies the RGB of opaque RGBA pixels (premultiplied or not, the same) into scanlines at `window`. */
  private paste(rgba: Uint8Array, window: Box, into: Buffer): void {
    for (let row = 0; row < window.height; row++) {
      let from = row * window.width * 4;
      let to = (window.y + row) * this.rowBytes + 1 + window.x * 3;
      for (let column = 0; column < window.width; column++, from += 4, to += 3) {
        into[to] = rgba[from];
        into[to + 1] = rgba[from + 1];
        into[to + 2] = rgba[from + 2];
      }
    }
  }
}

/** The smallest window of whole pixels inside `image` covering every pixel the box touches; null when none. */
export function coveringWindow(box: Box | null, image: { width: number; height: number }): Box | null {
  if (box === null) return null;
  // One more pixel around the ink box: anti-aliasing may reach it.
  const left = Math.max(0, Math.floor(box.x) - 1);
  const top = Math.max(0, Math.floor(box.y) - 1);
  const right = Math.min(image.width, Math.ceil(box.x + box.width) + 1);
  const bottom = Math.min(image.height, Math.ceil(box.y + box.height) + 1);
  return right > left && bottom > top ? { x: left, y: top, width: right - left, height: bottom - top } : null;
}
