import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
import type { Box } from './card-canvas';

/** Text as the outlines resvg draws for it, and the box their ink covers (null when it draws nothing). */
export interface Outline {
  svg: string;
  box: Box | null;
}

// A job's cards repeat companies and initials; names rarely repeat, so the least recently used go first.
const KEPT_OUTLINES = 256;
const KEPT_OUTLINE_CHARS = 32_000;

/**
 * Text elements laid out once each. Laying text out is what costs in drawing it: resvg-js 2.6
 * reads the whole font file again for each character it looks up (about twenty reads of 700 KB for
 * a name). One layout gives both the ink box (to fit the text and to know where it draws) and the
 * outlines (resvg's own SVG of it), so a card drawn from the outlines lays out no text again.
 */
export class TextOutliner {
  private readonly kept = new Map<string, Outline>();

  /** `image`: the size of the SVG the elements are placed in; `options` carry the fonts. */
  constructor(
    private readonly image: { width: number; height: number },
    private readonly options: ResvgRenderOptions,
  ) {}

  outline(element: string): Outline {
    const known = this.kept.get(element);
    if (known) {
      this.kept.delete(element);
      this.kept.set(element, known);
      return known;
    }
    const laidOut = new Resvg(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${this.image.width}" height="${this.image.height}">${element}</svg>`,
      this.options,
    );
    const bbox = laidOut.getBBox();
    const outline = {
      svg: bbox ? contentOf(laidOut.toString()) : '',
      box: bbox ? { x: bbox.x, y: bbox.y, width: bbox.width, height: bbox.height } : null,
    };
    if (element.length + outline.svg.length <= KEPT_OUTLINE_CHARS) {
      if (this.kept.size >= KEPT_OUTLINES) this.kept.delete(this.kept.keys().next().value as string);
      this.kept.set(element, outline);
    }
    return outline;
  }
}

/** What an `<svg>` document holds, without its root element. */
function contentOf(svg: string): string {
  return svg.slice(svg.indexOf('>', svg.indexOf('<svg')) + 1, svg.lastIndexOf('</svg>'));
}
