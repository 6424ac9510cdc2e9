// Every builtin tool, by name. A new builtin is a file here, its entry in the table (and its appliers) below, and its
// spec in core/builtin-specs.ts; one that runs an activity also needs that activity, an effect kind (core/effects.ts),
// its performer (workflows/perform.ts) and its entry in core/activity-steps.ts. test/unit/builtin-lists.test.ts
// checks the specs and the docs' lists against this table.
import {
  ASK_AGENT,
  ASK_USER,
  CHANGE_GOAL,
  COMPLETE_GOAL,
  CREATE_AGENT,
  CREATE_TOOL,
  LIST_AGENTS,
  READ_FILE,
  RUN_CODE,
  SEARCH_TOOLS,
} from '../../../core/builtin-specs';
import { askAgent } from './ask-agent';
import { askUser } from './ask-user';
import type { Builtin, BuiltinContext } from './builtin';
import { changeGoal } from './change-goal';
import { completeGoal } from './complete-goal';
import { createAgent } from './create-agent';
import { createTool } from './create-tool';
import { listAgents } from './list-agents';
import { readFile } from './read-file';
import { runCode } from './run-code';
import { searchTools } from './search-tools';

/** A conversation's builtins (each may keep state of its own), and how they take in their effects' results. */
export function createBuiltins(convo: BuiltinContext) {
  const list = listAgents(convo);
  const search = searchTools(convo);
  const create = createAgent(convo);
  const ask = askAgent(convo);
  const code = runCode(convo);
  const made = createTool(convo);
  const files = readFile(convo);
  const table: Record<string, Builtin> = {
    [LIST_AGENTS]: list,
    [CHANGE_GOAL]: changeGoal(),
    [COMPLETE_GOAL]: completeGoal(convo),
    [ASK_AGENT]: ask,
    [ASK_USER]: askUser(convo),
    [SEARCH_TOOLS]: search,
    [CREATE_AGENT]: create,
    [RUN_CODE]: code,
    [CREATE_TOOL]: made,
    [READ_FILE]: files,
  };
  return {
    table,
    appliers: {
      ...list.appliers,
      ...search.appliers,
      ...create.appliers,
      ...ask.appliers,
      ...made.appliers,
    },
  };
}

/** The appliers of the effects only builtins ask for. */
export type BuiltinAppliers = ReturnType<typeof createBuiltins>['appliers'];
