// The tools a conversation has and the ones the LLM is offered each step: all of them, or, past
// TOOL_SEARCH_THRESHOLD, the builtins, the tools it used lately, those SearchTools found this turn, and SearchTools
// (hundreds of schemas on every request cost time, money and worse picks; every tool stays callable). It also
// decides when MCP tools are looked at again: they are live, and servers come and go between turns.
import { ASK_AGENT } from '../../core/builtin-specs';
import { SEARCH_TOOLS, SEARCH_TOOLS_SPEC } from '../../core/search-tools';
import { READ_FILE, READ_FILE_SPEC } from '../../core/read-file';
import { HeldFiles } from './files';
import { interned, internedGoal } from '../interned';
import type { CatalogSummary, Goal, ResolvedGoal, ToolSpec } from '../../core/types';
import type { MadeHere } from '../../core/conversation-types';
import type { MessageLog } from './message-log';

export class ToolOffer {
  tools: ToolSpec[] = [];
  catalog: CatalogSummary | null = null;
  /** Offer only some tools past this many (0: offer all). */
  searchThreshold = 0;
  /** A goal with delegates is looked at again before each turn too (RunVersions.refreshDelegates). */
  refreshDelegates = false;
  /** Re-resolve MCP tools before each turn (RunVersions.refreshToolsEachTurn). */
  refreshEachTurn = false;
  /** The goal and tools as last resolved, before task mode adapts them. */
  private resolved: ResolvedGoal | null = null;
  /** Tools made in this conversation (CreateTool), with the goal they were made under: its agent keeps them through
   * refreshes, switches away and back, and continue-as-new (CarriedState.madeTools). */
  madeHere: MadeHere[] = [];
  /** The conversation's files: while it holds any, ReadFile is offered. */
  files = new HeldFiles();
  /** SearchTools: the tools it found this turn (offered until the turn ends). */
  private readonly foundThisTurn = new Set<string>();
  /** The prompt whose turn last had its tools looked at. */
  private checkedFor = 0;

  /** A goal's tools as resolved; `adapt` fits them to the conversation (a delegate's differ). The goal, its specs and
   * catalog are the worker's copies (interned: the same for every conversation that has them); returns the goal. */
  take(resolved: ResolvedGoal, adapt: (tools: ToolSpec[]) => ToolSpec[]): Goal {
    const shared = internedGoal(resolved);
    this.resolved = shared;
    this.catalog = shared.catalog ?? null;
    const listed = new Set(shared.tools.map((t) => t.name));
    const made = this.madeHere.filter((m) => m.goalId === shared.goal.id && !listed.has(m.spec.name));
    this.tools = adapt([...shared.tools, ...made.map((m) => m.spec)]);
    return shared.goal;
  }

  /** A tool made in this conversation (CreateTool): the agent's from now on, this version (it replaces an older one). */
  extend(spec: ToolSpec, adapt: (tools: ToolSpec[]) => ToolSpec[]): void {
    const kept = this.resolved!;
    const goalId = kept.goal.id;
    this.madeHere = [
      ...this.madeHere.filter((m) => m.goalId !== goalId || m.spec.name !== spec.name),
      { goalId, spec },
    ];
    this.take({ ...kept, tools: kept.tools.filter((t) => t.name !== spec.name) }, adapt);
  }

  /** Whether the turn of prompt `promptId` must look at the goal's MCP tools first. */
  needsRefresh(goal: Goal, promptId: number): boolean {
    // Only MCP tools and remote agents (AskAgent's delegates from the registry) change while a conversation runs;
    // goals with neither skip the look.
    const changing = !!goal.mcp || (this.refreshDelegates && !!goal.delegates);
    return this.refreshEachTurn && changing && this.checkedFor !== promptId;
  }

  /** The tools were just resolved for the turn of `promptId`: it needs no second look. */
  checked(promptId: number): void {
    this.checkedFor = promptId;
  }

