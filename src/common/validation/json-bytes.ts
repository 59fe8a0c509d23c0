import { isUtf8 } from 'node:buffer';
import { locateJsonError, type JsonErrorLocation } from './json-error-locator';

/**
 * Checks on a JSON body's bytes before JSON.parse sees them (docs/api.md §7.3, issue 17):
 * - JSON between systems is UTF-8 (RFC 8259 §8.1): another charset, or bytes that are not UTF-8,
 *   are refused rather than decoded with replacement characters;
 * - nesting is bounded, so neither the parser nor anything that walks the parsed value
 *   (class-transformer, class-validator, the 422 echo) can exhaust the stack.
 * Returns where and why the body is refused, as a json_invalid location, or null.
 */
export const MAX_JSON_DEPTH = 64;

export const INVALID_UTF8 = 'Invalid UTF-8 byte sequence';
export const NOT_UTF8_CHARSET = 'JSON bodies must be encoded in UTF-8';

export function inspectJsonBytes(bytes: Buffer, charset: string | null): JsonErrorLocation | null {
  if (charset !== null && !/^utf-?8$/i.test(charset)) return { position: 0, reason: NOT_UTF8_CHARSET };
  if (!isUtf8(bytes)) {
    const bad = firstInvalidUtf8(bytes);
    return { position: bytes.toString('utf8', 0, bad).length, reason: INVALID_UTF8 };
  }
  if (nestingExceeds(bytes, MAX_JSON_DEPTH)) return locateJsonError(bytes.toString('utf8'), MAX_JSON_DEPTH);
  return null;
}

/**
 * What the bytes of a body that passed inspectJsonBytes tell about its parsed value, so that request
 * validation can skip walking it: without a `\u` escape no string or key can hold U+0000 or an
 * unpaired surrogate (raw U+0000 is not valid JSON and UTF-8 cannot encode a surrogate), and a
 * reserved key is spelled out or escaped.
 */
export interface JsonTextFacts {
  mayHoldUnstorableText: boolean;
  mayHoldReservedKeys: boolean;
}

const ESCAPE = Buffer.from('\\u');
const CONSTRUCTOR = Buffer.from('constructor');
const PROTO = Buffer.from('__proto__');

export function jsonTextFacts(bytes: Buffer): JsonTextFacts {
  const escapes = bytes.includes(ESCAPE);
  return {
    mayHoldUnstorableText: escapes,
    mayHoldReservedKeys: escapes || bytes.includes(CONSTRUCTOR) || bytes.includes(PROTO),
  };
}

/**
 * Whether arrays and objects nest deeper than `limit` anywhere in `bytes`: one pass over the
 * bytes, skipping strings (every structural character is ASCII, so UTF-8 needs no decoding).
 * Exact for valid JSON; for invalid JSON the locator decides what to report.
 */
function nestingExceeds(bytes: Uint8Array, limit: number): boolean {
  if (bytes.length <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === 0x5c)
        i++; // a backslash escapes the next byte
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) {
      inString = true;
    } else if (byte === 0x5b || byte === 0x7b) {
      if (++depth > limit) return true;
    } else if (byte === 0x5d || byte === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** Offset of the first byte that does not start a well-formed UTF-8 sequence (RFC 3629 table 3-7). */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i];
    if (lead < 0x80) {
      i++;
      continue;
    }
    const trailing =
      lead >= 0xc2 && lead <= 0xdf ? 1 : lead >= 0xe0 && lead <= 0xef ? 2 : lead >= 0xf0 && lead <= 0xf4 ? 3 : 0;
    if (trailing === 0) return i;
    // The second byte's range excludes overlong forms, surrogates (ED A0..BF) and code points past U+10FFFF.
    const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k <= trailing; k++) {
      const byte = bytes[i + k];
      if (byte === undefined || byte < (k === 1 ? low : 0x80) || byte > (k === 1 ? high : 0xbf)) return i;
    }
    i += trailing + 1;
  }
  return bytes.length;
}
