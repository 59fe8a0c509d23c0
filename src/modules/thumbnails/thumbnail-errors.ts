/**
 * The thumbnailError a link shows after a render (docs/api.md §12.6): a CONTRACT code and one fixed
 * message per code. Why a logo was refused (its host, an address it resolved to, a port, an upstream
 * status or error text) never reaches the link: it could map the service's network for a caller.
 */
export const THUMBNAIL_ERROR_MESSAGES = {
  logo_fetch_failed: 'The prospect logo could not be fetched.',
  logo_invalid_image: 'The prospect logo is not a usable PNG, JPEG or GIF image.',
  render_failed: 'The share card could not be rendered.',
  render_timeout: 'The share card took too long to render.',
} as const;

export type ThumbnailErrorCode = keyof typeof THUMBNAIL_ERROR_MESSAGES;

export interface ThumbnailError {
  code: ThumbnailErrorCode;
  message: string;
}

export function thumbnailError(code: ThumbnailErrorCode): ThumbnailError {
  return { code, message: THUMBNAIL_ERROR_MESSAGES[code] };
}
