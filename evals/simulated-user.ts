// The user played by a model: it is given a persona and a goal, reads the agent's words (as its "user" messages; its
// own lines are the "assistant's"), and answers with the user's next message, or DONE once the goal is met or cannot
// be. Asked to approve a tool call, it answers APPROVE or REJECT with a reason. Offline (the scripted model under test)
// a scripted model plays it from the scenario's `user.script`: the first rule whose regex matches the agent's words.
import { generateText, type LanguageModel, type ModelMessage } from 'ai';
import type { PendingApproval } from '../core/conversation-types';
import { ScriptedModel } from '../activities/llm/scripted-model';
import type { SimulatedUser as UserSpec } from './scenario';
import type { Decision, EvalUser } from './users';

const DONE = /^\W*DONE\b/;

export class SimulatedUser implements EvalUser {
  private readonly messages: ModelMessage[] = [];
  private said = 0;
  unfinished?: string;

  constructor(
    private readonly model: LanguageModel,
    private readonly spec: UserSpec,
  ) {}

  async next(agentWords: string): Promise<string | null> {
    if (this.said >= this.spec.maxTurns) {
      this.unfinished = `the played user was still not done after its ${this.spec.maxTurns} turns (user.maxTurns)`;
      return null;
    }
    const text = await this.ask(agentWords || '(the agent said nothing)');
    if (DONE.test(text)) return null;
    this.said++;
    return text;
  }

  async decide(pending: PendingApproval): Promise<Decision> {
    const text = await this.ask(
      `[The agent asks your approval to run ${pending.tool} with ${JSON.stringify(pending.call.args)}. ` +
        'Answer APPROVE, or REJECT: and your reason.]',
    );
    if (/^\W*APPROVE\b/i.test(text)) return { approve: true };
    return { approve: false, reason: text.replace(/^\W*REJECT\W*/i, '') || 'no' };
  }

  private async ask(agentWords: string): Promise<string> {
    this.messages.push({ role: 'user', content: agentWords });
    const { text } = await generateText({ model: this.model, system: this.system(), messages: this.messages });
    this.messages.push({ role: 'assistant', content: text });
    return text.trim();
  }

  private system(): string {
    return [
      'You play a user talking to an AI agent, to test the agent. Stay in character; never say you are an AI.',
      `Who you are: ${this.spec.persona}`,
      `What you want from the agent: ${this.spec.goal}`,
      "The agent's messages come to you as the user's. Answer with the user's next message only, short, as a person",
      'would type it. Give the agent what it asks for when your persona knows it. When you have what you wanted, or',
      'it is clear you will not get it, answer exactly DONE.',
    ].join('\n');
  }
}

/** The scripted stand-in for the played user: its rules answer the agent's words; nothing matching, it is done. */
export function scriptedUserModel(spec: UserSpec): LanguageModel {
  return new ScriptedModel(
    {
      rules: (spec.script ?? []).map((r) => ({ user: r.when, reply: { text: r.say } })),
      fallback: { text: 'DONE' },
    },
    'scripted-user',
  );
}
