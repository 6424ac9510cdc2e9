// A tool outcome as the model reads it. An outcome without content parts is JSON, as it always was. One with parts
// (an MCP tool's images, resources, annotations) is, for a provider that takes media in tool results, the AI SDK's
// `content` output: the outcome's status (and structured result) as JSON text, then each part in order, images as
// image data; for one that does not, JSON with the parts in words ("[image, image/png, 2.6 KB]").
import type { ToolResultPart } from 'ai';
import type { ToolContent, ToolOutcome } from '../../core/types';
import { contentAsText, describePart, forUserOnly } from '../../core/tool-content';

type Output = ToolResultPart['output'];
type ContentPart = Extract<Output, { type: 'content' }>['value'][number];

export function toolResultOutput(outcome: ToolOutcome, media: boolean): Output {
  if (outcome.status !== 'ok' || !outcome.content) return { type: 'json', value: JSON.parse(JSON.stringify(outcome)) };
  const { content, structured } = outcome;
  // Without structure, `result` is the parts' text already: the parts say it once.
  const head = structured ? { status: 'ok', result: outcome.result } : { status: 'ok' };
  if (!media) return { type: 'json', value: JSON.parse(JSON.stringify({ ...head, content: contentAsText(content) })) };
  return { type: 'content', value: [{ type: 'text', text: JSON.stringify(head) }, ...content.map(partFor)] };
}

/** Images go as image data (unless meant for the user alone); the rest in words, which every provider takes. */
function partFor(part: ToolContent): ContentPart {
  const image =
    part.type === 'image' ||
    (part.type === 'resource' && part.text === undefined && /^image\//.test(part.mimeType ?? ''))
      ? part
      : undefined;
  if (image?.data && !forUserOnly(image))
    return { type: 'image-data', data: image.data, mediaType: image.mimeType ?? 'application/octet-stream' };
  return { type: 'text', text: describePart(part) };
}