  /** The look before the turn of `promptId` is done: what changed, or null (also when discovery failed after its
   * retries: the conversation keeps serving the tools it had). */
  refreshed(
    promptId: number,
    result: ResolvedGoal | { failed: string },
    adapt: (tools: ToolSpec[]) => ToolSpec[],
  ): string | null {
    this.checked(promptId);
    if ('failed' in result) return null;
    if (!result.unchanged) return this.refresh(result, adapt);
    // The same tools; the endpoints' statuses and a registry error may still be news for catalog queries.
    this.catalog = result.catalog ? interned(result.catalog) : this.catalog;
    return null;
  }

  /**
   * The goal's MCP tools as discovered now. The conversation keeps the version of its goal it started with (an edited
   * or removed goal file changes it only when it switches or continues as new). Returns what changed, for the LLM.
   */
  private refresh(result: ResolvedGoal, adapt: (tools: ToolSpec[]) => ToolSpec[]): string | null {
    const before = new Set(this.tools.map((t) => t.name));
    const kept = this.resolved!;
    // AskAgent too, where delegates are looked at again: its schema names the remote agents the registry has now.
    const live = (t: ToolSpec) =>
      t.kind === 'mcp' || t.kind === 'http' || (this.refreshDelegates && t.name === ASK_AGENT);
    const tools = [...kept.tools.filter((t) => !live(t)), ...result.tools.filter(live)];
    this.take({ goal: kept.goal, tools, catalog: result.catalog }, adapt);
    const after = new Set(this.tools.map((t) => t.name));
    const added = [...after].filter((n) => !before.has(n));
    const removed = [...before].filter((n) => !after.has(n));
    if (!added.length && !removed.length) return null;
    const parts = [
      added.length && `new: ${listed(added)}`,
      removed.length && `no longer available: ${listed(removed)}`,
    ];
    return `Tools changed since the last turn (${parts.filter(Boolean).join('; ')}).`;
  }

  newTurn(): void {
    this.foundThisTurn.clear();
  }

  /** SearchTools found these: offered for the rest of the turn. */
  found(names: string[]): void {
    for (const name of names) this.foundThisTurn.add(name);
  }

  /** What the LLM is offered for its next step. */
  offered(log: MessageLog): ToolSpec[] {
    const files = this.readsFiles() ? [READ_FILE_SPEC] : [];
    if (!this.searches()) return [...this.tools, ...files];
    const recent = log.recentlyUsed(10, SEARCH_TOOLS);
    const shown = (t: ToolSpec) => t.kind === 'builtin' || recent.has(t.name) || this.foundThisTurn.has(t.name);
    return [...this.tools.filter(shown), SEARCH_TOOLS_SPEC, ...files];
  }

  /** ReadFile is offered: the conversation holds files, and the goal does not list it itself. */
  private readsFiles(): boolean {
    return this.files.any && !this.tools.some((t) => t.name === READ_FILE);
  }

  /** Whether the LLM sees only some tools and finds the rest with SearchTools. */
  searches(): boolean {
    return this.searchThreshold > 0 && this.tools.length > this.searchThreshold;
  }

  find(name: string): ToolSpec | undefined {
    return (
      this.tools.find((t) => t.name === name) ??
      (name === SEARCH_TOOLS && this.searches() ? SEARCH_TOOLS_SPEC : undefined) ??
      (name === READ_FILE && this.readsFiles() ? READ_FILE_SPEC : undefined)
    );
  }

  /** For a call of a tool it does not have: where the LLM finds the right one. */
  unknownTool(name: string): string {
    const known = this.searches()
      ? 'find tools with SearchTools'
      : `available tools: ${this.tools.map((t) => t.name).join(', ')}`;
    return `unknown tool "${name}"; ${known}`;
  }
}

/** Names for the LLM's note, at most 20 of them: an API of 1,000 operations appearing is one line, not a page. */
function listed(names: string[]): string {
  return names.length <= 20 ? names.join(', ') : `${names.slice(0, 20).join(', ')} and ${names.length - 20} more`;
}
