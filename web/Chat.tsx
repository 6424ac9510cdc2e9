// One conversation: its messages, the reply being written (streamed), tool calls and approvals, a running tool's
// question and progress, and the box to write in. It loads the conversation, then follows its events from the next message on; a reload does the same,
// so a turn in progress resumes with its partial text.
import { useEffect, useReducer, useRef, useState, type FormEvent } from 'react';
import {
  ApiError,
  api,
  messageOf,
  openEvents,
  type ConfirmDecision,
  type ConversationState,
  type QuestionAnswer,
  type ToolSpec,
  type Usage,
} from './api';
import { EMPTY, isStarter, nextSeq, reduce } from './chat-state';
import { Transcript } from './Transcript';
import { QuestionForm } from './QuestionForm';
import { ToolProgressLine } from './ToolProgressLine';
import { RunView, runViewOpen } from './RunView';
import { Markdown } from './Markdown';
import { busyRefusal, WhileBusyNote } from './WhileBusy';
import type { WhileBusy } from '../core/types';
import { formatUsd } from '../core/format';
import { AttachButton, PendingFiles, useAttachments, useDropZone } from './Attachments';

interface Props {
  id: string;
  agentName(goalId: string): string;
  /** Tells the app which agent the conversation is with and its state (null when the view closes). */
  onStatus(status: { goalId: string; state: ConversationState; title: string | null } | null): void;
}

