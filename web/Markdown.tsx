// A model's words as GitHub-flavoured Markdown (tables, lists, code, links), never as HTML: raw HTML in the text is
// shown as text (rawAsText, before the sanitiser, which would drop it and keep the words between its tags), and what
// the Markdown makes passes rehype-sanitize's GitHub schema, which keeps only safe elements, attributes and link protocols. Links open in a new tab without
// handing it this page (noopener noreferrer) and say where they go when their words name another site; images show
// only from this API's own files, so a reply cannot make the browser fetch (and report to) another site.
import { useState, type ComponentProps, type MouseEvent, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import { steadyMarkdown } from '../core/markdown-stream';
import './markdown.css';

interface Props {
  text: string;
  /** Still being written: what would render half-made (a table without its delimiter row) waits. */
  streaming?: boolean;
}

export function Markdown({ text, streaming }: Props) {
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[rawAsText, rehypeSanitize]} components={components}>
        {streaming ? steadyMarkdown(text) : text}
      </ReactMarkdown>
    </div>
  );
}

interface HastNode {
  type: string;
  value?: string;
  children?: HastNode[];
}

/** A rehype plugin: the HTML written in the Markdown becomes the text it is, tags and all. */
function rawAsText() {
  const walk = (node: HastNode): void => {
    if (node.type === 'raw') node.type = 'text';
    node.children?.forEach(walk);
  };
  return walk;
}

const components: Components = {
  a: ({ href, children }) => <Link href={href}>{children}</Link>,
  img: ({ src, alt }) => <Image src={typeof src === 'string' ? src : undefined} alt={alt} />,
  pre: ({ children }) => <CodeBlock>{children}</CodeBlock>,
  // A wide table scrolls inside the message instead of widening the page.
  table: (props: ComponentProps<'table'>) => (
    <div className="table-scroll">
      <table>{props.children}</table>
    </div>
  ),
};

function Link({ href, children }: { href?: string; children: ReactNode }) {
  // The sanitiser leaves no href it does not trust (javascript:, data:): such a link is its words alone.
  if (!href) return <span data-testid="link-dropped">{children}</span>;
  const target = hostOf(href);
  const named = hostNamedBy(textOf(children));
  return (
    <>
      <a href={href} target="_blank" rel="noopener noreferrer" title={href}>
        {children}
      </a>
      {named && target && named !== target && (
        <span className="link-host" data-testid="link-host">
          {' '}
          ({target})
        </span>
      )}
    </>
  );
}

function Image({ src, alt }: { src?: string; alt?: string }) {
  if (src && isOwnFile(src)) return <img src={src} alt={alt ?? ''} loading="lazy" />;
  return (
    <span className="image-dropped" data-testid="image-dropped" title={src}>
      [image not shown{alt ? `: ${alt}` : ''}]
    </span>
  );
}

function CodeBlock({ children }: { children: ReactNode }) {
  const [copied, setCopied] = useState(false);
  const copy = (e: MouseEvent<HTMLButtonElement>) => {
    const code = e.currentTarget.closest('.code-block')?.querySelector('code')?.textContent ?? '';
    void navigator.clipboard.writeText(code).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    });
  };
  return (
    <div className="code-block">
      <div className="code-bar">
        <button type="button" className="copy" onClick={copy} data-testid="copy-code" aria-label="Copy code">
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <pre>{children}</pre>
    </div>
  );
}

/** Files this API serves (a conversation's files, a tool's stored result): the only images a reply may show. */
function isOwnFile(src: string): boolean {
  try {
    const url = new URL(src, location.href);
    return url.origin === location.origin && url.pathname.startsWith('/api/');
  } catch {
    return false;
  }
}

function hostOf(href: string): string | null {
  try {
    const url = new URL(href, location.href);
    return url.origin === location.origin ? null : siteOf(url.hostname);
  } catch {
    return null;
  }
}

/** The site a link's words name ("https://bank.example/login", "bank.example"), or null when they name none. */
function hostNamedBy(words: string): string | null {
  const m = /^\s*(?:https?:\/\/)?((?:[a-z0-9-]+\.)+[a-z]{2,})(?::\d+)?(?:[/?#]\S*)?\s*$/i.exec(words);
  return m ? siteOf(m[1]!) : null;
}

function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (node && typeof node === 'object' && 'props' in node) {
    return textOf((node.props as { children?: ReactNode }).children);
  }
  return '';
}

/** A host name as the comparison reads it: "www.bank.example" and "bank.example" are one site. */
function siteOf(host: string): string {
  return host.toLowerCase().replace(/^www\./, '');
}
