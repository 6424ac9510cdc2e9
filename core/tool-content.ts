// What a tool answered beyond JSON (images, audio, resources, annotations), in words: for providers that take no
// media in tool results, for the transcript's text views, and for media too large to keep in history. Pure, so the
// worker, the clients and the web chat describe a part the same way.
import type { ToolContent, ToolOutcome } from './types';

/**
 * Media bytes one tool outcome may keep in history (all its images, audio and binary resources together): more and
 * the part is described, not embedded. An outcome travels in the tool activity's result and the next model request,
 * under Temporal's 2 MiB payload limit; 96 KB (128 K characters of base64) leaves room for the rest.
 */
export const MEDIA_BYTES_KEPT = 96 * 1024;

/** `1.2 KB`, `3.4 MB`, `512 bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Decoded size of base64 text. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.replace(/\s/g, '').length * 3) / 4) - padding);
}

/** One part in words: text as it is, the rest by kind, type, size and name. */
export function describePart(part: ToolContent): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'image':
    case 'audio':
      return `[${part.type}, ${part.mimeType}, ${formatBytes(part.bytes)}${part.data ? '' : ', not kept: too large'}${forUserOnly(part) ? ', shown to the user' : ''}]`;
    case 'resource_link':
      return `[resource link: ${part.title ?? part.name} <${part.uri}>${part.mimeType ? ` (${part.mimeType})` : ''}${part.description ? `: ${part.description}` : ''}]`;
    case 'resource': {
      const head = `[resource <${part.uri}>${part.mimeType ? ` (${part.mimeType})` : ''}`;
      if (part.text !== undefined) return `${head}]\n${part.text}`;
      return `${head}, binary, ${formatBytes(part.bytes ?? 0)}${part.data ? '' : ', not kept: too large'}]`;
    }
  }
}

/** The whole answer as text, parts on their own lines. */
export function contentAsText(parts: ToolContent[]): string {
  return parts.map(describePart).join('\n');
}

/** An outcome for text (summaries, the terminal's history): its parts in words, never their bytes. */
export function outcomeInWords(outcome: ToolOutcome): unknown {
  if (outcome.status !== 'ok' || !outcome.content) return outcome;
  return { ...outcome, content: contentAsText(outcome.content) };
}

/** Meant for the user alone (annotations.audience): the model need not see its bytes. */
export function forUserOnly(part: ToolContent): boolean {
  const audience = part.annotations?.audience;
  return audience !== undefined && audience.length > 0 && !audience.includes('assistant');
}

/** The parts within `maxChars` of text (text parts and text resources together); what is cut says so. */
export function capContent(parts: ToolContent[], maxChars: number): ToolContent[] {
  let left = maxChars;
  return parts.map((part) => {
    const text = part.type === 'text' || part.type === 'resource' ? part.text : undefined;
    if (text === undefined) return part;
    const kept = text.length <= left ? text : cut(text, Math.max(0, left));
    left -= Math.min(text.length, left);
    return kept === text ? part : { ...part, text: kept };
  });
}

function cut(text: string, keep: number): string {
  return `${text.slice(0, keep)}\n[… cut: this text was ${text.length.toLocaleString('en-US')} characters; the first ${keep.toLocaleString('en-US')} are kept (MAX_TOOL_RESULT_CHARS).]`;
}
