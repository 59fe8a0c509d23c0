import { IsInt, Max, Min, ValidateBy, ValidateIf } from 'class-validator';
import { ApiInteger } from '../../../common/http/api-integer';
import { MAX_RETENTION_DAYS, MIN_RETENTION_DAYS } from '../rules/retention';

/** Present (null allowed: it keeps the kind), then a whole number of days in bounds. */
const RetentionDays = (what: string): PropertyDecorator => {
  const decorators = [
    ApiInteger({
      minimum: MIN_RETENTION_DAYS,
      maximum: MAX_RETENTION_DAYS,
      nullable: true,
      description: `Days ${what} are kept; null keeps them.`,
    }),
    ValidateIf((_, value) => value !== null),
    ValidateBy({ name: 'isDefined', validator: { validate: (value) => value !== undefined } }),
    IsInt(),
    Min(MIN_RETENTION_DAYS),
    Max(MAX_RETENTION_DAYS),
  ];
  return (target, key) => decorators.forEach((decorate) => decorate(target, key));
};

/** PUT /api/v1/settings/retention (docs/api.md §6.10): the whole setting, replaced. */
export class RetentionRequest {
  @RetentionDays('transcripts (by their session’s start)')
  transcriptDays: number | null;

  @RetentionDays('sessions, with their transcripts and link session references (by start)')
  sessionDays: number | null;

  @RetentionDays('link events (by occurredAt)')
  eventDays: number | null;
}
