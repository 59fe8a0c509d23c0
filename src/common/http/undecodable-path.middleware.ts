import type { NextFunction, Request, Response } from 'express';

/**
 * A path whose percent-encoding does not decode (`/l/%FF`, `/l/%E0%A4%A`, a lone `%`) names nothing
 * the service has: 404 `Not Found` (docs/api.md §7.5), answered before routing. Left to the router,
 * decoding the route's parameters fails and the request ends as a 400 with another body.
 */
export function undecodablePathMiddleware(req: Request, res: Response, next: NextFunction): void {
  if (req.path.includes('%') && !decodes(req.path)) {
    res.status(404).json({ detail: 'Not Found' });
    return;
  }
  next();
}

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}
