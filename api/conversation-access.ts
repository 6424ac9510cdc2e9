// Who may see and act on a conversation: its owner's keys and admin keys (the local caller, without API_KEYS, is an
// admin). One rule for the REST routes and the MCP server's tools, so neither can drift from the other.
import type { AgentClient } from '../client/agent-client';
import { UserError } from '../core/user-error';
import type { ConversationFeed } from '../core/conversation-types';
import type { Caller } from './auth';

/**
 * The conversation's feed from message `since` on (none by default: only its state and owner), if the caller may see
 * it. Another owner's conversation is answered as unknown, so a key cannot learn which ids exist.
 */
export async function visibleFeed(
  agents: AgentClient,
  caller: Caller,
  id: string,
  since = Number.MAX_SAFE_INTEGER,
): Promise<ConversationFeed> {
  const feed = await agents.feed(id, since);
  if (!caller.admin && feed.owner !== caller.owner) throw new UserError(`No conversation with id ${id}.`, 'not_found');
  return feed;
}
