import { Foundation1763800000000 } from './1763800000000-Foundation';

/** Every migration, oldest first. */
export const MIGRATIONS = [Foundation1763800000000];
