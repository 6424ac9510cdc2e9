// What an MCP tool's answer becomes for the conversation: a tool outcome the model and the transcript can carry.
// Structured content (checked against the tool's outputSchema) is the result; images, audio, resource links,
// embedded resources and annotations are kept as typed content parts, their bytes only while small enough for
// history. A plain text answer stays what it always was (the result, no parts), so older histories read the same.
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { ContentAnnotations, ToolContent, ToolOutcome } from '../../core/types';
import { base64Bytes, contentAsText, MEDIA_BYTES_KEPT } from '../../core/tool-content';

type Block = CallToolResult['content'][number];

export interface OutcomeOptions {
  /** Media bytes kept in the outcome (all parts together); past it a part keeps its type and size only. */
  mediaBytesKept?: number;
}

const ajv = new AjvJsonSchemaValidator();
/** One compiled validator per outputSchema object: the catalog keeps a tool's definition until it changes. */
const validators = new WeakMap<object, ReturnType<typeof ajv.getValidator>>();

/** `tool`: its definition from the catalog, whose `outputSchema` the structured content must match. */
export function outcomeOf(
  result: CallToolResult,
  tool?: Pick<Tool, 'name' | 'outputSchema'>,
  options: OutcomeOptions = {},
): ToolOutcome {
  const blocks = result.content ?? [];
  if (result.isError) return { status: 'tool_error', error: plainText(blocks) || 'the tool reported an error' };
  const parts = partsOf(blocks, options.mediaBytesKept ?? MEDIA_BYTES_KEPT);
  const structured = result.structuredContent;
  if (structured !== undefined) {
    const problem = tool?.outputSchema && schemaProblem(tool.outputSchema, structured);
    if (problem)
      return {
        status: 'tool_error',
        error: `The tool "${tool.name}" answered structured content that does not match its outputSchema: ${problem}.`,
      };
    // By the spec its text blocks repeat the structured content as JSON: only the other parts add anything.
    const extra = parts.filter((p) => p.type !== 'text');
    if (!extra.length) return { status: 'ok', result: structured };
    return { status: 'ok', result: structured, structured: true, content: extra };
  }
  if (tool?.outputSchema)
    return {
      status: 'tool_error',
      error: `The tool "${tool.name}" declares an outputSchema but answered no structured content.`,
    };
  if (parts.every((p) => p.type === 'text' && !p.annotations))
    return { status: 'ok', result: jsonOrText(plainText(blocks)) };
  return { status: 'ok', result: jsonOrText(contentAsText(parts)), content: parts };
}

function schemaProblem(schema: Tool['outputSchema'] & object, value: unknown): string | undefined {
  let validate = validators.get(schema);
  if (!validate) {
    try {
      validate = ajv.getValidator(schema as never);
    } catch {
      return undefined; // a schema Ajv cannot compile: the server's word stands
    }
    validators.set(schema, validate);
  }
  const check = validate(value);
  return check.valid ? undefined : check.errorMessage;
}

/** The text of the answer, as outcomes had it before content parts: resources by their text, the rest by kind. */
function plainText(blocks: Block[]): string {
  return blocks
    .map((c) =>
      c.type === 'text' ? c.text : c.type === 'resource' && 'text' in c.resource ? c.resource.text : `[${c.type}]`,
    )
    .join('\n');
}

function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Blocks as content parts, media bytes kept until `budget` is spent. */
function partsOf(blocks: Block[], budget: number): ToolContent[] {
  const left = { left: budget };
  return blocks.map((b) => partOf(b, left));
}

/** One block as a content part; media keeps its bytes while `budget.left` covers them (and spends them). */
export function partOf(b: Block, budget: { left: number }): ToolContent {
  const keep = (data: string): { data?: string; bytes: number } => {
    const bytes = base64Bytes(data);
    if (bytes > budget.left) return { bytes };
    budget.left -= bytes;
    return { data, bytes };
  };
  const annotations = annotationsOf(b.annotations);
  const noted = annotations ? { annotations } : {};
  switch (b.type) {
    case 'text':
      return { type: 'text', text: b.text, ...noted };
    case 'image':
    case 'audio':
      return { type: b.type, mimeType: b.mimeType, ...keep(b.data), ...noted };
    case 'resource_link':
      return {
        type: 'resource_link',
        uri: b.uri,
        name: b.name,
        ...(b.title ? { title: b.title } : {}),
        ...(b.description ? { description: b.description } : {}),
        ...(b.mimeType ? { mimeType: b.mimeType } : {}),
        ...noted,
      };
    case 'resource': {
      const r = b.resource;
      const mime = r.mimeType ? { mimeType: r.mimeType } : {};
      if ('text' in r) return { type: 'resource', uri: r.uri, ...mime, text: r.text, ...noted };
      // A blob of text (some servers send text as base64) is read as text: the model and the user can use it.
      if (isTextual(r.mimeType))
        return {
          type: 'resource',
          uri: r.uri,
          ...mime,
          text: Buffer.from(r.blob, 'base64').toString('utf8'),
          ...noted,
        };
      return { type: 'resource', uri: r.uri, ...mime, ...keep(r.blob), ...noted };
    }
  }
}

export function isTextual(mimeType: string | undefined): boolean {
  return !!mimeType && /^text\/|^application\/(json|xml|yaml|x-yaml|javascript|.*\+json|.*\+xml)\b/.test(mimeType);
}

function annotationsOf(a: Block['annotations']): ContentAnnotations | undefined {
  if (!a) return undefined;
  const kept: ContentAnnotations = {
    ...(a.audience ? { audience: a.audience } : {}),
    ...(a.priority !== undefined ? { priority: a.priority } : {}),
    ...(a.lastModified ? { lastModified: a.lastModified } : {}),
  };
  return Object.keys(kept).length ? kept : undefined;
}
