import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FORM_DEPTH, MAX_FORM_FIELDS, MAX_QUERY_LIST } from '../../../server/models/request-limits.js';
import { postId, startDataServer } from '../support/data-server.js';
import type { RequestOptions } from '../support/http-client.js';
import type { TestServer } from '../support/test-server.js';

// Form bodies on store and update, and Laravel's method override (issue 14, item 6): what HTML
// forms and Rhino clients send next to JSON.

let server: TestServer;
let editor: string;
let welcomeId: number;

beforeAll(async () => {
  server = await startDataServer();
  editor = await server.login('editor@acme.test');
  welcomeId = await postId(server, 'Welcome to Acme');
});

afterAll(() => server.close());

const urlencoded = (fields: Record<string, string>): RequestOptions => ({
  rawBody: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});

/** A multipart body as a browser's FormData encodes it. */
async function multipart(fields: Record<string, string | Blob>, headers: Record<string, string> = {}): Promise<RequestOptions> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value instanceof Blob) form.append(name, value, 'notes.txt');
    else form.append(name, value);
  }
  const encoded = new Request('http://localhost/', { method: 'POST', body: form });
  return { rawBody: await encoded.text(), headers: { 'content-type': encoded.headers.get('content-type')!, ...headers } };
}

const send = (method: string, path: string, options: RequestOptions) => server.api.request(method, `/api/acme${path}`, { token: editor, ...options });
const titled = (title: string) => server.sql<{ id: number; title: string; body: string | null; status: string }>('SELECT id, title, body, status FROM posts WHERE title = $1', [title]);

describe('form bodies', () => {
  it('stores a record from URL-encoded fields, typed by the model', async () => {
    const post = await send('POST', '/posts', urlencoded({ title: 'From a form', status: 'draft', body: '' }));
    expect(post).toMatchObject({ status: 201, body: { title: 'From a form', status: 'draft', body: null } });
    const comment = await send('POST', '/comments', urlencoded({ post_id: String(post.body.id), body: 'Typed key' }));
    expect(comment).toMatchObject({ status: 201, body: { post_id: post.body.id, body: 'Typed key' } });
  });

  it('stores and updates from multipart fields', async () => {
    const created = await send('POST', '/posts', await multipart({ title: 'Multipart post', body: 'Line one' }));
    expect(created).toMatchObject({ status: 201, body: { title: 'Multipart post', body: 'Line one' } });
    const updated = await send('PATCH', `/posts/${created.body.id}`, await multipart({ status: 'published' }));
    expect(updated).toMatchObject({ status: 200, body: { id: created.body.id, title: 'Multipart post', status: 'published' } });
  });

  it('ignores a multipart part without a name, as a URL-encoded form ignores an empty one', async () => {
    // Its parser names such a part undefined; reading that name threw out of the body's stream,
    // past every handler, for any caller's POST, a guest's too.
    const part = (disposition: string, value: string) => `--b\r\nContent-Disposition: ${disposition}\r\n\r\n${value}\r\n`;
    const rawBody = `${part('form-data; name="title"', 'Beside nameless parts')}${part('form-data; name=""', 'x')}${part('form-data', 'y')}--b--\r\n`;
    const created = await send('POST', '/posts', { rawBody, headers: { 'content-type': 'multipart/form-data; boundary=b' } });
    expect(created).toMatchObject({ status: 201, body: { title: 'Beside nameless parts' } });
    const file = await send('POST', '/posts', { rawBody: `${part('form-data; filename="notes.txt"', 'hello')}--b--\r\n`, headers: { 'content-type': 'multipart/form-data; boundary=b' } });
    expect(file).toMatchObject({ status: 415, body: { message: 'File uploads are not supported yet: a part without a name is a file.' } });
  });

  it('refuses a multipart field in a charset it cannot read with 415, and changes nothing', async () => {
    // Its parser gives such a value as undefined: the field was dropped, and the write went on without it.
    const rawBody = `--b\r\nContent-Disposition: form-data; name="title"\r\nContent-Type: text/plain; charset=x-unknown\r\n\r\nRenamed\r\n--b--\r\n`;
    const response = await send('PATCH', `/posts/${welcomeId}`, { rawBody, headers: { 'content-type': 'multipart/form-data; boundary=b' } });
    expect(response).toMatchObject({ status: 415, body: { message: 'The form field title is in a charset the server cannot read.' } });
    expect(await titled('Renamed')).toEqual([]);
  });

  it('refuses a multipart body in a Content-Encoding with 415, as JSON in one its parser does not know', async () => {
    // Its parser read the bytes as they came, whatever the header said they were.
    const rawBody = '--b\r\nContent-Disposition: form-data; name="title"\r\n\r\nEncoded\r\n--b--\r\n';
    for (const encoding of ['gzip', 'x-unknown']) {
      const headers = { 'content-type': 'multipart/form-data; boundary=b', 'content-encoding': encoding };
      expect(await send('POST', '/posts', { rawBody, headers })).toMatchObject({ status: 415, body: { message: 'The request body encoding is not supported.' } });
    }
    expect(await titled('Encoded')).toEqual([]);
  });

  it('refuses a multipart field named __proto__ with 400, as a JSON body holding the key', async () => {
    // Its fields reached the handlers with it as their own key, which an assignment reads as their prototype.
    for (const name of ['__proto__', '__proto__[]']) {
      const rawBody = `--b\r\nContent-Disposition: form-data; name="${name}"\r\n\r\nx\r\n--b\r\nContent-Disposition: form-data; name="title"\r\n\r\nProto\r\n--b--\r\n`;
      const response = await send('POST', '/posts', { rawBody, headers: { 'content-type': 'multipart/form-data; boundary=b' } });
      expect(response).toMatchObject({ status: 400, body: { message: 'The request body must not hold a __proto__ key.' } });
    }
    expect(await titled('Proto')).toEqual([]);
  });

  it('validates and gates form fields like JSON ones', async () => {
    expect(await send('POST', '/posts', urlencoded({ title: '' }))).toMatchObject({
      status: 422,
      body: { errors: { title: ['The title field is required.'] } },
    });
    expect(await send('POST', '/comments', urlencoded({ post_id: 'abc', body: 'x' }))).toMatchObject({ status: 422 });
    expect(await send('POST', '/posts', urlencoded({ title: 'Noted', internal_notes: 'x' }))).toMatchObject({
      status: 403,
      body: { message: 'You are not allowed to set the following field(s): internal_notes' },
    });
    expect(await titled('Noted')).toEqual([]);
  });

  it('refuses a file part with 415 naming its field, and stores nothing', async () => {
    const response = await send('POST', '/posts', await multipart({ title: 'With a file', attachment: new Blob(['hello']) }));
    expect(response).toMatchObject({ status: 415, body: { message: 'File uploads are not supported yet: the field attachment is a file.' } });
    expect(await titled('With a file')).toEqual([]);
  });

  it('keeps the body limit for forms and the 415 for other types', async () => {
    const huge = 'x'.repeat(150_000);
    expect(await send('POST', '/posts', urlencoded({ title: 'Huge', body: huge }))).toMatchObject({ status: 413, body: { message: 'The request body is too large.' } });
    expect(await send('POST', '/posts', await multipart({ title: 'Huge', body: huge }))).toMatchObject({ status: 413, body: { message: 'The request body is too large.' } });
    expect(await send('POST', '/posts', { rawBody: '<post/>', headers: { 'content-type': 'application/xml' } })).toMatchObject({
      status: 415,
      body: { message: 'Request bodies must be JSON, sent with Content-Type: application/json.' },
    });
    expect(await titled('Huge')).toEqual([]);
  });
});