export function Chat({ id, agentName, onStatus }: Props) {
  const [s, dispatch] = useReducer(reduce, EMPTY);
  const [error, setError] = useState<string | null>(null);
  const [reconnecting, setReconnecting] = useState(false);
  const [tools, setTools] = useState<Map<string, ToolSpec>>(new Map());
  const [draft, setDraft] = useState('');
  const [sending, setSending] = useState(false);
  const [stopping, setStopping] = useState(false);
  const [busyChoice, setBusyChoice] = useState<WhileBusy | null>(null);
  const [runOpen, setRunOpen] = useState(runViewOpen.get);
  const endRef = useRef<HTMLDivElement>(null);
  const lastState = useRef<ConversationState | null>(null);
  const attached = useAttachments(id);
  const drop = useDropZone(attached.add, s.state !== 'ended');

  useEffect(() => {
    let closed = false;
    let close = () => {};
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    const retry = () => {
      failures++;
      timer = setTimeout(() => void connect(), Math.min(1000 * 2 ** failures, 15_000));
    };
    async function connect() {
      try {
        const c = await api.conversation(id);
        if (closed) return;
        dispatch({ type: 'loaded', conversation: c });
        setError(null);
        setReconnecting(false);
        if (c.state === 'ended') return;
        close = openEvents(id, nextSeq(c.messages), {
          onEvent(e) {
            dispatch({ type: 'event', e });
            if (e.event === 'state' && e.data.state === 'ended') close(); // the server ends the stream; do not reconnect
            failures = 0;
          },
          onLink: (up) => setReconnecting(!up),
          onClosed() {
            close();
            setReconnecting(true);
            retry();
          },
        });
      } catch (err) {
        if (closed) return;
        setError(messageOf(err));
        // A 401 waits for the key prompt (which reopens this view); an unknown id stays unknown.
        if (err instanceof ApiError && [400, 401, 404].includes(err.status)) return;
        retry();
      }
    }
    void connect();
    return () => {
      closed = true;
      clearTimeout(timer);
      close();
    };
  }, [id]);

  // Token usage is summed by the workflow: read it again when a turn ends.
  useEffect(() => {
    const was = lastState.current;
    lastState.current = s.state;
    if (was !== 'working' || !s.state || s.state === 'working') return;
    api.conversation(id).then(
      (c) => dispatch({ type: 'usage', usage: c.usage }),
      () => {},
    );
  }, [id, s.state]);

  // The conversation's title, as the server's list gives it (the first prompt): the list shows it before the server does.
  const firstPrompt = s.messages.find((m) => m.message.kind === 'user' && !isStarter(m))?.message;
  const title = firstPrompt?.kind === 'user' ? firstPrompt.text : null;
  useEffect(() => {
    if (s.goalId && s.state) onStatus({ goalId: s.goalId, state: s.state, title });
  }, [s.goalId, s.state, title, onStatus]);
  useEffect(() => () => onStatus(null), [onStatus]);

  useEffect(() => {
    if (!s.goalId) return;
    let live = true;
    api.tools(s.goalId).then(
      (list) => live && setTools(new Map(list.map((t) => [t.name, t]))),
      () => live && setTools(new Map()),
    );
    return () => {
      live = false;
    };
  }, [s.goalId]);

  useEffect(() => {
    const nearBottom = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 240;
    if (nearBottom) endRef.current?.scrollIntoView({ block: 'end' });
  }, [s.messages.length, s.partial?.text, s.pending, s.state, s.question]);

  async function send(e?: FormEvent) {
    e?.preventDefault();
    const text = draft.trim();
    if (!text || sending || attached.uploading) return;
    setSending(true);
    setError(null);
    try {
      await api.say(
        id,
        text,
        attached.refs.map((f) => f.id),
        s.state === 'working' ? (busyChoice ?? undefined) : undefined,
      );
      setDraft('');
      setBusyChoice(null);
      attached.clear();
    } catch (err) {
      setError((err instanceof ApiError && busyRefusal(err.status, err.message)) || messageOf(err));
    } finally {
      setSending(false);
    }
  }

  async function stop() {
    setStopping(true);
    try {
      await api.cancel(id);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setStopping(false);
    }
  }

  async function decide(decision: ConfirmDecision) {
    setError(null);
    try {
      await api.confirm(id, decision);
    } catch (err) {
      setError(messageOf(err));
      throw err;
    }
  }

  async function answerQuestion(questionId: string, answer: QuestionAnswer) {
    setError(null);
    try {
      await api.answer(id, questionId, answer);
    } catch (err) {
      setError(messageOf(err));
      throw err;
    }
  }

  const ended = s.state === 'ended';

  return (
    <section className={runOpen ? 'chat with-run' : 'chat'} aria-labelledby="chat-title">
      <header className="chat-head">
        <div className="chat-title">
          <h1 id="chat-title">{title ?? 'New conversation'}</h1>
          <p className="meta">
            {s.goalId && <span>{agentName(s.goalId)}</span>}
            {s.state && (
              <span className={`badge state-${s.state}`} data-testid="state" data-state={s.state}>
                {s.state.replace(/_/g, ' ')}
              </span>
            )}
            {s.usage && (
              <span data-testid="usage" title={usageDetail(s.usage)}>
                {s.usage.totalTokens.toLocaleString()} tokens
                {!!s.usage.cachedInputTokens && (
                  <span data-testid="cached"> ({s.usage.cachedInputTokens.toLocaleString()} cached)</span>
                )}
                {s.usage.costUsd !== undefined && <span data-testid="cost"> · {formatUsd(s.usage.costUsd)}</span>}
              </span>
            )}
            {reconnecting && <span className="badge warn">reconnecting…</span>}
          </p>
        </div>
        <div className="chat-actions">
          <button
            type="button"
            data-testid="run-toggle"
            aria-pressed={runOpen}
            title="Every step of this conversation and its delegates, live"
            onClick={() => {
              runViewOpen.set(!runOpen);
              setRunOpen(!runOpen);
            }}
          >
            Run
          </button>
          {s.state === 'working' && (
            <button type="button" className="danger" data-testid="stop" onClick={() => void stop()} disabled={stopping}>
              {stopping ? 'Stopping…' : 'Stop'}
            </button>
          )}
        </div>
      </header>
      {runOpen && <RunView id={id} />}
      {error && (
        <p className="error" role="alert" data-testid="chat-error">
          {error}
        </p>
      )}
      {s.problem && (
        <p className="error" role="status">
          {s.problem}
        </p>
      )}
      <Transcript messages={s.messages} pending={s.pending} tools={tools} onDecide={decide} />
      {/* Under the tool card of the call running now: its progress, and what it asks the user. */}
      {s.progress && (s.state === 'working' || s.question) && <ToolProgressLine progress={s.progress} />}
      {s.question && !ended && (
        <QuestionForm
          key={s.question.id}
          question={s.question}
          onAnswer={(answer) => answerQuestion(s.question!.id, answer)}
        />
      )}
      {/* Outside the log: screen readers hear the finished message, not every token. */}
      {s.partial?.text && (
        <div className="msg agent streaming" data-testid="streaming" aria-busy="true">
          <Markdown text={s.partial.text} streaming />
        </div>
      )}
      {s.state === 'working' && (
        <p className="working" role="status" data-testid="working">
          <span className="dots" aria-hidden="true" /> The agent is working…
        </p>
      )}
      <div ref={endRef} />
      {ended ? (
        <p className="ended">
          This conversation has ended. <a href="#/">Start another</a>
        </p>
      ) : (
        <form
          className={drop.dragging ? 'composer dragging' : 'composer'}
          onSubmit={(e) => void send(e)}
          data-testid="composer"
          {...drop.handlers}
        >
          {drop.dragging && (
            <p className="drop-zone" aria-hidden="true">
              Drop files to attach them
            </p>
          )}
          {s.state === 'working' && (
            <WhileBusyNote setting={s.whileBusy} choice={busyChoice} onChoose={setBusyChoice} />
          )}
          <PendingFiles files={attached.files} limit={attached.limit} onRemove={attached.remove} />
          <AttachButton onFiles={attached.add} disabled={sending} limit={attached.limit} />
          <label htmlFor="prompt-input" className="sr-only">
            Your message
          </label>
          <textarea
            id="prompt-input"
            data-testid="prompt-input"
            rows={2}
            autoFocus
            placeholder={
              attached.files.length
                ? 'Say what to do with the files; Enter sends'
                : 'Write a message; Enter sends, Shift+Enter starts a new line'
            }
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                void send();
              }
            }}
          />
          <button
            type="submit"
            className="primary"
            data-testid="send"
            disabled={sending || attached.uploading || !draft.trim()}
          >
            {sending ? 'Sending…' : attached.uploading ? 'Uploading…' : 'Send'}
          </button>
        </form>
      )}
    </section>
  );
}

function usageDetail(u: Usage): string {
  const cached = u.cachedInputTokens ? ` (${u.cachedInputTokens.toLocaleString()} of them cached)` : '';
  return `${u.inputTokens.toLocaleString()} in${cached}, ${u.outputTokens.toLocaleString()} out${u.costUsd !== undefined ? ` (${formatUsd(u.costUsd)} at the worker's prices)` : ''}`;
}
