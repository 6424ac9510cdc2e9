// The agent's replies, as update handlers wait for them: a watched prompt gets the reply the agent gives when it
// next needs the user after that prompt; the end of the conversation answers every prompt still waiting.
import type { AgentReply } from '../../core/conversation-types';

export class Replies {
  /** How many times the agent stopped to wait for the user; confirm updates wait for it to move. */
  pauses = 0;
  last: AgentReply | null = null;
  private readonly watched = new Map<number, AgentReply | null>();
  /** A prompt whose turn another prompt joined (Steering): the joined prompt's reply answers it too. */
  private readonly joined = new Map<number, number>();

  watch(promptId: number): void {
    this.watched.set(promptId, null);
  }

  /** Pure: whether the watched prompt has its reply yet. Safe inside condition(). */
  has(promptId: number): boolean {
    return (this.watched.get(promptId) ?? null) !== null;
  }

  /** The reply to a watched prompt, once the agent needs the user again; collecting it stops the watch. */
  collect(promptId: number): AgentReply | null {
    const reply = this.watched.get(promptId) ?? null;
    this.watched.delete(promptId);
    return reply;
  }

  /** Whether an update handler still waits for a reply (continue-as-new must wait for it). */
  waiting(): boolean {
    return this.watched.size > 0;
  }

  /** `prompt` joined the turn that answers `answering`: one reply answers both. */
  join(answering: number, prompt: number): void {
    // Those `answering` had joined are answered by `prompt`'s reply now.
    for (const [earlier, joinedBy] of this.joined) if (joinedBy === answering) this.joined.set(earlier, prompt);
    this.joined.set(answering, prompt);
  }

  /** The agent now needs the user: this is its reply to the prompt it was working on (and those it joined). */
  publish(reply: AgentReply): void {
    this.pauses++;
    this.last = reply;
    for (const [answering, prompt] of this.joined) {
      if (prompt !== reply.promptId) continue;
      this.joined.delete(answering);
      if (this.watched.get(answering) === null) this.watched.set(answering, reply);
    }
    if (this.watched.has(reply.promptId) && this.watched.get(reply.promptId) === null)
      this.watched.set(reply.promptId, reply);
    if (reply.ended)
      for (const id of this.watched.keys()) if (this.watched.get(id) === null) this.watched.set(id, reply);
  }
}
