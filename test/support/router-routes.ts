import type { INestApplication } from '@nestjs/common';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface Route {
  method: Method;
  /** As registered, e.g. /api/v1/custom-link-campaigns/:campaign_id */
  path: string;
}

interface RouterLayer {
  route?: { path: string; methods: Record<string, boolean> };
}

/**
 * Every route Express holds, Nest's and Swagger's alike, read from the router at runtime (so a new
 * route is seen without a list to update). Catch-all layers (`{/*splat}`: middleware that Nest
 * mounts for every path) are not resources.
 */
export function registeredRoutes(app: INestApplication): Route[] {
  const { router } = app.getHttpAdapter().getInstance() as { router: { stack: RouterLayer[] } };
  const routes: Route[] = [];
  for (const layer of router.stack) {
    if (!layer.route || layer.route.path.includes('*')) continue;
    for (const [method, enabled] of Object.entries(layer.route.methods)) {
      if (enabled) routes.push({ method: method as Method, path: layer.route.path });
    }
  }
  return routes;
}

export const describeRoute = (route: Route) => `${route.method.toUpperCase()} ${route.path}`;
