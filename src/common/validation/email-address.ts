import { ValidateBy } from 'class-validator';

/** A loose address check (local@host.tld): the pipeline captures what prospects typed. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@.]+$/;

/** A string that looks like an email address once trimmed (the empty string passes: it means none). */
export const IsEmailAddress = () =>
  ValidateBy({
    name: 'isEmailAddress',
    validator: {
      validate: (value) => typeof value !== 'string' || value === '' || EMAIL.test(value.trim()),
      defaultMessage: () => 'value is not a valid email address',
    },
  });
