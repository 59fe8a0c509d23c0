import { Inject, Injectable } from '@nestjs/common';
import { NotFoundError } from '../../common/errors/domain-errors';
import { canonicalUuid } from '../../common/validation/uuid-format';
import { THUMBNAIL_STORE, type ThumbnailStore } from './thumbnail-store';

const PNG_FILE = /^([0-9a-f]{64})\.png$/;

/** Serves stored share cards by link and content hash. */
@Injectable()
export class ThumbnailsService {
  constructor(@Inject(THUMBNAIL_STORE) private readonly store: ThumbnailStore) {}

  async card(linkId: string, file: string): Promise<Buffer> {
    const hash = PNG_FILE.exec(file)?.[1];
    const id = canonicalUuid(linkId);
    const png = hash && id ? await this.store.get(id, hash) : null;
    if (!png) throw new NotFoundError('Not Found');
    return png;
  }
}
