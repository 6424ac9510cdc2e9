// Files through the API: uploaded to the blob store (raw bytes or multipart/form-data), their metadata and content read
// back by their owners only (another owner's file is answered as unknown, as conversations are), and the files a
// message attaches. Uploads have their own body limit (FILE_MAX_MB), not API_BODY_LIMIT.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import type { AgentClient } from '../client/agent-client';
import { UserError } from '../core/user-error';
import { LOCAL_OWNER, fileTooLargeMessage, type LimitedBlobStore } from '../blobs';
import type { BlobRef } from '../core/blobs';
import { MAX_ATTACHMENTS } from '../core/messages';
import type { ApiEnv, Caller } from './auth';
import { visibleFeed } from './conversation-access';
import * as S from './schemas';
import { errors, json } from './schemas';

/** Room for a multipart body's boundaries and headers beside the file itself. */
const MULTIPART_SLACK = 64 * 1024;

/** Requests that carry files: the API's own body limit leaves them to the file routes' (FILE_MAX_MB). */
export function carriesFiles(method: string, path: string, contentType: string | undefined): boolean {
  if (method !== 'POST') return false;
  if (path === '/api/files') return true;
  return /^\/api\/conversations\/[^/]+\/messages$/.test(path) && isMultipart(contentType);
}

