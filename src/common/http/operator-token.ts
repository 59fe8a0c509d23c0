import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Whether a request carries an operator token (METRICS_TOKEN, ADMIN_TOKEN): `Authorization: Bearer
 * <token>` for scrapers and scripts, or Basic with the token as password (any user name) so that a
 * browser can open the queue board. Compared in constant time.
 */
export function carriesToken(authorization: string | undefined, token: string): boolean {
  const [scheme, credentials] = (authorization ?? '').split(' ', 2);
  let presented: string | undefined;
  if (/^bearer$/i.test(scheme)) presented = credentials;
  if (/^basic$/i.test(scheme) && credentials) {
    const decoded = Buffer.from(credentials, 'base64').toString('utf8');
    presented = decoded.slice(decoded.indexOf(':') + 1);
  }
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}

function refuse(res: Response, realm: string): void {
  res
    .status(401)
    .setHeader('WWW-Authenticate', `Basic realm="${realm}", charset="UTF-8"`)
    .setHeader('Cache-Control', 'no-store')
    .json({ detail: 'Operator token required or invalid.' });
}

/** Express middleware: only requests carrying `token` pass; others get 401. */
export function requireOperatorToken(token: string, realm: string): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) =>
    carriesToken(req.headers.authorization, token) ? next() : refuse(res, realm);
}
