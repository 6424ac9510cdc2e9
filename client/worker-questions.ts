// What clients ask the worker rather than a conversation: its agents and goal files, the MCP registry as it sees it
// (endpoints, tools, resources, prompts), its made tools. Each question goes through the worker's desk
// (worker-desk.ts); AgentClient, which also drives conversations, is one of these.
import type { MemoryAnswer, MemoryRequest } from '../core/memory';
import type { Client } from '@temporalio/client';
import {
  describeAgentsUpdate,
  describeCatalogUpdate,
  describeEndpointFeaturesUpdate,
  describeGoalFilesUpdate,
  describeMadeToolsUpdate,
  getPromptUpdate,
  manageGoalUpdate,
  manageMadeToolUpdate,
  manageMemoryUpdate,
  readResourceUpdate,
  type CatalogDescription,
} from '../workflows/describe-workflows';
import type { AgentsDescription, GoalFileSummary } from '../core/activity-types';
import type { MadeToolSummary } from '../core/made-tools';
import {
  withAttachment,
  type EndpointFeatures,
  type PromptOpening,
  type PromptRef,
  type ResourceRead,
  type ResourceRef,
} from '../core/mcp-features';
import { unknownGoalMessage } from '../goals/unknown-goal';
import { UserError } from '../core/user-error';
import { WorkerDesk } from './worker-desk';

export class WorkerQuestions {
  /** Questions for the worker itself, through its task queue's describe workflow. */
  protected readonly desk: WorkerDesk;

  constructor(
    readonly client: Client,
    readonly taskQueue: string,
  ) {
    this.desk = new WorkerDesk(client, taskQueue);
  }

  /** What the worker sees of the MCP registry: endpoints, and the tools (of a goal, or all MCP tools). */
  async catalog(goalId?: string): Promise<CatalogDescription> {
    return this.desk.ask(describeCatalogUpdate, [{ goalId }]);
  }

  /** An MCP endpoint's resources, resource templates and prompts, as the worker sees them. */
  async endpointFeatures(endpoint: string, owner?: string): Promise<EndpointFeatures> {
    return this.desk.ask(describeEndpointFeaturesUpdate, [{ endpoint, ...(owner ? { owner } : {}) }]);
  }

  /** A resource read by the worker (text within MAX_TOOL_RESULT_CHARS; binary content by type and size). */
  async readResource(ref: ResourceRef): Promise<ResourceRead> {
    return this.desk.ask(readResourceUpdate, [ref]);
  }

  /** A server prompt's messages with these arguments (what `start` with `prompt` opens with). */
  async getPrompt(ref: PromptRef): Promise<PromptOpening> {
    return this.desk.ask(getPromptUpdate, [ref]);
  }

  /** The user's words with a resource attached (read in the worker): what `say` sends for a message with one. */
  async withResource(text: string, ref: ResourceRef): Promise<string> {
    const read = await this.readResource(ref);
    try {
      return withAttachment(text, read);
    } catch (err) {
      throw new UserError((err as Error).message, 'invalid');
    }
  }

  /** The agents the worker offers (after its GOAL_CATEGORIES), every goal id it serves, and goal files it left out. */
  async agents(): Promise<AgentsDescription> {
    return this.desk.ask(describeAgentsUpdate, []);
  }

  /** Fails, naming the goals there are, unless the worker serves a goal with this id (its code, its goals folder). */
  async requireGoal(goalId: string): Promise<void> {
    const unknown = unknownGoalMessage(goalId, (await this.agents()).goalIds);
    if (unknown) throw new UserError(unknown);
  }

  /** The worker's goals folder: each goal file, whether it is disabled, and who created it (CreateAgent). */
  async goalFiles(): Promise<GoalFileSummary[]> {
    return this.desk.ask(describeGoalFilesUpdate, []);
  }

  /** Disables (the file is set aside), enables or removes a goal file; running conversations keep their version. */
  async manageGoal(action: 'disable' | 'enable' | 'remove', goalId: string): Promise<GoalFileSummary> {
    return this.desk.ask(manageGoalUpdate, [{ action, goalId }]);
  }

  /** The worker's made tools (CreateTool, TOOLS_DIR): every version, disabled and broken ones too (their usage:
   * `new Registry(client).madeTools()`, from Temporal's histories). */
  async madeTools(): Promise<MadeToolSummary[]> {
    return this.desk.ask(describeMadeToolsUpdate, []);
  }

  /** Disables (calls get an error saying so), enables or removes every version of a made tool; answers the versions
   * left (none after remove). An unknown name is a `not_found` user error. */
  async manageMadeTool(action: 'disable' | 'enable' | 'remove', name: string): Promise<MadeToolSummary[]> {
    return this.desk.ask(manageMadeToolUpdate, [{ action, name }]);
  }

  /** People's requests of their memories, answered by the worker that keeps them (core/memory.ts). */
  async memory(req: MemoryRequest): Promise<MemoryAnswer> {
    return this.desk.ask(manageMemoryUpdate, [req]);
  }
}
