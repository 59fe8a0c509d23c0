/**
 * Where the e2e run keeps its services. Global setup picks them (test-services.ts), creates a fresh
 * database per run and sets these variables for the workers and processes it forks.
 */
export const ADMIN_DATABASE_URL = process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/13';

export function databaseUrlFor(name: string, adminUrl = ADMIN_DATABASE_URL): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
