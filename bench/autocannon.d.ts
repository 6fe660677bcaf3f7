/** The part of autocannon's API the benchmarks use. */
declare module 'autocannon' {
  interface Options {
    url: string;
    headers?: Record<string, string>;
    connections?: number;
    duration?: number;
    method?: string;
    body?: string;
    /** Per-request changes (e.g. a different header on every request). */
    requests?: Array<{ setupRequest?: (req: RequestData) => RequestData }>;
  }
  export interface RequestData {
    headers?: Record<string, string>;
    [k: string]: unknown;
  }
  interface Histogram {
    average: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
  }
  interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    non2xx: number;
    errors: number;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
