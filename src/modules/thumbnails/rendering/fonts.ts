import { dirname, join } from 'node:path';

// Share cards render with fonts the project installs from npm and hands to resvg explicitly: a
// slim container has no system fonts, and resvg reads TrueType/OpenType, not WOFF2.
const fontDir = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');

export const SHARE_CARD_FONT_FAMILY = 'DejaVu Sans';

/** Regular and bold DejaVu Sans: wide Latin, Greek and Cyrillic coverage; no CJK. */
export const SHARE_CARD_FONT_FILES: readonly string[] = [
  join(fontDir, 'DejaVuSans.ttf'),
  join(fontDir, 'DejaVuSans-Bold.ttf'),
];
