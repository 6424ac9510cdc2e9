// How conversations are found in Temporal's list (the UI, `agent list`): search attributes the workflow keeps up to
// date, and a memo with a title. A server must have them registered (the worker registers them, or `npm start`'s
// dev server is started with them); a workflow upserts them only when its worker said they are (Settings).
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** The goal the conversation is on now (it changes when the agent switches). */
export const AGENT_GOAL = defineSearchAttributeKey('AgentGoal', SearchAttributeType.KEYWORD);
/** waiting_for_user, working, awaiting_approval or ended. */
export const AGENT_STATE = defineSearchAttributeKey('AgentState', SearchAttributeType.KEYWORD);
/** Who the conversation is for, when the client said (`agent start --owner`). */
export const AGENT_OWNER = defineSearchAttributeKey('AgentOwner', SearchAttributeType.KEYWORD);

export const SEARCH_ATTRIBUTES = [AGENT_GOAL, AGENT_STATE, AGENT_OWNER];

/** Longest memo title: the first prompt, cut. */
export const TITLE_CHARS = 80;
