import { Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { containsPattern } from '../../common/database/sql-conditions';
import { ExportsRepository } from './exports.repository';

/**
 * Erasure of a person from exports (docs/api.md §18.2): an export whose filters name them (an
 * `email=` filter), or whose completed file does, is deleted (its GET and download answer 404 from
 * then on, as after its expiry). Files are stored gzip-compressed, so each is read through once,
 * decompressed, and searched as lower-cased text.
 */
@Injectable()
export class ExportErasure {
  constructor(private readonly exports: ExportsRepository) {}

  /** Deletes the exports whose filters or file contain any of `needles` (case-insensitive); returns how many. */
  async deleteContaining(organizationId: string, needles: string[]): Promise<number> {
    const wanted = [...new Set(needles.map((needle) => needle.toLowerCase()).filter(Boolean))];
    if (wanted.length === 0) return 0;
    const naming = await this.exports.filteredBy(organizationId, wanted.map(containsPattern));
    for (const file of await this.exports.withFiles(organizationId))
      if (await this.contains(organizationId, file.id, file.run_id, wanted)) naming.push(file.id);
    return this.exports.deleteExports(organizationId, [...new Set(naming)]);
  }

  /** Whether the file contains a needle; one split across decompressed pieces is still found. */
  private async contains(organizationId: string, id: string, runId: string, needles: string[]): Promise<boolean> {
    const overlap = Math.max(...needles.map((needle) => needle.length)) - 1;
    const source = Readable.from(this.exports.chunks(organizationId, id, runId));
    const text = source.pipe(createGunzip());
    const decoder = new StringDecoder('utf8');
    let tail = '';
    try {
      for await (const piece of text as AsyncIterable<Buffer>) {
        const window = tail + decoder.write(piece).toLowerCase();
        if (needles.some((needle) => window.includes(needle))) return true;
        tail = window.slice(Math.max(0, window.length - overlap));
      }
      return false;
    } finally {
      source.destroy();
    }
  }
}