export function addFileRoutes(
  app: OpenAPIHono<ApiEnv>,
  agents: AgentClient,
  /** Tells the live feeds a conversation has news (a message was sent). */
  touched: (conversationId: string) => void,
): void {
  const store = () => agents.files;
  const limit = (files: number) =>
    bodyLimit({
      maxSize: store().limits.fileMaxBytes * files + MULTIPART_SLACK,
      // The rest of the body is not read: the connection is closed after the answer rather than reused.
      onError: (c) =>
        c.json({ error: fileTooLargeMessage(store().limits, 'The upload') }, 413, { connection: 'close' }),
    });

  // A message with files as multipart/form-data (`text`, and a `file` field per file), before the JSON route.
  app.use('/api/conversations/:id/messages', async (c, next) =>
    c.req.method === 'POST' && isMultipart(c.req.header('content-type')) ? limit(MAX_ATTACHMENTS)(c, next) : next(),
  );
  app.post('/api/conversations/:id/messages', async (c, next) => {
    if (!isMultipart(c.req.header('content-type'))) return next();
    const id = c.req.param('id');
    const owner = await conversationOwner(agents, c.get('caller'), id);
    const form = await c.req.parseBody({ all: true });
    const text = typeof form.text === 'string' ? form.text.trim() : '';
    if (!text) return c.json({ error: 'text: the message needs its words', field: 'text' }, 400);
    const uploads = [form.file ?? []].flat().filter((f): f is File => typeof f !== 'string');
    if (uploads.length > MAX_ATTACHMENTS)
      throw new UserError(`The message has ${uploads.length} files; the limit is ${MAX_ATTACHMENTS}.`);
    const attachments: BlobRef[] = [];
    for (const f of uploads)
      attachments.push(await store().put(await bytesOf(f), { name: f.name || 'file', owner, conversationId: id }));
    if (c.req.query('wait') === 'false') {
      await agents.sayLater(id, { text, attachments });
      touched(id);
      return c.json({ accepted: true, attachments }, 202);
    }
    const reply = agents.say(id, { text, attachments });
    touched(id);
    return c.json(await reply, 200);
  });

  app.use('/api/files', async (c, next) => (c.req.method === 'POST' ? limit(1)(c, next) : next()));

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/files',
      summary:
        'Store a file (the raw body, its name in ?name=, or multipart/form-data with a `file` field); with ' +
        '?conversationId= the conversation holds it. Its type is found in the content, never the name',
      request: { query: S.FileUploadQuery },
      responses: {
        201: json(S.FileRef, 'The stored file'),
        ...errors,
        413: json(S.ErrorBody, 'Over FILE_MAX_MB or CONVERSATION_FILES_MAX_MB'),
        422: json(S.ErrorBody, 'A file the readers refuse (malformed, a zip bomb, a type not read)'),
      },
    }),
    async (c) => {
      const { conversationId, name } = c.req.valid('query');
      const caller = c.get('caller');
      const owner = conversationId
        ? await conversationOwner(agents, caller, conversationId)
        : (caller.owner ?? LOCAL_OWNER);
      let upload: { bytes: Uint8Array; name: string };
      if (isMultipart(c.req.header('content-type'))) {
        const file = (await c.req.parseBody()).file;
        if (!file || typeof file === 'string')
          return c.json({ error: 'file: a multipart upload needs a `file` field', field: 'file' }, 400);
        upload = { bytes: await bytesOf(file), name: name ?? (file.name || 'file') };
      } else {
        upload = { bytes: new Uint8Array(await c.req.arrayBuffer()), name: name ?? 'file' };
      }
      if (!upload.bytes.length) return c.json({ error: 'The file is empty.' }, 400);
      const ref = await store().put(upload.bytes, { ...upload, owner, ...(conversationId ? { conversationId } : {}) });
      return c.json(ref, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/files/limits',
      summary:
        'What a file and a conversation may weigh (FILE_MAX_MB, CONVERSATION_FILES_MAX_MB), and files per message',
      responses: { 200: json(S.Anything, '{ fileMaxBytes, conversationMaxBytes, maxFiles }'), ...errors },
    }),
    (c) => {
      const { fileMaxBytes, conversationMaxBytes } = store().limits;
      return c.json({ fileMaxBytes, conversationMaxBytes, maxFiles: MAX_ATTACHMENTS }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/files/{id}',
      summary: "A stored file's metadata: size, type found in the content, name, preview, what its reader found",
      request: { params: S.FileIdParam },
      responses: { 200: json(S.FileRef, 'The file'), ...errors },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      return c.json(await visibleFile(store(), c.get('caller'), id), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/files/{id}/content',
      summary: "A stored file's bytes, with its type; `Range: bytes=…` answers 206 with that part",
      request: { params: S.FileIdParam },
      responses: {
        200: { content: { 'application/octet-stream': { schema: z.string() } }, description: 'The bytes' },
        206: { content: { 'application/octet-stream': { schema: z.string() } }, description: 'The range asked' },
        416: json(S.ErrorBody, 'A range outside the file'),
        ...errors,
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const ref = await visibleFile(store(), c.get('caller'), id);
      const headers = {
        'content-type': ref.type,
        'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(ref.name)}`,
        'accept-ranges': 'bytes',
        'x-content-type-options': 'nosniff',
      };
      const asked = c.req.header('range');
      if (!asked) return c.body(Buffer.from(await store().get(id)), 200, headers);
      const range = parseRange(asked, ref.size);
      if (!range)
        return c.json({ error: `Range ${asked} is outside the file's ${ref.size} bytes.` }, 416, {
          'content-range': `bytes */${ref.size}`,
        });
      const bytes = await store().get(id, { offset: range.from, length: range.to - range.from + 1 });
      return c.body(Buffer.from(bytes), 206, {
        ...headers,
        'content-range': `bytes ${range.from}-${range.to}/${ref.size}`,
      });
    },
  );
}

/**
 * The refs of files a JSON message names (`files: [id, …]`), each held by the conversation for its owner: refused as
 * unknown when the caller may not read one.
 */
export async function attachmentsOf(
  agents: AgentClient,
  caller: Caller,
  conversationId: string,
  ids: string[],
): Promise<BlobRef[]> {
  if (!ids.length) return [];
  const owner = await conversationOwner(agents, caller, conversationId);
  const refs: BlobRef[] = [];
  for (const id of ids) {
    refs.push(await visibleFile(agents.files, caller, id));
    await agents.files.hold(id, conversationId, owner);
  }
  return refs;
}

/** The file's ref if the caller holds it (admins read every file); another owner's file is answered as unknown. */
async function visibleFile(store: LimitedBlobStore, caller: Caller, id: string): Promise<BlobRef> {
  const stored = await store.stat(id);
  if (!stored || (!caller.admin && !stored.owners.includes(caller.owner ?? LOCAL_OWNER)))
    throw new UserError(`No file ${id}.`, 'not_found');
  return stored.ref;
}

/** Who a conversation's files are held for: its owner (checked to be visible to the caller). */
async function conversationOwner(agents: AgentClient, caller: Caller, id: string): Promise<string> {
  return (await visibleFeed(agents, caller, id)).owner ?? LOCAL_OWNER;
}

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` (one range) within `size` bytes; null when it asks for none of them. */
export function parseRange(header: string, size: number): { from: number; to: number } | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (!m[1] && !m[2])) return null;
  const [from, to] = m[1]
    ? [Number(m[1]), m[2] ? Math.min(Number(m[2]), size - 1) : size - 1]
    : [Math.max(0, size - Number(m[2])), size - 1];
  return from <= to && from < size ? { from, to } : null;
}

function isMultipart(contentType: string | undefined): boolean {
  return /^multipart\/form-data\b/i.test(contentType ?? '');
}

async function bytesOf(file: File): Promise<Uint8Array> {
  return new Uint8Array(await file.arrayBuffer());
}
