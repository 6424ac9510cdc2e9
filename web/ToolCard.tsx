// One tool call: the tool, what it does, its arguments, what it answered beyond JSON (images, resources: shown), and
// its result folded away. While the call waits for the user: Approve, Edit args (a JSON editor checked against the
// tool's input schema) or Reject with a reason.
import { useId, useState } from 'react';
import type { ConfirmDecision, ToolCall, ToolOutcome, ToolSpec } from './api';
import { checkEditedArgs } from '../core/check-args';
import { toolSummary } from '../core/format';
import { ResultFields, ToolContentView } from './ToolContentView';
import { StoredResult } from './attach-chip';
import { Markdown } from './Markdown';

interface Props {
  call: ToolCall;
  spec: ToolSpec | undefined;
  /** What the approval says to the user (the worker's words for them, e.g. how a made tool's examples ran); it comes
   * before the tool's description, which is written for the model. */
  description?: string;
  /** The agent this conversation delegated to, when the call waiting here is that agent's. */
  delegate?: string;
  /** The call as run (its args may have been edited) and what came of it. */
  result?: { call: ToolCall; outcome: ToolOutcome };
  pending: boolean;
  onDecide(decision: ConfirmDecision): Promise<void>;
}

export function ToolCard({ call, spec, description, delegate, result, pending, onDecide }: Props) {
  const args = result?.call.args ?? call.args;
  const edited = result !== undefined && JSON.stringify(result.call.args) !== JSON.stringify(call.args);
  // The approval's words are for the user, whole; the tool's description is for the model, so its first sentence.
  const about = description || (spec?.description ? toolSummary(spec.description) : undefined);
  // Code (a script, a made tool's body) reads as code, not as one JSON string full of \n.
  const code = typeof args.code === 'string' ? args.code : null;
  const rest = code === null ? args : Object.fromEntries(Object.entries(args).filter(([k]) => k !== 'code'));
  return (
    <article
      className="tool-card"
      data-testid="tool-card"
      data-tool={call.tool}
      data-call={call.id}
      aria-label={`Tool call ${call.tool}`}
    >
      <header className="tool-head">
        <span className="tool-name">{call.tool}</span>
        {delegate && <span className="tool-delegate">asked by {delegate}</span>}
        <span className="tool-status">
          {result ? outcomeLabel(result.outcome) : pending ? 'waiting for your approval' : 'pending'}
        </span>
      </header>
      {about && (
        <p className="tool-about" title={description ? undefined : spec?.description}>
          {about}
        </p>
      )}
      {code !== null && (
        <pre className="tool-code" aria-label="Code">
          {code}
        </pre>
      )}
      <pre className="tool-args" aria-label={edited ? 'Arguments, as edited' : 'Arguments'}>
        {JSON.stringify(rest, null, 2)}
      </pre>
      {edited && <p className="tool-about">Run with the arguments as you edited them.</p>}
      {result?.outcome.status === 'ok' && result.outcome.content && (
        <ToolContentView parts={result.outcome.content} server={spec?.mcp?.server ?? serverOf(call.tool)} />
      )}
      {result?.outcome.status === 'ok' && (spec?.kind === 'mcp' || result.outcome.structured) && (
        <ResultFields result={result.outcome.result} />
      )}
      {result?.outcome.status === 'ok' && result.outcome.stored && <StoredResult file={result.outcome.stored} />}
      {result && (
        <details className="tool-result">
          <summary>Result</summary>
          <ResultBody body={outcomeBody(result.outcome)} />
        </details>
      )}
      {pending && !result && <Approval call={call} spec={spec} onDecide={onDecide} />}
    </article>
  );
}

function Approval({ call, spec, onDecide }: Pick<Props, 'call' | 'spec' | 'onDecide'>) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(() => JSON.stringify(call.args, null, 2));
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const ids = useId();
  const checked = editing ? checkEditedArgs(text, spec?.inputSchema) : null;

  // Stays busy once sent: the approval event that follows replaces this card's buttons.
  async function decide(decision: ConfirmDecision) {
    setBusy(true);
    try {
      await onDecide(decision);
    } catch {
      setBusy(false);
    }
  }

  return (
    <div className="approval" role="group" aria-label={`Approve ${call.tool}?`}>
      {editing && (
        <div className="field">
          <label htmlFor={`${ids}-args`}>Arguments (JSON)</label>
          <textarea
            id={`${ids}-args`}
            data-testid="args-editor"
            className="args-editor"
            spellCheck={false}
            rows={Math.min(14, text.split('\n').length + 1)}
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-invalid={checked?.error ? true : undefined}
            aria-describedby={checked?.error ? `${ids}-args-error` : undefined}
          />
          {checked?.error && (
            <p id={`${ids}-args-error`} className="field-error" data-testid="args-error" role="alert">
              {checked.error}
            </p>
          )}
        </div>
      )}
      <div className="field">
        <label htmlFor={`${ids}-reason`}>Reason, if you reject</label>
        <input
          id={`${ids}-reason`}
          data-testid="reject-reason"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      </div>
      <div className="actions">
        <button
          type="button"
          className="primary"
          data-testid="approve"
          disabled={busy || Boolean(checked?.error)}
          onClick={() =>
            void decide(
              checked?.args
                ? { approve: true, args: checked.args, callId: call.id }
                : { approve: true, callId: call.id },
            )
          }
        >
          {editing ? 'Approve with these args' : 'Approve'}
        </button>
        <button
          type="button"
          data-testid="edit-args"
          aria-expanded={editing}
          disabled={busy}
          onClick={() => setEditing(!editing)}
        >
          {editing ? 'Keep original args' : 'Edit args'}
        </button>
        <button
          type="button"
          className="danger"
          data-testid="reject"
          disabled={busy}
          onClick={() =>
            void decide({ approve: false, reason: reason.trim() || 'The user rejected this call.', callId: call.id })
          }
        >
          Reject
        </button>
      </div>
    </div>
  );
}

function outcomeLabel(o: ToolOutcome): string {
  switch (o.status) {
    case 'ok':
      return 'done';
    case 'invalid_input':
      return 'invalid input';
    case 'tool_error':
      return 'failed';
    case 'rejected':
      return 'rejected';
  }
}

/** A result in words (an MCP tool's text, say) as Markdown; anything else as its JSON. */
function ResultBody({ body }: { body: unknown }) {
  return typeof body === 'string' ? <Markdown text={body} /> : <pre>{JSON.stringify(body, null, 2)}</pre>;
}

function outcomeBody(o: ToolOutcome): unknown {
  switch (o.status) {
    case 'ok':
      return o.result;
    case 'invalid_input':
      return { problems: o.problems, missing: o.missing };
    case 'tool_error':
      return { error: o.error };
    case 'rejected':
      return { reason: o.reason };
  }
}

/** The MCP server in a tool's name (`<server>__<tool>`), for when its spec has not loaded (or is gone). */
function serverOf(tool: string): string | undefined {
  const at = tool.indexOf('__');
  return at > 0 ? tool.slice(0, at) : undefined;
}
