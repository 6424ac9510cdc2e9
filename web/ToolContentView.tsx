// What a tool answered beyond JSON, as the user sees it: text as Markdown, images inline, audio playable, resource links as links,
// embedded resources as text blocks, annotations as small labels, and a structured result as a table of its fields.
import type { ContentAnnotations, ToolContent } from '../core/types';
import { describePart, formatBytes } from '../core/tool-content';
import { Markdown } from './Markdown';

/** The parts in their order; `server` is the MCP endpoint that answered (a resource link opens through the API). */
export function ToolContentView({ parts, server }: { parts: ToolContent[]; server?: string }) {
  return (
    <div className="tool-content" data-testid="tool-content">
      {parts.map((part, i) => (
        <Part key={i} part={part} server={server} />
      ))}
    </div>
  );
}

function Part({ part, server }: { part: ToolContent; server?: string }) {
  switch (part.type) {
    case 'text':
      return (
        <div className="content-text" data-testid="content-text">
          <Markdown text={part.text} />
          <Annotations annotations={part.annotations} />
        </div>
      );
    case 'image':
      return part.data ? (
        <figure className="content-media">
          <img
            data-testid="content-image"
            src={`data:${part.mimeType};base64,${part.data}`}
            alt={`Image from the tool (${part.mimeType}, ${formatBytes(part.bytes)})`}
          />
          <Annotations annotations={part.annotations} />
        </figure>
      ) : (
        <p className="content-missing" data-testid="content-missing">
          {describePart(part)}
        </p>
      );
    case 'audio':
      return part.data ? (
        <audio
          data-testid="content-audio"
          controls
          src={`data:${part.mimeType};base64,${part.data}`}
          aria-label="Audio from the tool"
        />
      ) : (
        <p className="content-missing">{describePart(part)}</p>
      );
    case 'resource_link':
      return (
        <p className="content-link">
          <a data-testid="resource-link" href={resourceHref(part.uri, server)} target="_blank" rel="noreferrer">
            {part.title ?? part.name}
          </a>{' '}
          <span className="content-meta">
            {part.uri}
            {part.mimeType ? ` · ${part.mimeType}` : ''}
            {part.description ? ` · ${part.description}` : ''}
          </span>
          <Annotations annotations={part.annotations} />
        </p>
      );
    case 'resource':
      return (
        <figure className="content-resource" data-testid="content-resource">
          <figcaption className="content-meta">
            {part.uri}
            {part.mimeType ? ` · ${part.mimeType}` : ''}
          </figcaption>
          {part.text !== undefined ? (
            <pre>{part.text}</pre>
          ) : part.data && part.mimeType?.startsWith('image/') ? (
            <img src={`data:${part.mimeType};base64,${part.data}`} alt={`Resource ${part.uri}`} />
          ) : (
            <p className="content-missing">binary, {formatBytes(part.bytes ?? 0)}</p>
          )}
        </figure>
      );
  }
}

/** A web link opens as it is; any other URI (demo://, file://) is read through the API by the server that gave it. */
function resourceHref(uri: string, server: string | undefined): string | undefined {
  if (/^https?:\/\//i.test(uri)) return uri;
  if (!server) return undefined;
  return `/api/endpoints/${encodeURIComponent(server)}/resource?uri=${encodeURIComponent(uri)}`;
}

function Annotations({ annotations }: { annotations?: ContentAnnotations }) {
  if (!annotations) return null;
  const who =
    annotations.audience?.length === 1 ? (annotations.audience[0] === 'user' ? 'for you' : 'for the agent') : null;
  const labels = [who, annotations.priority !== undefined ? `priority ${annotations.priority}` : null].filter(Boolean);
  if (!labels.length) return null;
  return (
    <span className="content-annotations" data-testid="content-annotations">
      {labels.join(' · ')}
    </span>
  );
}

/** A result whose fields are all plain values, as a table; anything else is left to the JSON view. */
export function ResultFields({ result }: { result: unknown }) {
  if (!result || typeof result !== 'object' || Array.isArray(result)) return null;
  const entries = Object.entries(result as Record<string, unknown>);
  if (!entries.length || entries.length > 20 || entries.some(([, v]) => v !== null && typeof v === 'object'))
    return null;
  return (
    <table className="result-fields" data-testid="result-fields">
      <tbody>
        {entries.map(([k, v]) => (
          <tr key={k}>
            <th scope="row">{k}</th>
            <td>{String(v)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
