// HTTP APIs as tools (endpoints/http/): real documents in a temporary folder, a real local HTTP server, no fakes of our code.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ApiCatalog, apiToolSpec, type ApiCall } from '../../endpoints/http/api-catalog';
import { baseUrlOf, parseDocument } from '../../endpoints/http/api-document';
import { parseApiEntry, type ApiEntry } from '../../endpoints/http/api-entry';
import { callApi, RetryableHttpError } from '../../endpoints/http/http-call';
import { operationsOf } from '../../endpoints/http/operations';
import { parseRegistry } from '../../endpoints/endpoint-registry';

const FIXTURE = path.join(__dirname, '../fixtures/openapi/petstore.json');
const ok = { '200': { description: 'ok' } };
const json = (schema: object) => ({ content: { 'application/json': { schema } } });

/** A small OpenAPI 3 document: a path-level parameter overridden, a header and a cookie, tags, a form-only body. */
const SHOP = {
  openapi: '3.0.3',
  info: { title: 'Shop', version: '1' },
  servers: [{ url: 'https://shop.example.com/v1/' }],
  paths: {
    '/orders/{orderId}': {
      parameters: [
        { name: 'orderId', in: 'path', required: true, schema: { type: 'string' }, description: 'path level' },
        { name: 'verbose', in: 'query', schema: { type: 'boolean' } },
      ],
      get: {
        ...{ operationId: 'getOrder', tags: ['orders'], summary: 'One order', responses: ok },
        parameters: [
          { name: 'orderId', in: 'path', required: true, schema: { type: 'integer' }, description: 'The number' },
          { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
          { name: 'fields', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
          { name: 'session', in: 'cookie', schema: { type: 'string' } },
        ],
      },
      delete: { operationId: 'cancelOrder', tags: ['orders', 'admin'], responses: ok },
    },
    '/orders': {
      post: { operationId: 'createOrder', responses: ok, requestBody: { required: true, ...json({ type: 'object' }) } },
      put: { requestBody: { content: { 'application/x-www-form-urlencoded': { schema: {} } } }, responses: ok },
    },
    '/admin/reset': { post: { operationId: 'reset', tags: ['admin'], responses: ok } },
    '/hang': { get: { operationId: 'hangGet', responses: ok }, post: { operationId: 'hangPost', responses: ok } },
  },
};

const SWAGGER = {
  swagger: '2.0',
  info: { title: 'Users', version: '1' },
  ...{ host: 'users.example.com', basePath: '/v2', schemes: ['http'], consumes: ['application/json; charset=utf-8'] },
  paths: {
    '/users': {
      post: {
        ...{ operationId: 'addUser', responses: ok },
        parameters: [
          { in: 'body', name: 'user', required: true, schema: { $ref: '#/definitions/User' } },
          { in: 'query', name: 'notify', type: 'boolean', description: 'Send an email' },
        ],
      },
      put: {
        ...{ operationId: 'replaceUser', consumes: ['application/vnd.users+json'], responses: ok },
        parameters: [{ in: 'body', name: 'user', schema: { $ref: '#/definitions/User' } }],
      },
    },
  },
  definitions: { User: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
};

const NOT_OPENAPI = 'not an OpenAPI or Swagger document (no "openapi" or "swagger" field)';
const NOPE = { '200': { description: 'x', ...json({ $ref: '#/components/schemas/Nope' }) } };
const NOPE_SAYS =
  'invalid document: Missing $ref pointer "#/components/schemas/Nope". Token "components" does not exist.';
const twice = { operationId: 'addUser', responses: ok };
const DUP = { '/a': { post: twice }, '/b': { get: twice } };
const DUP_SAYS = "invalid document: Validation failed. Duplicate operation id 'addUser'";
const withPaths = <T extends object>(doc: T, paths: object) => ({ ...doc, paths });
const where = (p: { in: string; name: string; required: boolean }) => `${p.in}:${p.name}:${p.required}`;
/** Listens on a free port of 127.0.0.1; the base URL. */
async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
const ids = (doc: Record<string, unknown>, include?: string[], exclude?: string[]) =>
  operationsOf(doc, include, exclude).map((o) => o.id);
const entryOf = (value: Record<string, unknown>): ApiEntry => {
  const parsed = parseApiEntry(value);
  if ('problems' in parsed) throw new Error(parsed.problems.join('; '));
  return parsed.entry;
};

describe('operationsOf', () => {
  it('reads the petstore fixture: ids, bodies, parameters, read-only and idempotent', async () => {
    const { doc } = await parseDocument(await readFile(FIXTURE, 'utf8'), FIXTURE);
    const ops = operationsOf(doc);
    const summary =
      'listPets get /pets, createPet post /pets, showPetById get /pets/{petId}, deletePet delete /pets/{petId}';
    expect(ops.map((o) => `${o.id} ${o.method} ${o.path}`).join(', ')).toBe(summary);
    const [list, create, show, del] = ops;
    expect(list!.parameters.map(where).join(' ')).toBe('query:tag:false query:limit:false');
    const listProps = { tag: { type: 'string' }, limit: { type: 'integer', maximum: 100 } };
    expect(list!.inputSchema).toEqual({ type: 'object', properties: listProps });
    expect(list!.description).toBe('List the pets, optionally by tag (GET /pets)');
    expect(create!.body).toEqual({ contentType: 'application/json', required: true });
    const newPet = { name: { type: 'string', description: "The pet's name" }, tag: { type: 'string' } };
    expect(create!.inputSchema).toEqual({
      type: 'object',
      ...{ properties: { body: { type: 'object', required: ['name'], properties: newPet } }, required: ['body'] },
    });
    expect(show!.inputSchema.required).toEqual(['petId']);
    // read-only / idempotent (retried), as the tools' specs carry them
    const entry = entryOf({ openapi: 'petstore.json' });
    const idempotent = (o: (typeof ops)[number]) => apiToolSpec('p', entry, o, new Set()).http!.idempotent;
    expect(ops.map((o) => `${o.readOnly}/${idempotent(o)}`).join(' ')).toBe(
      'true/true false/false true/true false/false',
    );
    // An API that honours idempotency keys: its writes are retried too, with the same key.
    const keyed = entryOf({ openapi: 'petstore.json', idempotencyKeys: true });
    expect(ops.map((o) => apiToolSpec('p', keyed, o, new Set()).http!.idempotent)).toEqual([true, true, true, true]);
    expect(del!.body).toBeUndefined();
    expect(baseUrlOf(doc, FIXTURE)).toBe('http://127.0.0.1:4010');
    expect(baseUrlOf(doc, FIXTURE, 'http://other:1/api/')).toBe('http://other:1/api');
  });

  it('reads Swagger 2.0: the body parameter, consumes (the operation first), host and basePath', async () => {
    const { doc } = await parseDocument(JSON.stringify(SWAGGER), '/tmp/users.json');
    const [replace, add] = operationsOf(doc); // in HTTP_METHODS order: get, put, post, …
    expect(add!.body).toEqual({ contentType: 'application/json; charset=utf-8', required: true });
    expect(add!.inputSchema).toEqual({
      type: 'object',
      properties: {
        notify: { type: 'boolean', description: 'Send an email' },
        body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
      },
      required: ['body'],
    });
    expect(add!.parameters).toEqual([{ name: 'notify', in: 'query', required: false }]);
    expect(replace!.body).toEqual({ contentType: 'application/vnd.users+json', required: false });
    expect(baseUrlOf(doc, '/tmp/users.json')).toBe('http://users.example.com/v2');
  });

  it('lets an operation-level parameter override the path-level one; cookies and form bodies are left out', () => {
    const [get, del] = operationsOf(SHOP);
    const params = 'path:orderId:true query:verbose:false header:X-Trace:false query:fields:false';
    expect(get!.parameters.map(where).join(' ')).toBe(params);
    expect(get!.inputSchema.properties).toMatchObject({ orderId: { type: 'integer', description: 'The number' } });
    expect(del!.inputSchema.properties).toMatchObject({ orderId: { type: 'string', description: 'path level' } });
    const put = operationsOf(SHOP, ['PUT /orders'])[0]!;
    expect(put.id).toBe('PUT /orders');
    expect(put.body).toBeUndefined();
    expect(baseUrlOf(SHOP, '/tmp/shop.json')).toBe('https://shop.example.com/v1');
  });

  it('filters by globs over operationId, METHOD /path and tags', () => {
    expect(ids(SHOP).join(', ')).toBe('getOrder, cancelOrder, PUT /orders, createOrder, reset, hangGet, hangPost');
    expect(ids(SHOP, ['orders'])).toEqual(['getOrder', 'cancelOrder']);
    expect(ids(SHOP, ['*'], ['admin', 'hang*'])).toEqual(['getOrder', 'PUT /orders', 'createOrder']);
    expect(ids(SHOP, ['POST /*'], ['POST /hang'])).toEqual(['createOrder', 'reset']);
    expect(ids(SHOP, ['get*', 'DELETE /orders/{orderId}'])).toEqual(['getOrder', 'cancelOrder']);
    expect(ids(SHOP, ['nothing'])).toEqual([]);
  });
});

describe('ApiCatalog.list', () => {
  let dir: string;
  let catalog: ApiCatalog;
  let docServer: Server;
  let docUrl: string;
  const docRequests: string[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'http-apis-'));
    catalog = new ApiCatalog({ baseDir: dir, maxDocumentBytes: 16 * 1024 * 1024, env: {} });
    docServer = createServer((req, res) => {
      docRequests.push(req.url!);
      if (req.url === '/hang.json') return; // never answers
      if (req.url === '/shop.json')
        return void res.setHeader('content-type', 'application/json').end(JSON.stringify(SHOP));
      res.statusCode = req.url === '/html' ? 200 : 404;
      res.setHeader('content-type', 'text/html').end('<html><body>Not here</body></html>');
    });
    docUrl = await listen(docServer);
  });
  afterAll(async () => {
    docServer.closeAllConnections();
    await new Promise((resolve) => docServer.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });
  const listed = async (file: string, text: string, extra: Record<string, unknown> = {}) => {
    await writeFile(path.join(dir, file), text);
    return catalog.list(file.replace(/\W/g, '_'), entryOf({ openapi: file, ...extra }));
  };

  it('lists a good document: status ok, a tool per operation, the base URL', async () => {
    const { status, calls } = await listed('shop.json', JSON.stringify(SHOP), { excludeOperations: ['hang*'] });
    expect(status).toMatchObject({ status: 'ok', toolCount: 5, transport: 'openapi' });
    expect(status.error).toBeUndefined();
    const call = { api: 'shop_json', baseUrl: 'https://shop.example.com/v1', timeoutMs: 30_000, headers: {} };
    expect(calls[0]).toMatchObject(call);
    const byUrl = await catalog.list('remote', entryOf({ openapi: `${docUrl}/shop.json` }));
    expect(byUrl.status).toMatchObject({ status: 'ok', toolCount: 7 });
  });

  it.each([
    ['malformed JSON', 'bad.json', '{ "openapi": ', /^not JSON or YAML: unexpected end of the stream/],
    ['malformed YAML', 'bad.yaml', 'openapi: 3.0.3\n  info: [unclosed', /^not JSON or YAML: bad indentation/],
    ['no openapi field', 'other.json', '{"name": "x"}', NOT_OPENAPI],
    ['an unknown $ref', 'ref.json', JSON.stringify(withPaths(SHOP, { '/x': { get: { responses: NOPE } } })), NOPE_SAYS],
    ['a duplicate operationId (Swagger 2.0)', 'dup.json', JSON.stringify(withPaths(SWAGGER, DUP)), DUP_SAYS],
  ])('reports %s in words, unavailable when never loaded', async (_, file, text, error) => {
    const { status, calls } = await listed(file, text);
    expect(calls).toEqual([]);
    expect(status).toMatchObject({ status: 'unavailable', toolCount: 0, error });
  });

  it('accepts an OpenAPI 3 duplicate operationId (swagger-parser checks only Swagger 2.0), with distinct tool names', async () => {
    const { status, calls } = await listed('dup3.json', JSON.stringify(withPaths(SHOP, DUP)));
    expect(status).toMatchObject({ status: 'ok', toolCount: 2 });
    const entry = entryOf({ openapi: 'dup3.json' });
    const taken = new Set<string>();
    const names = calls.map((c) => apiToolSpec('dup3', entry, c.operation, taken).name);
    expect(names).toEqual(['dup3__addUser', expect.stringMatching(/^dup3__addUser_[0-9a-f]{6}$/)]);
  });

  it('refuses a document over the limit before parsing it', async () => {
    const huge = path.join(dir, 'huge.json');
    await writeFile(huge, Buffer.alloc(20 * 1024 * 1024, 0x20)); // 20 MB of spaces: parsing it would say "not an OpenAPI…"
    const { status } = await catalog.list('huge', entryOf({ openapi: 'huge.json' }));
    expect(status).toMatchObject({ status: 'unavailable', error: 'the document is 20.0 MB; the limit is 16 MB' });
    const small = new ApiCatalog({ baseDir: path.dirname(FIXTURE), maxDocumentBytes: 512 * 1024, env: {} });
    await writeFile(huge, Buffer.alloc(600 * 1024, 0x20));
    expect((await small.list('p', entryOf({ openapi: huge }))).status.error).toBe(
      'the document is 0.6 MB; the limit is 0.5 MB',
    );
    expect((await small.list('p', entryOf({ openapi: 'petstore.json' }))).status).toMatchObject({ toolCount: 4 });
  });

  it('reports a missing file, a 404 and an HTML page at a URL, a missing variable, a disabled entry', async () => {
    const error = async (value: Record<string, unknown>) => (await catalog.list('x', entryOf(value))).status;
    const unavailable = (error: string) => ({ status: 'unavailable', toolCount: 0, error });
    expect(await error({ openapi: 'none.json' })).toMatchObject(
      unavailable(`no document at ${path.join(dir, 'none.json')}`),
    );
    expect(await error({ openapi: `${docUrl}/gone.json` })).toMatchObject(
      unavailable(`fetching ${docUrl}/gone.json answered HTTP 404`),
    );
    expect(await error({ openapi: `${docUrl}/html` })).toMatchObject(unavailable(NOT_OPENAPI));
    expect(await error({ openapi: 'shop.json', auth: { bearer: '${env:SHOP_TOKEN}' } })).toMatchObject(
      unavailable('needs the environment variable(s) SHOP_TOKEN, which the worker does not have'),
    );
    expect(await error({ openapi: 'shop.json', enabled: false })).toMatchObject({ status: 'disabled', toolCount: 0 });
  });

  it('does not wait on a hanging document URL again until its backoff is over', async () => {
    const hanging = entryOf({ openapi: `${docUrl}/hang.json`, timeoutMs: 200 });
    const first = await catalog.list('hang', hanging);
    expect(first.status).toMatchObject({
      status: 'unavailable',
      error: expect.stringMatching(/200 ms|abort|timeout/i),
    });
    expect((await catalog.list('hang', hanging)).status).toMatchObject({ status: 'unavailable' });
    // The second look answered from the standing failure: the server saw one request.
    expect(docRequests.filter((u) => u === '/hang.json')).toHaveLength(1);
  });

  it('keeps serving the last good document when it breaks, and says why', async () => {
    const first = await listed('live.json', JSON.stringify(SHOP));
    expect(first.status).toMatchObject({ status: 'ok', toolCount: 7 });
    const broken = await listed('live.json', '{ "openapi": "3.0.3", ');
    expect(broken.status).toMatchObject({ status: 'ok', toolCount: 7 });
    expect(broken.status.error).toMatch(
      /^not JSON or YAML: .* \(still serving the document loaded at \d{4}-\d\d-\d\dT[\d:.]+Z\)$/,
    );
    expect(broken.calls.map((c) => c.operation.id)).toEqual(first.calls.map((c) => c.operation.id));
    expect((await listed('live.json', JSON.stringify({ ...SHOP, paths: {} }))).status).toMatchObject({ toolCount: 0 });
  });
});

describe('apiToolSpec', () => {
  const op = (id: string, method: 'get' | 'post') =>
    operationsOf({ paths: { '/x': { [method]: { operationId: id } } } })[0]!;

  it('names tools <api>__<operationId>, sanitised, with a hash suffix when two collide', () => {
    const entry = entryOf({ openapi: 'gh.json' });
    const taken = new Set<string>();
    const first = apiToolSpec('github', entry, op('repos/get', 'get'), taken);
    const second = apiToolSpec('github', entry, op('repos.get', 'get'), taken);
    expect(first.name).toBe('github__repos_get');
    expect(second.name).toMatch(/^github__repos_get_[0-9a-f]{6}$/);
    expect(apiToolSpec('github', entry, op('repos.get', 'get'), new Set([first.name])).name).toBe(second.name);
    expect(first).toMatchObject({ kind: 'http', category: 'http', readOnly: true, approval: 'never' });
    expect(first.description).toBe('repos/get (GET /x) (HTTP API "github")');
    const ref = { api: 'github', operation: 'repos/get', method: 'GET', idempotent: true, timeoutMs: 30_000 };
    expect(first.http).toEqual(ref);
    // A third of the same name gets a name of its own too.
    const third = apiToolSpec('github', entry, op('repos.get', 'get'), taken);
    expect(new Set([first.name, second.name, third.name]).size).toBe(3);
  });

  it.each([
    ['writes', 'never', 'always'],
    ['always', 'always', 'always'],
    ['never', 'never', 'never'],
  ])('requireApproval %s: a GET %s, a POST %s', (requireApproval, forGet, forPost) => {
    const entry = entryOf({ openapi: 'a.json', ...(requireApproval === 'writes' ? {} : { requireApproval }) });
    expect(apiToolSpec('a', entry, op('read', 'get'), new Set()).approval).toBe(forGet);
    expect(apiToolSpec('a', entry, op('write', 'post'), new Set()).approval).toBe(forPost);
  });
});

describe('callApi against a local server', () => {
  let server: Server;
  let base: string;
  const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];
  let reply: (res: ServerResponse) => void;
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        if (!req.url!.startsWith('/hang')) reply(res);
      });
    });
    base = await listen(server);
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    seen.length = 0;
    reply = (res) => res.setHeader('content-type', 'application/json').setHeader('etag', '"v1"').end('{"ok":true}');
  });
  const answer = (status: number, type: string, body: string) =>
    (reply = (res) => {
      res.statusCode = status;
      res.setHeader('content-type', type).end(body);
    });
  const callOf = (id: string, extra: Partial<ApiCall> = {}): ApiCall => {
    const operation = operationsOf(SHOP, [id])[0]!;
    const retried = operation.readOnly;
    return {
      api: 'shop',
      baseUrl: base,
      operation,
      headers: { 'X-Client': 'tests' },
      timeoutMs: 5_000,
      retried,
      ...extra,
    };
  };
  const key = { idempotencyKey: 'key-123' };

  it('sends path, query and header parameters with bearer auth, and no idempotency key on a GET', async () => {
    const args = { orderId: 7, verbose: true, fields: ['a', 'b'], 'X-Trace': 't-1' };
    const outcome = await callApi(callOf('getOrder', { auth: { bearer: 's3cret' } }), args, key);
    expect(outcome).toEqual({
      status: 'ok',
      result: { status: 200, headers: { 'content-type': 'application/json', etag: '"v1"' }, body: { ok: true } },
    });
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/orders/7?verbose=true&fields=a&fields=b' });
    expect(seen[0]!.headers).toMatchObject({ authorization: 'Bearer s3cret', 'x-trace': 't-1', 'x-client': 'tests' });
    expect(seen[0]!.headers['idempotency-key']).toBeUndefined();
  });

  it('puts an API key in a header or the query, and basic credentials in authorization', async () => {
    const get = (auth: ApiCall['auth'], orderId: number) => callApi(callOf('getOrder', { auth }), { orderId }, key);
    await get({ apiKey: { in: 'header', name: 'X-Api-Key', value: 'k1' } }, 1);
    await get({ apiKey: { in: 'query', name: 'api_key', value: 'k 2' } }, 2);
    await get({ basic: { username: 'ann', password: 'pw' } }, 3);
    expect(seen[0]!.headers['x-api-key']).toBe('k1');
    expect(seen[1]!.url).toBe('/orders/2?api_key=k+2');
    expect(seen[2]!.headers.authorization).toBe(`Basic ${Buffer.from('ann:pw').toString('base64')}`);
  });

  it('sends a POST body as JSON with the idempotency key it was given', async () => {
    const outcome = await callApi(callOf('createOrder'), { body: { item: 'tea' } }, key);
    expect(outcome.status).toBe('ok');
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/orders', body: '{"item":"tea"}' });
    expect(seen[0]!.headers).toMatchObject({ 'content-type': 'application/json', 'idempotency-key': 'key-123' });
  });

  it('tells a 4xx in the server words, and an HTML answer without its tags', async () => {
    answer(404, 'application/json', '{"message":"No order 7"}');
    const get = () => callApi(callOf('getOrder'), { orderId: 7 }, key);
    expect(await get()).toEqual({ status: 'tool_error', error: 'HTTP 404 from shop for GET /orders/7: No order 7' });
    answer(403, 'text/html', '<html><body><h1>Forbidden</h1>\n<p>Not for you</p></body></html>');
    const forbidden = 'HTTP 403 from shop for GET /orders/7: Forbidden Not for you';
    expect(await get()).toEqual({ status: 'tool_error', error: forbidden });
    answer(200, 'text/html', '<p>Hello</p>');
    expect(await get()).toMatchObject({ status: 'ok', result: { status: 200, body: '<p>Hello</p>' } });
  });

  it('throws RetryableHttpError on a 5xx for a GET; a POST is told it may have acted', async () => {
    answer(500, 'application/json', '{"error":{"message":"database down"}}');
    const get = callApi(callOf('getOrder'), { orderId: 7 }, key);
    await expect(get).rejects.toThrow(RetryableHttpError);
    await expect(get).rejects.toThrow('HTTP 500 from shop for GET /orders/7: database down');
    expect(await callApi(callOf('createOrder'), { body: {} }, key)).toEqual({
      status: 'tool_error',
      error:
        'HTTP 500 from shop for POST /orders: database down. It was not sent again: it may have acted. Check before trying again.',
    });
  });

  it('retries a POST to an API that honours idempotency keys, as a GET: a 5xx and a hung server', async () => {
    answer(500, 'application/json', '{"error":{"message":"database down"}}');
    await expect(callApi(callOf('createOrder', { retried: true }), { body: {} }, key)).rejects.toThrow(
      new RetryableHttpError('HTTP 500 from shop for POST /orders: database down'),
    );
    expect(seen.at(-1)?.headers['idempotency-key']).toBe('key-123');
    await expect(callApi(callOf('hangPost', { timeoutMs: 150, retried: true }), {}, key)).rejects.toThrow(
      new RetryableHttpError('shop: POST /hang failed: no answer within 150 ms'),
    );
  });

  it('gives up on a hung server after timeoutMs: a GET is retried, a POST may have run', async () => {
    const get = callApi(callOf('hangGet', { timeoutMs: 150 }), {}, key);
    await expect(get).rejects.toThrow(new RetryableHttpError('shop: GET /hang failed: no answer within 150 ms'));
    expect(await callApi(callOf('hangPost', { timeoutMs: 150 }), {}, key)).toEqual({
      status: 'tool_error',
      error:
        'The call to shop/hangPost was sent, then lost (no answer within 150 ms); it may or may not have run, so it was not retried. Check before trying again.',
    });
  });

  it('refuses missing required arguments before sending anything', async () => {
    expect(await callApi(callOf('getOrder'), { verbose: true }, key)).toEqual({
      status: 'invalid_input',
      problems: ['orderId: required (GET /orders/{orderId})'],
      missing: ['orderId'],
    });
    expect(await callApi(callOf('createOrder'), {}, key)).toMatchObject({ missing: ['body'] });
    expect(seen).toEqual([]);
  });

  it('says nothing was sent when the connection is refused', async () => {
    const closed = createServer();
    const url = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    expect(await callApi(callOf('createOrder', { baseUrl: url }), { body: {} }, key)).toEqual({
      status: 'tool_error',
      error: `shop: could not connect for POST /orders (ECONNREFUSED connect ECONNREFUSED ${url.slice(7)}); nothing was sent`,
    });
  });

  it('calls a single endpoint: GET arguments as the query, POST arguments as the body', async () => {
    const apis = new ApiCatalog({ baseDir: os.tmpdir(), maxDocumentBytes: 1024, env: { T: 'tok' } });
    const inputSchema = { type: 'object', properties: { q: { type: 'string' } } };
    const search = entryOf({ url: `${base}/search`, method: 'GET', description: 'Search', inputSchema });
    const listed = await apis.list('search', search);
    expect(listed.status).toMatchObject({ status: 'ok', toolCount: 1, transport: 'endpoint' });
    expect(apiToolSpec('search', search, listed.calls[0]!.operation, new Set())).toMatchObject({
      name: 'search__call',
      approval: 'never',
      inputSchema,
      description: `Search (GET ${base}/search) (HTTP API "search")`,
    });
    await callApi(listed.calls[0]!, { q: 'cats', n: 2 }, key);
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/search?q=cats&n=2', body: '' });
    const post = entryOf({ url: `${base}/notes`, description: 'Add a note', auth: { bearer: '${env:T}' } });
    const [note] = (await apis.list('notes', post)).calls;
    expect(apiToolSpec('notes', post, note!.operation, new Set()).approval).toBe('always');
    await callApi(note!, { text: 'hi' }, key);
    expect(seen[1]).toMatchObject({ method: 'POST', url: '/notes', body: '{"text":"hi"}' });
    expect(seen[1]!.headers).toMatchObject({ authorization: 'Bearer tok', 'idempotency-key': 'key-123' });
  });

  it('adds arguments to a URL that already has a query, and never serves a last good API with a blank secret', async () => {
    const apis = new ApiCatalog({ baseDir: os.tmpdir(), maxDocumentBytes: 1024 * 1024, env: { T: 'tok' } });
    const search = entryOf({ url: `${base}/search?format=json`, method: 'GET', description: 'Search' });
    await callApi((await apis.list('search', search)).calls[0]!, { q: 'x' }, key);
    expect(seen[0]).toMatchObject({ url: '/search?format=json&q=x' });
    const keyed = (ref: string) => entryOf({ openapi: FIXTURE, baseUrl: base, auth: { bearer: ref } });
    expect((await apis.list('notes', keyed('${env:T}'))).status.status).toBe('ok');
    const missing = await apis.list('notes', keyed('${env:MISSING}'));
    expect(missing).toMatchObject({ status: { status: 'unavailable', error: expect.stringMatching(/MISSING/) } });
  });
});

