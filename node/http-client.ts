import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { GatehouseError, UnauthenticatedError } from './errors.js';

export interface JsonResponse {
  status: number;
  etag: string | undefined;
  body: unknown;
}

export interface JsonRequest {
  method: 'GET' | 'POST';
  path: string;
  token?: string;
  body?: unknown;
  ifNoneMatch?: string;
}

/**
 * JSON over one keep-alive agent per client: every call to Gatehouse reuses open connections
 * instead of paying for a TCP (and TLS) handshake each time.
 */
export class HttpClient {
  private readonly base: URL;
  private readonly agent: HttpAgent;

  constructor(baseURL: string) {
    this.base = new URL(baseURL.endsWith('/') ? baseURL : `${baseURL}/`);
    this.agent = this.base.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  }

  send({ method, path, token, body, ifNoneMatch }: JsonRequest): Promise<JsonResponse> {
    const url = new URL(path.replace(/^\//, ''), this.base);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (payload !== undefined) headers['content-type'] = 'application/json';
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (ifNoneMatch !== undefined) headers['if-none-match'] = ifNoneMatch;
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = request(url, { method, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: res.statusCode ?? 0, etag: res.headers.etag, body: text === '' ? null : JSON.parse(text) });
          } catch {
            reject(new GatehouseError(res.statusCode ?? 0, `Gatehouse answered ${res.statusCode} with a body that is not JSON.`));
          }
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** The body of a 2xx (or 304) answer; a 401 is an `UnauthenticatedError`, anything else a `GatehouseError`. */
  async json(request: JsonRequest): Promise<JsonResponse> {
    const response = await this.send(request);
    if (response.status === 401) throw new UnauthenticatedError(messageOf(response.body));
    if (response.status >= 400) throw new GatehouseError(response.status, messageOf(response.body));
    return response;
  }

  close(): void {
    this.agent.destroy();
  }
}

function messageOf(body: unknown): string {
  return typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string' ? body.message : 'Gatehouse refused the request.';
}
