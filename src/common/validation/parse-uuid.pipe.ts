import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { issueForRule } from './pydantic-mapping';
import { canonicalUuid } from './uuid-format';
import { RequestValidationError } from '../errors/validation-issue';

/**
 * Marks a path parameter as a UUID: `@Param('campaign_id', ParseUuidPipe)`. The validation
 * interceptor checks it together with the other inputs; the pipe repeats the check so it also holds
 * where that interceptor does not run, and hands the handler the canonical form.
 */
@Injectable()
export class ParseUuidPipe implements PipeTransform<string, string> {
  transform(value: string, metadata: ArgumentMetadata): string {
    const canonical = canonicalUuid(value);
    if (canonical === null) {
      throw new RequestValidationError([issueForRule('isUuid', [], ['path', metadata.data ?? 'id'], value, '')]);
    }
    return canonical;
  }
}