describe('parseRegistry with httpApis', () => {
  it('reads an httpApis entry beside mcpServers, with its defaults', () => {
    const pets = { openapi: 'petstore.json', auth: { bearer: '${env:PETS}' } };
    const text = JSON.stringify({ mcpServers: { fx: { command: 'node' } }, httpApis: { pets } });
    const { apis, endpoints } = parseRegistry(text);
    expect(Object.keys(endpoints)).toEqual(['fx']);
    const defaults = { includeOperations: ['*'], excludeOperations: [], enabled: true, categories: [], headers: {} };
    expect(apis.pets).toEqual({
      ...pets,
      ...defaults,
      timeoutMs: 30_000,
      requireApproval: 'writes',
      idempotencyKeys: false,
    });
  });

  it('names the API and the field of a problem, and refuses a name an MCP server has', () => {
    const registry = (httpApis: object) => JSON.stringify({ mcpServers: { fx: { command: 'node' } }, httpApis });
    const unknownField = registry({ pets: { openapi: 'p.json', colour: 'red' } });
    expect(() => parseRegistry(unknownField)).toThrow('API "pets": colour: Unrecognized key: "colour"');
    const noDescription = registry({ one: { url: 'https://h/x', method: 'GET' } });
    expect(() => parseRegistry(noDescription)).toThrow(/^API "one": description: /);
    const shared = 'API "fx": an MCP server has this name; endpoint names are shared';
    expect(() => parseRegistry(registry({ fx: { openapi: 'fx.json' } }))).toThrow(shared);
  });
});
