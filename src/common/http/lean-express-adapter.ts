import type { NestApplicationOptions } from '@nestjs/common';
import { isPlainObject } from '@nestjs/common/utils/shared.utils';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express, Response } from 'express';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';

/**
 * Nest's Express adapter with two costs of Express's request handling taken out; behaviour is unchanged.
 *
 * Requests and responses are born with Express's prototypes. Express re-parents every request and
 * response (`Object.setPrototypeOf(req, app.request)`). That gives each object a map V8 has not
 * seen at its allocation site, so the property caches of Node's HTTP code miss on every request
 * and extra objects survive young-generation collections. Node's server can construct them as
 * Express objects from the start, and Express's re-parenting then changes nothing. This cut the
 * API's CPU per page of 50 sessions by about a tenth (bench/RESULTS.md).
 *
 * A JSON body is sent with one `res.end(string)`. Express's res.json → res.send copies every body
 * over 1 KB into a new Buffer to measure it, then writes head and body apart; Node measures and
 * writes the string itself. HEAD requests, responses carrying an ETag (Express answers their
 * conditional requests), empty bodies, strings and streams still go through Express.
 */
export class LeanExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    // Options that need Nest's own server setup keep it (the service sets none of them).
    if (options?.httpsOptions || options?.return503OnClosing || options?.forceCloseConnections)
      return super.initHttpServer(options);
    const app = this.getInstance<Express>();
    this.httpServer = createServer(
      {
        IncomingMessage: subclassWithPrototype(IncomingMessage, app.request),
        ServerResponse: subclassWithPrototype(ServerResponse, app.response),
      },
      app,
    );
  }

  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (!(isPlainObject(body) || Array.isArray(body)) || response.req.method === 'HEAD' || response.hasHeader('ETag')) {
      return super.reply(response, body, statusCode);
    }
    if (statusCode !== undefined) response.status(statusCode);
    if (!response.hasHeader('Content-Type')) response.setHeader('Content-Type', 'application/json; charset=utf-8');
    return response.end(JSON.stringify(body));
  }
}

/**
 * A constructor Node's server can call with `new` whose instances have `prototype` (which inherits
 * from `base.prototype`). A plain function calling `base` on `this`, not Reflect.construct: V8
 * caches the instance map of a function's own `new`, while Reflect.construct with a foreign
 * new.target derives a fresh map on every call, which is the cost this avoids.
 */
function subclassWithPrototype<T extends typeof IncomingMessage | typeof ServerResponse>(
  base: T,
  prototype: object,
): T {
  function Constructor(this: object, ...args: unknown[]): void {
    (base as unknown as (...a: unknown[]) => void).apply(this, args);
  }
  Constructor.prototype = prototype;
  return Constructor as unknown as T;
}
