import { ValidateBy } from 'class-validator';

/** A loose address check (local@host.tld): the pipeline captures what prospects typed. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@.]+$/;

/**
 * An email address, surrounding spaces allowed (a 422 `value_error` otherwise). Only strings are
 * checked, and the empty string passes: presence and type are the field's other rules.
 */
export const IsEmailAddress = () =>
  ValidateBy({
    name: 'isEmailAddress',
    validator: {
      validate: (value) => typeof value !== 'string' || value === '' || EMAIL.test(value.trim()),
      defaultMessage: () => 'value is not a valid email address',
    },
  });
