// The messages of a conversation as the user sees them: their words, the agent's, each tool call as a card (its
// result folded in, its approval buttons while it waits), and notes such as an agent switch or a hook's decision.
import { Fragment, type ReactNode } from 'react';
import type { ConfirmDecision, PendingApproval, SeqMessage, ToolCall, ToolSpec } from './api';
import { isStarter } from './chat-state';
import { ToolCard } from './ToolCard';
import { splitAttachment } from '../core/attachment';
import type { BlobRef } from '../core/blobs';
import { FileChips } from './attach-chip';
import { Markdown } from './Markdown';

interface Props {
  messages: SeqMessage[];
  pending: PendingApproval | null;
  tools: Map<string, ToolSpec>;
  onDecide(decision: ConfirmDecision): Promise<void>;
}

export function Transcript({ messages, pending, tools, onDecide }: Props) {
  const results = new Map(messages.flatMap(({ message: m }) => (m.kind === 'tool' ? [[m.call.id, m] as const] : [])));
  const shown = new Set<string>();
  const card = (call: ToolCall, key: string | number): ReactNode => {
    shown.add(call.id);
    const waiting = pending?.call.id === call.id;
    return (
      <ToolCard
        key={key}
        call={call}
        spec={tools.get(call.tool)}
        description={waiting ? pending?.description : undefined}
        delegate={waiting ? pending?.delegate?.agentName : undefined}
        result={results.get(call.id)}
        pending={waiting}
        onDecide={onDecide}
      />
    );
  };
  const items = messages.map((item) => {
    const { seq, message: m } = item;
    switch (m.kind) {
      case 'user':
        if (isStarter(item)) return null;
        return <UserMessage key={seq} text={m.text} files={m.attachments} />;
      case 'agent':
        return (
          <Fragment key={seq}>
            {m.text && (
              <div className="msg agent">
                <span className="sr-only">Agent: </span>
                <div data-testid="message-agent">
                  <Markdown text={m.text} />
                </div>
              </div>
            )}
            {m.toolCalls.map((call) => card(call, call.id))}
          </Fragment>
        );
      case 'tool':
        return shown.has(m.call.id) ? null : card(m.call, seq);
      case 'note':
        // A hook's decision (a redaction, a guardrail's block) stands out from the agent's own notes.
        return m.hook ? (
          <p key={seq} className={`note hook hook-${m.hook.action}`} data-testid="message-hook">
            {m.text}
          </p>
        ) : (
          <p key={seq} className="note" data-testid="message-note">
            {m.text}
          </p>
        );
    }
  });
  // An approval whose call came before the messages this view holds (an old, summarised turn).
  const orphan = pending && !shown.has(pending.call.id) ? card(pending.call, `pending-${pending.call.id}`) : null;
  return (
    <div className="log" role="log" aria-label="Messages">
      {items}
      {orphan}
    </div>
  );
}

/** The user's words, their files as chips, and a resource attached to them (agent say --resource) folded away. */
function UserMessage({ text, files }: { text: string; files?: BlobRef[] }) {
  const { text: words, attachment } = splitAttachment(text);
  return (
    <div className="msg user">
      <span className="sr-only">You: </span>
      <span data-testid="message-user">{words}</span>
      {files?.length ? <FileChips files={files} /> : null}
      {attachment && (
        <details className="attachment" data-testid="attachment">
          <summary>{attachment.title}</summary>
          <pre>{attachment.body}</pre>
        </details>
      )}
    </div>
  );
}
