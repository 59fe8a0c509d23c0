// What the load generator uses of autocannon's API (the package ships no types of its own).
declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      body?: string;
      setupRequest?: (request: Request) => Request;
    }
    interface Options {
      url: string | string[];
      connections: number;
      duration?: number;
      /** Seconds. */
      timeout: number;
      headers: Record<string, string>;
      requests: Request[];
    }
    interface Result {
      /** Seconds. */
      duration: number;
      requests: { total: number };
      non2xx: number;
      errors: number;
      timeouts: number;
      statusCodeStats?: Record<string, { count: number }>;
    }
    interface Instance {
      on(
        event: 'response',
        listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void,
      ): this;
    }
  }
  function autocannon(
    options: autocannon.Options,
    callback: (error: Error | null, result: autocannon.Result) => void,
  ): autocannon.Instance;
  export = autocannon;
}
