import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

// Node answers what its HTTP parser refuses before Koa sees a request (headers over the size
// limit, a malformed request line) with an empty body; callers get `{message}` as for every other
// error. The statuses are Node's own.
const ANSWERS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'The request headers are too large.'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'The request body is too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request took too long to arrive.'],
};

/** An early refusal's `{message}` and its headers: JSON, and the connection closed after it, since the rest of the request is never read. */
function closingAnswer(message: string): { body: string; headers: Record<string, string | number> } {
  const body = JSON.stringify({ message });
  return { body, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close' } };
}

/** An early refusal as the raw text of an HTTP answer, for a socket no response object writes to. */
export function closingAnswerText(status: number, message: string): string {
  const { body, headers } = closingAnswer(message);
  const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status]}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  return `${head.join('\r\n')}\r\n\r\n${body}`;
}

/** A server socket with the response it is writing, if any (Node's own handler reads the same field). */
type HttpSocket = Duplex & { _httpMessage?: ServerResponse | null };

/** The server's `clientError` listener. */
export function answerClientError(error: NodeJS.ErrnoException, socket: HttpSocket): void {
  const response = socket._httpMessage;
  // Once a response to an earlier request on the socket has begun, an answer would corrupt it: close, as Node does.
  if (socket.writable && !response?.headersSent) {
    const [status, message] = ANSWERS[error.code ?? ''] ?? [400, 'The request is malformed.'];
    const { body, headers } = closingAnswer(message);
    // A request the app is already handling (its body late or malformed) is answered through its
    // response, so that the app's own answer is dropped and its request log names this status; once
    // sent, the request is ended too, or the app would wait for the rest of its body forever.
    if (response) {
      response.writeHead(status, headers).end(body, () => response.req.destroy());
      return;
    }
    socket.end(closingAnswerText(status, message));
    return;
  }
  socket.destroy(error);
}

/**
 * The server's `checkExpectation` listener: an `Expect` header other than `100-continue`, which
 * Node would answer 417 with an empty body before Koa sees the request.
 */
export function answerUnmetExpectation(_request: IncomingMessage, response: ServerResponse): void {
  // A body the client sends anyway is never read: on a kept connection it would pass for the next request.
  const { body, headers } = closingAnswer('The only expectation the server meets is Expect: 100-continue.');
  response.writeHead(417, headers);
  response.end(body);
}
