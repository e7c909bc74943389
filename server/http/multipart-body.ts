import busboy from 'busboy';
import bytes from 'bytes';
import type { Middleware } from 'koa';
import type { IncomingMessage } from 'node:http';
import { BadRequestError } from '../errors/bad-request-error.js';
import { PayloadTooLargeError } from '../errors/payload-too-large-error.js';
import { UnsupportedMediaTypeError } from '../errors/unsupported-media-type-error.js';
import { MAX_FORM_FIELDS, MAX_QUERY_LIST } from '../models/request-limits.js';
import { drainRequest } from './drain-request.js';
import { formListTooLong, formTooManyFields } from './form-limits.js';
import { PROTO_KEY, protoKeyRefused } from './proto-key.js';
import { requestAborted } from './request-aborted.js';
import type { GatehouseState } from './state.js';

type FormFields = Record<string, string | string[]>;

const malformed = () => new BadRequestError('Malformed multipart body.');

/**
 * Reads the parts as fields: a repeated name, or one ending in `[]`, collects a list. A URL-encoded
 * form's limits on fields and list items hold here too; names do not nest, so depth has nothing to bound.
 */
function readFields(request: IncomingMessage, maxBytes: number): Promise<FormFields> {
  return new Promise((resolve, reject) => {
    const fields = new Map<string, string | string[]>();
    let received = 0;
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      drainRequest(request);
      reject(error);
    };
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: request.headers, defParamCharset: 'utf8', limits: { fieldSize: maxBytes, fields: MAX_FORM_FIELDS } });
    } catch {
      throw malformed();
    }
    // Its parser hears nothing of a client that leaves mid-body, and would wait for the rest forever.
    const aborted = () => fail(requestAborted());
    if (request.destroyed) return aborted();
    request.once('close', () => {
      if (!request.complete) aborted();
    });
    request.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) fail(new PayloadTooLargeError());
    });
    // A part without a name (none, or `name=""`) comes named undefined, whatever the types say: no
    // field can hold it, so a value is dropped, as a URL-encoded form drops `=x`; a file is refused.
    parser.on('file', (name: string | undefined, stream) => {
      stream.resume();
      fail(new UnsupportedMediaTypeError(`File uploads are not supported yet: ${name === undefined ? 'a part without a name' : `the field ${name}`} is a file.`));
    });
    parser.on('fieldsLimit', () => fail(formTooManyFields()));
    parser.on('field', (rawName: string | undefined, value: string | undefined, { valueTruncated }) => {
      if (valueTruncated) return fail(new PayloadTooLargeError());
      if (rawName === undefined) return;
      // A value in a charset its parser cannot decode comes as undefined: a field present without a value.
      if (value === undefined) return fail(new UnsupportedMediaTypeError(`The form field ${rawName} is in a charset the server cannot read.`));
      const listed = rawName.endsWith('[]');
      const name = listed ? rawName.slice(0, -2) : rawName;
      if (name === PROTO_KEY) return fail(protoKeyRefused());
      const previous = fields.get(name);
      if (previous === undefined) fields.set(name, listed ? [value] : value);
      else if (!Array.isArray(previous)) fields.set(name, [previous, value]);
      else if (previous.length === MAX_QUERY_LIST) fail(formListTooLong());
      else previous.push(value);
    });
    const done = () => {
      if (settled) return;
      settled = true;
      resolve(Object.fromEntries(fields));
    };
    // An empty body has no parts, as any other type's has no fields, though its parser wants at least the closing delimiter.
    parser.on('error', () => (received === 0 ? done() : fail(malformed())));
    parser.on('close', done);
    request.pipe(parser);
  });
}

/**
 * `multipart/form-data` bodies as plain fields, within the JSON body limit (413 above it), sent
 * without a Content-Encoding (415). A file part is a 415 naming its field until models have file attributes.
 */
export function multipartBody(limit: string): Middleware<GatehouseState> {
  const maxBytes = bytes.parse(limit) ?? 0;
  return async (ctx, next) => {
    if (ctx.is('multipart')) {
      // Its parser reads the bytes as they come: a compressed body would be malformed, one in an unknown encoding read as plain.
      if (!['', 'identity'].includes(ctx.get('Content-Encoding').toLowerCase())) throw new UnsupportedMediaTypeError();
      if ((ctx.request.length ?? 0) > maxBytes) throw new PayloadTooLargeError();
      ctx.request.body = await readFields(ctx.req, maxBytes);
    }
    await next();
  };
}