describe('form limits', () => {
  const form = (rawBody: string): RequestOptions => ({ rawBody, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  const fields = (count: number) => Array.from({ length: count }, (_, i) => `f${i}=`).join('&');
  const nested = (levels: number) => `title${'[a]'.repeat(levels)}=x`;
  const listed = (count: number) => Array.from({ length: count }, () => 'title[]=x').join('&');
  // Multipart parts with the shortest boundary, so that more than the field limit fit in the body limit.
  const parts = (names: string[]): RequestOptions => ({
    rawBody: `${names.map((name) => `--b\r\nContent-Disposition: form-data; name="${name}"\r\n\r\nx\r\n`).join('')}--b--\r\n`,
    headers: { 'content-type': 'multipart/form-data; boundary=b' },
  });
  const partNames = (count: number, name?: string) => Array.from({ length: count }, (_, i) => name ?? `f${i}`);
  const tooMany = `Too many form fields: at most ${MAX_FORM_FIELDS}.`;
  const tooLong = `Form lists hold at most ${MAX_QUERY_LIST} items.`;

  it.each([
    ['too many fields', form(`${fields(MAX_FORM_FIELDS)}&title=Dropped`), tooMany],
    ['nesting too deep', form(nested(MAX_FORM_DEPTH + 1)), `Form fields nest at most ${MAX_FORM_DEPTH} levels.`],
    ['nesting too deep with dots', form(`title${'.a'.repeat(MAX_FORM_DEPTH + 1)}=x`), `Form fields nest at most ${MAX_FORM_DEPTH} levels.`],
    ['an index past the list limit', form(`title[${MAX_QUERY_LIST}]=x`), tooLong],
    ['a list past the limit', form(listed(MAX_QUERY_LIST + 1)), tooLong],
    ['too many multipart fields', parts([...partNames(MAX_FORM_FIELDS), 'title']), tooMany],
    ['a multipart list past the limit', parts(partNames(MAX_QUERY_LIST + 1, 'title[]')), tooLong],
    ['a multipart name repeated past the list limit', parts(partNames(MAX_QUERY_LIST + 1, 'title')), tooLong],
  ])('refuses %s with a 400 naming the limit, and stores nothing', async (_case, options, message) => {
    expect(await send('POST', '/posts', options)).toMatchObject({ status: 400, body: { message } });
    expect(await titled('Dropped')).toEqual([]);
  });

  it('reads forms at the limits as sent', async () => {
    for (const options of [form(`${fields(MAX_FORM_FIELDS - 1)}&title=Kept`), parts([...partNames(MAX_FORM_FIELDS - 1), 'title'])]) {
      const many = await send('POST', '/posts', options);
      expect(many.status).toBe(403);
      expect(many.body.message).toMatch(new RegExp(`, f${MAX_FORM_FIELDS - 2}$`));
    }
    const atLimits = [nested(MAX_FORM_DEPTH), `title[${MAX_QUERY_LIST - 1}]=x`, listed(MAX_QUERY_LIST)].map(form);
    for (const options of [...atLimits, parts(partNames(MAX_QUERY_LIST, 'title[]')), parts(partNames(MAX_QUERY_LIST, 'title'))]) {
      expect(await send('POST', '/posts', options)).toMatchObject({ status: 422, body: { errors: { title: ['The title field must be a string.'] } } });
    }
  });

  it('ignores empty parts of a URL-encoded form, however many', async () => {
    const stray = '&'.repeat(MAX_QUERY_LIST + 1);
    const response = await send('POST', '/posts', form(`${stray}title=Between+empty+parts${stray}status=draft${stray}`));
    expect(response).toMatchObject({ status: 201, body: { title: 'Between empty parts', status: 'draft' } });
  });
});

describe('method override', () => {
  it('updates with POST /{model}/{id} and X-HTTP-Method-Override: PUT or PATCH', async () => {
    for (const method of ['PUT', 'patch']) {
      const response = await send('POST', `/posts/${welcomeId}`, { body: { body: `Overridden by ${method}` }, headers: { 'x-http-method-override': method } });
      expect(response).toMatchObject({ status: 200, body: { id: welcomeId, body: `Overridden by ${method}` } });
    }
  });

  it('takes the method from a _method field, which the record never sees', async () => {
    const created = await send('POST', '/posts', urlencoded({ title: 'Spoofed' }));
    const path = `/posts/${created.body.id}`;
    expect(await send('POST', path, urlencoded({ _method: 'PATCH', status: 'published' }))).toMatchObject({ status: 200, body: { status: 'published' } });
    expect(await send('POST', path, await multipart({ _method: 'PUT', body: 'From multipart' }))).toMatchObject({ status: 200, body: { body: 'From multipart' } });
    expect(await send('POST', path, { body: { _method: 'DELETE' } })).toMatchObject({ status: 204 });
    expect(await send('GET', path, {})).toMatchObject({ status: 404 });
  });

  it.each([
    ['a GET', { headers: { 'x-http-method-override': 'GET' } }],
    ['an unknown method', urlencoded({ _method: 'PURGE' })],
    ['a non-string field', { body: { _method: ['DELETE'] } }],
  ])('refuses %s with 400 and changes nothing', async (_case, options) => {
    const response = await send('POST', `/posts/${welcomeId}`, options as RequestOptions);
    expect(response).toMatchObject({ status: 400, body: { message: 'The method override must be one of: PUT, PATCH, DELETE.' } });
    expect(await send('GET', `/posts/${welcomeId}`, {})).toMatchObject({ status: 200 });
  });

  it('goes through the same gates as the method it stands for', async () => {
    const viewer = await server.login('viewer@acme.test');
    const response = await server.api.post(`/api/acme/posts/${welcomeId}`, { token: viewer, body: { title: 'Taken' }, headers: { 'x-http-method-override': 'PATCH' } });
    expect(response).toMatchObject({ status: 403, body: { message: 'This action is unauthorized.' } });
  });
});

describe('the input of a HEAD and of a DELETE', () => {
  const nul = { message: 'The request must not contain NUL characters (\\u0000).' };

  it('answers a HEAD as its GET, headers and all, without a body', async () => {
    const path = `/posts/${welcomeId}`;
    const [got, head] = await Promise.all([send('GET', path, {}), send('HEAD', path, {})]);
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-type']).toBe(got.headers['content-type']);
    expect(head.headers['content-length']).toBe(got.headers['content-length']);
    expect((await send('HEAD', `${path}?include=%00`, {})).status).toBe(400);
  });

  it('checks a DELETE’s body as a write’s, and deletes only once it passes', async () => {
    const created = await send('POST', '/posts', { body: { title: 'Deleted with a body' } });
    const path = `/posts/${created.body.id}`;
    const sized = (rawBody: string, type: string) => ({ rawBody, headers: { 'content-type': type, 'content-length': String(Buffer.byteLength(rawBody)) } });
    expect(await send('DELETE', path, sized('{"note":"a\\u0000b"}', 'application/json'))).toMatchObject({ status: 400, body: nul });
    expect(await send('DELETE', path, sized('note', 'text/plain'))).toMatchObject({ status: 415 });
    expect(await send('DELETE', path, sized('{"note":', 'application/json'))).toMatchObject({ status: 400, body: { message: 'Malformed JSON in the request body.' } });
    expect(await send('GET', path, {})).toMatchObject({ status: 200 });
    expect(await send('DELETE', path, sized('{"note":"ignored"}', 'application/json'))).toMatchObject({ status: 204 });
    expect(await send('GET', path, {})).toMatchObject({ status: 404 });
  });
});
