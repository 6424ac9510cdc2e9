// A running tool's question (an MCP server's elicitation or sampling request), answered in the page: a form
// generated from the requested schema with Accept / Decline / Cancel, a link with "I did it" / Decline, or the prompt
// a server wants our model to answer with Approve / Decline. The form's content is checked by the checker the
// workflow runs (core/check-args.ts) before it is sent, so a mistake is shown here, next to its field.
import { useId, useState, type FormEvent } from 'react';
import type { QuestionAnswer, ToolQuestion } from './api';
import { formProblems } from '../core/tool-questions';
import { QuestionFieldInput, initialValue, toContent, type RawValue } from './QuestionFieldInput';

interface Props {
  question: ToolQuestion;
  onAnswer(answer: QuestionAnswer): Promise<void>;
}

export function QuestionForm({ question, onAnswer }: Props) {
  const [busy, setBusy] = useState(false);
  const ids = useId();

  // Stays busy once sent: the question event that follows takes this form away.
  async function answer(a: QuestionAnswer) {
    setBusy(true);
    try {
      await onAnswer(a);
    } catch {
      setBusy(false);
    }
  }

  return (
    <section
      className="question"
      data-testid="question"
      data-kind={question.kind}
      aria-labelledby={`${ids}-title`}
      role="group"
    >
      <header className="tool-head">
        <span className="tool-name">{question.tool}</span>
        {question.delegate && <span className="tool-delegate">asked by {question.delegate.agentName}</span>}
        <span className="tool-status">{KIND_LABEL[question.kind]}</span>
      </header>
      <p id={`${ids}-title`} className="question-message" data-testid="question-message">
        {question.message}
      </p>
      {question.kind === 'form' && <Form question={question} busy={busy} onAnswer={answer} />}
      {question.kind === 'url' && (
        <>
          <p className="question-link">
            <a href={question.url} target="_blank" rel="noopener noreferrer" data-testid="question-url">
              {question.url}
            </a>
          </p>
          <AnswerButtons accept="I did it" busy={busy} onAnswer={answer} />
        </>
      )}
      {question.kind === 'sampling' && question.sampling && (
        <>
          <p className="tool-about">
            What our model would answer (at most {question.sampling.maxTokens} tokens, counted in this
            conversation&apos;s usage):
          </p>
          {question.sampling.systemPrompt && (
            <pre className="tool-args" aria-label="System prompt">
              {question.sampling.systemPrompt}
            </pre>
          )}
          <pre className="tool-args" aria-label="Prompt" data-testid="question-prompt">
            {question.sampling.prompt}
          </pre>
          <AnswerButtons accept="Approve" busy={busy} onAnswer={answer} />
        </>
      )}
    </section>
  );
}

const KIND_LABEL = { form: 'asks you', url: 'asks you to open a page', sampling: 'asks to use the model' } as const;

function Form({
  question,
  busy,
  onAnswer,
}: {
  question: ToolQuestion;
  busy: boolean;
  onAnswer(a: QuestionAnswer): Promise<void>;
}) {
  const schema = question.schema ?? { type: 'object' as const, properties: {} };
  const required = new Set(schema.required ?? []);
  const fields = Object.entries(schema.properties);
  const [values, setValues] = useState<Record<string, RawValue>>(() =>
    Object.fromEntries(fields.map(([name, field]) => [name, initialValue(field)])),
  );
  const [problems, setProblems] = useState<string[]>([]);
  const ids = useId();

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    // The browser checks what its inputs know (e-mail, URL, bounds); then the schema, as the workflow will.
    if (!e.currentTarget.reportValidity()) return;
    const content = toContent(schema, values);
    const checked = formProblems(schema, content);
    const found = [
      ...(checked.missing.length
        ? [`Required: ${checked.missing.map((n) => schema.properties[n]?.title ?? n).join(', ')}.`]
        : []),
      ...checked.problems.filter((p) => !p.startsWith('missing required')),
    ];
    setProblems(found);
    if (!found.length) void onAnswer({ action: 'accept', content });
  }

  return (
    <form className="question-form" onSubmit={submit} aria-describedby={`${ids}-problems`}>
      {fields.map(([name, field]) => (
        <QuestionFieldInput
          key={name}
          name={name}
          field={field}
          required={required.has(name)}
          value={values[name]!}
          disabled={busy}
          onChange={(v) => {
            setValues((old) => ({ ...old, [name]: v }));
            setProblems([]);
          }}
        />
      ))}
      {problems.length > 0 && (
        <ul id={`${ids}-problems`} className="field-error" role="alert" data-testid="question-error">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      <p className="tool-about">* required</p>
      <AnswerButtons accept="Accept" submits cancel busy={busy} onAnswer={onAnswer} />
    </form>
  );
}

/** Accept (the form's submit, or an answer of its own), Decline, and Cancel where the question offers it. */
function AnswerButtons(props: {
  accept: string;
  submits?: boolean;
  cancel?: boolean;
  busy: boolean;
  onAnswer(answer: QuestionAnswer): Promise<void>;
}) {
  const { accept, submits, cancel, busy, onAnswer } = props;
  const button = (action: QuestionAnswer['action'], label: string, className?: string) => (
    <button
      type="button"
      className={className}
      data-testid={`question-${action}`}
      disabled={busy}
      onClick={() => void onAnswer({ action } as QuestionAnswer)}
    >
      {label}
    </button>
  );
  return (
    <div className="actions">
      {submits ? (
        <button type="submit" className="primary" data-testid="question-accept" disabled={busy}>
          {accept}
        </button>
      ) : (
        button('accept', accept, 'primary')
      )}
      {button('decline', 'Decline')}
      {cancel && button('cancel', 'Cancel', 'danger')}
    </div>
  );
}
