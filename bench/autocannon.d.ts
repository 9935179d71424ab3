/** The slice of autocannon's programmatic API the load driver uses (the package ships no types). */
declare module 'autocannon' {
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    total: number;
  }
  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: Record<string, unknown>, context: Record<string, unknown>) => Record<string, unknown>;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    requests?: Request[];
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    non2xx: number;
    errors: number;
    timeouts: number;
    statusCodeStats: Record<string, { count: number }>;
  }
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}
