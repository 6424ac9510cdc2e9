// The questions running tools ask the user (core/tool-questions.ts). A question belongs to the tool call in flight:
// it opens when the call's activity asks (the toolQuestion update), waits for the user's answer (the answerQuestion
// update) or TOOL_QUESTION_TIMEOUT, and is withdrawn (answered `cancel`) when the call ends first — a call that
// failed, was cancelled, or lost its worker leaves no question behind for the user.
import type { ToolCall } from '../../core/types';
import { formProblems, type AnsweredQuestion, type QuestionAnswer, type ToolQuestion } from '../../core/tool-questions';

interface Asked {
  question: ToolQuestion;
  answer: QuestionAnswer | null;
}

/** Where a delegate's tool's question comes from, and its answer goes (Delegations). */
export interface DelegatedQuestions {
  toolQuestionShown(): ToolQuestion | null;
  answerToolQuestion(answered: AnsweredQuestion): void;
}

export class Questions {
  /** The tool call whose activity is running: the only one that may ask. */
  private call: ToolCall | null = null;
  private readonly asked = new Map<string, Asked>();

  constructor(private readonly delegated: DelegatedQuestions) {}

  /** The workflow runs a tool call: its activity may ask until it ends. */
  during(call: ToolCall): void {
    this.call = call;
  }

  /** The call ended (any way): questions still open are withdrawn. */
  callEnded(): void {
    this.call = null;
    for (const a of this.asked.values()) a.answer ??= { action: 'cancel' };
  }

  /** Why a tool's question is refused (the update's validator), or null. */
  askRefusal(question: ToolQuestion, ended: boolean): string | null {
    if (ended) return 'the conversation has ended';
    if (!this.call) return 'no tool call is running in this conversation';
    if (!question?.id || !question.message) return 'a question needs an id and a message';
    return null;
  }

  ask(question: ToolQuestion): ToolQuestion {
    const shown = { ...question, callId: this.call?.id };
    if (!this.asked.has(question.id)) this.asked.set(question.id, { question: shown, answer: null });
    return shown;
  }

  /** The question the user is asked now: a running tool's own, else one a delegate's tool asks. */
  open(): ToolQuestion | null {
    return this.shown() ?? this.delegated.toolQuestionShown();
  }

  /** Why the user's answer to the open question is refused (the update's validator), or null. */
  refusal(input: AnsweredQuestion, ended: boolean): string | null {
    return this.answerRefusal(input, ended, this.open());
  }

  /** The user's answer: to this conversation's running tool, or down to the delegate whose tool asks. */
  take(input: AnsweredQuestion, ended: boolean): void {
    if (this.refusal(input, ended)) return;
    const own = this.shown();
    if (own) this.asked.get(own.id)!.answer = input.answer;
    else this.delegated.answerToolQuestion(input);
  }

  /** This conversation's own question shown now: the oldest one open. */
  shown(): ToolQuestion | null {
    for (const a of this.asked.values()) if (!a.answer) return a.question;
    return null;
  }

  /** Pure: the answer to a question, once there is one. Safe inside condition(). */
  answerOf(id: string): QuestionAnswer | null {
    return this.asked.get(id)?.answer ?? null;
  }

  /** The question's answer goes back to its tool; the record goes (update ids de-duplicate a re-ask). */
  settle(id: string, timedOut: boolean): QuestionAnswer {
    const answer = this.asked.get(id)?.answer ?? null;
    this.asked.delete(id);
    return answer ?? (timedOut ? { action: 'decline' } : { action: 'cancel' });
  }

  private answerRefusal(input: AnsweredQuestion, ended: boolean, open: ToolQuestion | null): string | null {
    if (ended) return 'the conversation has ended';
    if (!open) return 'no tool is asking anything';
    if (input?.questionId && input.questionId !== open.id)
      return `that question is no longer open (the tool now asks: ${open.message})`;
    const action = input?.answer?.action;
    if (action !== 'accept' && action !== 'decline' && action !== 'cancel')
      return 'the answer must be accept (with the form content), decline or cancel';
    if (action === 'accept' && open.kind === 'form') {
      // Checked here, so the user hears at once what is wrong, not the server after the answer went back.
      const schema = open.schema ?? { type: 'object', properties: {} };
      const content = input.answer.content ?? {};
      const { problems } = formProblems(schema, content);
      if (problems.length) return `the form's content does not fit: ${problems.join(' ')}`;
    }
    return null;
  }
}
