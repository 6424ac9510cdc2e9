// `agent --help`: every command of the CLI (client/cli.ts) with its options, and the settings it reads.
export const USAGE = `usage: agent <command> [options]
  start [--goal <id>] [--id <conversationId>] [--owner <userId>]
                                                  start a conversation; prints its id and the greeting
  start --prompt <endpoint>/<prompt> [--arg k=v]... [--goal <id>]
                                                  start one opened by an MCP server's prompt (its messages first)
  chat [<conversationId>] [--goal <id>] [--owner <userId>]
                                                  interactive chat (resumes the id if it is running)
  list [--goal <id>] [--state <state>] [--owner <userId>]
                                                  conversations, newest first (state: waiting_for_user, working,
                                                  awaiting_approval, running = any of those, ended)
  say <conversationId> <text...>                  one turn; prints the agent's reply
  say <conversationId> --resource <endpoint> <uri> <text...>
                                                  the same, with an MCP resource attached (read by the worker)
  say <conversationId> --file <path> [--file <path>]... <text...>
                                                  the same, with files attached (stored in the worker's blob store,
                                                  BLOB_STORE; type found in the content; FILE_MAX_MB each)
  say <conversationId> --while-busy <enqueue|interrupt|reject> <text...>
                                                  sent while the agent works: wait for the turn, join it (the
                                                  model call in flight is dropped), or be refused (default: the
                                                  agent's settings.whileBusy, else enqueue)
  confirm <conversationId> [--reject <reason>] [--args <json>]
                                                  approve (optionally with edited args) or reject the pending tool call
  answer <conversationId> --accept [name=value]... | --decline | --cancel [--question <id>]
                                                  answer the question a running tool asks (a form: one --accept per
                                                  field, lists comma-separated; a URL: --accept when you went; a
                                                  sampling request: --accept lets our model answer)
  cancel <conversationId>                         stop the running turn (model call or tool); the agent waits for you
  history <conversationId>                        the conversation so far (delegates' work folded under AskAgent)
  tree <conversationId>                           the conversation's delegates (AskAgent), theirs, and each one's state
  run <conversationId> [--last <n>]               the run: each turn's model and tool calls, waits for you, delegates
                                                  with their own steps, status, times, tokens, cost (the last n turns)
  status <conversationId>                         whether the agent waits for you (a tool's open question shown),
                                                  works, or has ended
  end <conversationId>                            end the conversation
  prune --older-than <duration> [--dry-run]       delete conversations that ended longer ago than that (90s, 24h,
                                                  7d; delegates included) and the files only they held; --dry-run
                                                  lists them
  agents                                          the agents you can start: goal id (for --goal), name, description,
                                                  where the goal is defined; and goal files left out, with why
  agents --stats [--since <duration>]             per agent: where it comes from (code, file, chat), conversations,
                                                  turns, p50/p95 turn time, cost, tokens, last use (from Temporal's
                                                  histories, default the last 30d; docs/registry.md)
  goal-files [disable|enable|remove <goalId>]     the files of the worker's goals folder, disabled ones too, with who
                                                  created them (CreateAgent); set one aside, bring it back, or delete it
                                                  (\`goals\`, its old name, still works)
  goal-files prune --unused-for <duration> [--yes] list the agents created in chats that no conversation used for that
                                                  long (30d); --yes disables them
  endpoints [--owner <userId>]                    MCP endpoints as the worker sees them: status, tool count, last error
                                                  (an OAuth endpoint the owner has not connected: needs connecting)
  endpoints connect <name> [--owner <userId>]     connect an MCP server that needs OAuth: prints the link, waits until
                                                  the browser comes back (needs the worker's DATA_DIR and MCP_TOKEN_KEY)
  endpoints --stats [--since <duration>]          per endpoint: status, calls, errors, p50/p95, last use, and the
                                                  last 24 hours' calls (· none, ▪ answered, x some failed)
  endpoints <name>                                an MCP endpoint's resources, resource templates and prompts
  tools [--goal <id>] [--markdown]                the tools a goal sees (all MCP and made tools without --goal);
                                                  --markdown: the whole catalog as a document (agents, tools, arguments,
                                                  endpoints)
  tools --made [--code] [--stats]                 the made tools' files (CreateTool): version, current, disabled or
                                                  broken (why), description, who made them; --code: the code too
  tools --stats [--goal <id>] [--since <duration>]
                                                  every tool (native, MCP, HTTP API, made, builtin): calls, errors,
                                                  error rate, p50/p95 time, last use (from Temporal's histories)
  tools disable|enable|remove <name>              set a made tool aside (every version), bring it back, or delete it
  tools prune --unused-for <duration> [--yes]     propose the made tools unused for that long (30d), with the command
                                                  that removes each; --yes disables them (removes nothing)
  schedule create <name> --goal <id> --cron "<expr>"|--every <2s>  --prompt "…"   a scheduled agent run on Temporal
                                                  Schedules ([--timezone] [--overlap] [--catchup] [--jitter]
                                                  [--approval deny|ask|auto --auto <tool>] [--owner] [--note]);
                                                  schedule list | describe | pause | unpause | trigger | backfill
                                                  --from --to | delete <name> (docs/schedules.md)
  memory list|search|show|add|edit|keep|delete|export|import [--owner <o>|--all]
                                                  an owner's memories across conversations (the CLI user: local;
                                                  keep accepts a proposed one, delete dismisses it; docs/memory.md)
  deploy status                                   the worker deployment's builds: current, ramping, draining,
                                                  drained; conversations open on each, and whether its workers may
                                                  stop (WORKER_DEPLOYMENT, else TASK_QUEUE; docs/deploying.md)
  deploy promote <buildId> [--ramp <percent>]     new conversations start on that build (with --ramp, that share of
                                                  them); open ones move to it at their next continue-as-new
  deploy rollback                                 during a ramp, the ramp ends; otherwise the build current before this
                                                  one is current again
options: --json (machine-readable output), --help
env: TEMPORAL_ADDRESS (default 127.0.0.1:7233), TEMPORAL_NAMESPACE, TASK_QUEUE, WORKER_DEPLOYMENT (deploy), AGENT_GOAL,
  BLOB_STORE, BLOB_DIR or DATA_DIR, S3_* (--file: the worker's blob store), FILE_MAX_MB,
  REGISTRY_MAX_EXECUTIONS (--stats: runs read at most, 2000)`;
