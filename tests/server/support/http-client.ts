import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export interface RequestOptions {
  body?: unknown;
  /** Sent as is, for malformed or oversized bodies. */
  rawBody?: string;
  token?: string;
  /** The Host header, for domain route groups. */
  host?: string;
  headers?: Record<string, string>;
  /** Sends the path byte for byte: no URL parsing, so `%2e%2e` and malformed escapes reach the server. */
  rawPath?: boolean;
}

// JSON answers come in many shapes; tests read them field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface ApiResponse<Body = any> {
  status: number;
  headers: IncomingHttpHeaders;
  body: Body;
}

/**
 * A tiny HTTP client over node:http: unlike fetch it lets a test set the Host header, which is
 * how domain-based route groups are reached.
 */
export function send(baseUrl: string, method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
  const url = new URL(path, baseUrl);
  const payload = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const headers: Record<string, string> = { ...options.headers };
  if (payload !== undefined) headers['content-type'] ??= 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.host) headers.host = options.host;
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, ...(options.rawPath ? { path } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const json = (res.headers['content-type'] ?? '').includes('application/json');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: json && text ? JSON.parse(text) : text });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Requests against one server, with the verbs as methods. */
export class Api {
  constructor(readonly baseUrl: string) {}

  get(path: string, options?: RequestOptions) {
    return send(this.baseUrl, 'GET', path, options);
  }

  post(path: string, options?: RequestOptions) {
    return send(this.baseUrl, 'POST', path, options);
  }

  delete(path: string, options?: RequestOptions) {
    return send(this.baseUrl, 'DELETE', path, options);
  }

  request(method: string, path: string, options?: RequestOptions) {
    return send(this.baseUrl, method, path, options);
  }
}
