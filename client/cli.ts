// `npm run agent -- <command>`: start, chat, list, say, confirm, answer, cancel, history, tree, status, end, prune, agents,
// goal-files (client/goal-files-command.ts), endpoints, tools (client/tools-command.ts, made tools included), deploy
// (client/deploy-command.ts).
import { parseArgs } from 'node:util';
import { PICKER_GOAL_ID } from '../goals/goal-registry';
import { AgentClient } from './agent-client';
import { DEFAULT_TASK_QUEUE } from '../runtime/connection';
import { applyEnvFile } from '../runtime/env-file';
import { startTracing } from '../runtime/tracing';
import type { WorkflowClientInterceptor } from '@temporalio/client';
import { parseAge } from '../runtime/duration';
import { pruneConversations } from './prune';
import { goalFilesCommand } from './goal-files-command';
import { formatStatusReport } from './status-report';
import { createStreamBus } from '../stream';
import { runChat, type ChatIO } from './chat';
import {
  formatConversations,
  formatEndpoints,
  formatHistory,
  formatHookNotes,
  formatReply,
  formatTree,
} from './terminal-format';
import { toolsCommand } from './tools-command';
import { USAGE } from './cli-usage';
import { formatRun } from './run-tree-format';
import { embeddedServer } from '../runtime/connection';
import { listingsOf } from './listings';
import { formatAgentListing, formatEndpointListing } from './listing-format';
import { catalogForOwner, connectEndpoint } from './endpoint-connect';
import { formatEndpointFeatures, promptRef } from './endpoint-features-format';
import type { ConversationFilter } from './conversation-list';
import { UserError } from '../core/user-error';
import { WHILE_BUSY, type WhileBusy } from '../core/types';
import { answerFrom, bareAccept } from './answer-command';
import { deployCommand } from './deploy-command';
import { scheduleCommand } from './schedule-command';
import { memoryCommand } from './memory-command';

export interface CliIO extends ChatIO {
  error: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  /** Client interceptors (tracing: conversations the CLI starts begin their trace here). */
  interceptors?: WorkflowClientInterceptor[];
}

/** Runs one CLI command; returns the exit code. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  let client: AgentClient | undefined;
  try {
    // Waiting out a server restart is said on stderr, so stdout stays the answer alone (--json included).
    const onWait = (message: string) => io.error.write(`${message}\n`);
    const connect = async () =>
      (client = await AgentClient.connect(io.env.TASK_QUEUE || DEFAULT_TASK_QUEUE, io.env, {
        onWait,
        interceptors: io.interceptors,
      }));
    // `agent schedule …` and `agent memory …` read options of their own (client/schedule-command.ts, memory-command.ts).
    if (argv[0] === 'schedule' || argv[0] === 'memory') {
      const command = argv[0] === 'schedule' ? scheduleCommand : memoryCommand;
      const { human, data } = await command(argv.slice(1), connect);
      io.output.write(`${argv.includes('--json') ? JSON.stringify(data) : human}\n`);
      return 0;
    }
    const { values, positionals } = parseArgs({
      args: bareAccept(argv),
      allowPositionals: true,
      options: {
        goal: { type: 'string' },
        id: { type: 'string' },
        reject: { type: 'string' },
        args: { type: 'string' },
        owner: { type: 'string' },
        state: { type: 'string' },
        json: { type: 'boolean', default: false },
        markdown: { type: 'boolean', default: false },
        made: { type: 'boolean', default: false },
        stats: { type: 'boolean', default: false },
        since: { type: 'string' },
        last: { type: 'string' },
        code: { type: 'boolean', default: false },
        'unused-for': { type: 'string' },
        'older-than': { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        yes: { type: 'boolean', default: false },
        prompt: { type: 'string' },
        arg: { type: 'string', multiple: true },
        resource: { type: 'string' },
        file: { type: 'string', multiple: true },
        'while-busy': { type: 'string' },
        accept: { type: 'string', multiple: true },
        decline: { type: 'boolean', default: false },
        cancel: { type: 'boolean', default: false },
        question: { type: 'string' },
        ramp: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    });
    const [command, ...rest] = positionals;
    if (values.help || !command) {
      io.output.write(`${USAGE}\n`);
      return command || values.help ? 0 : 2;
    }
    const out = (human: string, data: unknown) => io.output.write(`${values.json ? JSON.stringify(data) : human}\n`);
    const needId = () => {
      const id = rest[0];
      if (!id) throw new UserError(`${command} needs a conversation id. ${USAGE.split('\n')[0]}`);
      return id;
    };
    // The worker knows which goals exist (its code, its goals folder): ask it before starting a conversation.
    const goalId = async (c: AgentClient) => {
      const wanted = values.goal ?? io.env.AGENT_GOAL ?? PICKER_GOAL_ID;
      await c.requireGoal(wanted);
      return wanted;
    };

    switch (command) {
      case 'agents': {
        if (values.stats) {
          const registry = await listingsOf(await connect(), io.env).agents(values.since);
          out(formatAgentListing(registry), registry);
          return 0;
        }
        const { agents, problems, sources } = await (await connect()).agents();
        const leftOut = problems.map((p) => `(left out: ${p})`);
        const from = (id: string) => (sources[id] && sources[id] !== 'code' ? ` [from ${sources[id]}]` : '');
        const lines = agents.map((a) => `${a.goalId.padEnd(34)} ${a.agentName}: ${a.description}${from(a.goalId)}`);
        out(
          [...lines, ...leftOut].join('\n'),
          agents.map((a) => ({ ...a, source: sources[a.goalId] ?? 'code' })),
        );
        return 0;
      }
      // `goals` is the old name, kept for scripts: it listed goal files only, never every goal.
      case 'goals':
      case 'goal-files': {
        const opts = { unusedFor: values['unused-for'], yes: values.yes };
        const { human, data } = await goalFilesCommand(command, rest, opts, await connect());
        out(human, data);
        return 0;
      }
      case 'endpoints': {
        if (rest[0] === 'connect') {
          if (!rest[1]) throw new UserError(`endpoints connect needs an endpoint name. ${USAGE.split('\n')[0]}`);
          const done = await connectEndpoint(rest[1], values.owner, io.env, (line) => io.error.write(`${line}\n`));
          out(`connected ${done.endpoint} for ${done.owner}`, done);
          return 0;
        }
        if (values.stats) {
          const registry = await listingsOf(await connect(), io.env).endpoints(values.since);
          out(formatEndpointListing(registry), registry);
          return 0;
        }
        if (rest[0]) {
          const features = await (await connect()).endpointFeatures(rest[0], values.owner);
          out(formatEndpointFeatures(features), features);
          return 0;
        }
        const catalog = catalogForOwner((await (await connect()).catalog()).catalog, values.owner, io.env);
        out(formatEndpoints(catalog), catalog);
        return 0;
      }
      case 'tools': {
        const opts = { ...values, unusedFor: values['unused-for'], env: io.env };
        await toolsCommand(rest, opts, connect, out, (text) => io.output.write(text));
        return 0;
      }
      case 'list': {
        const found = await (
          await connect()
        ).list({ goal: values.goal, state: values.state as ConversationFilter['state'], owner: values.owner });
        out(formatConversations(found), found);
        return 0;
      }
      case 'start': {
        const c = await connect();
        const goal = await goalId(c);
        const prompt = values.prompt ? promptRef(values.prompt, values.arg) : undefined;
        const { id, greeting } = await c.start(goal, values.id, values.owner, { prompt });
        out(`conversation ${id} (goal ${goal})\n${formatReply(greeting, id)}`, { id, goalId: goal, reply: greeting });
        return 0;
      }
      case 'chat': {
        const c = await connect();
        const requested = rest[0] ?? values.id;
        // Workers in other processes publish the reply being written to Redis: with REDIS_URL, it prints as it comes.
        const own = !io.stream && io.env.REDIS_URL ? createStreamBus(io.env.REDIS_URL) : undefined;
        const stream = io.stream ?? own;
        try {
          if (requested && (await c.isRunning(requested))) {
            await runChat(c, requested, (await c.status(requested)).lastReply, { ...io, json: values.json, stream });
          } else {
            const { id, greeting } = await c.start(await goalId(c), requested, values.owner);
            await runChat(c, id, greeting, { ...io, json: values.json, stream });
          }
        } finally {
          await own?.close();
        }
        return 0;
      }
      case 'say': {
        const id = needId();
        const uri = values.resource ? rest[1] : undefined;
        const text = rest.slice(uri ? 2 : 1).join(' ');
        if (values.resource && !uri)
          throw new UserError('say --resource needs the URI: agent say <id> --resource <endpoint> <uri> <text...>');
        if (!text.trim()) throw new UserError('say needs the text to send: agent say <conversationId> <text...>');
        const c = await connect();
        const ref = { endpoint: values.resource!, uri: uri!, ...(values.owner ? { owner: values.owner } : {}) };
        const sent = uri ? await c.withResource(text, ref) : text;
        // Files are stored first (held by the conversation), then sent with the words as references.
        const attachments = [];
        for (const file of values.file ?? []) attachments.push(await c.attach(id, file));
        const before = (await c.feed(id, Number.MAX_SAFE_INTEGER)).next;
        const whileBusy = whileBusyFrom(values['while-busy']);
        const reply = await c.say(
          id,
          attachments.length || whileBusy
            ? { text: sent, ...(attachments.length ? { attachments } : {}), ...(whileBusy ? { whileBusy } : {}) }
            : sent,
        );
        // What hooks decided on the way (a redaction, a guardrail's block), before the reply.
        const hooks = formatHookNotes((await c.feed(id, before)).messages.map((m) => m.message));
        out([hooks, formatReply(reply, id)].filter(Boolean).join('\n'), reply);
        return 0;
      }
      case 'confirm': {
        const id = needId();
        const reply = await (await connect()).confirm(id, decisionFrom(values.reject, values.args));
        out(formatReply(reply, id), reply);
        return 0;
      }
      case 'answer': {
        const id = needId();
        const c = await connect();
        const answered = await answerFrom(c, id, values);
        const reply = await c.answer(id, answered);
        out(formatReply(reply, id), reply);
        return 0;
      }
      case 'cancel': {
        const id = needId();
        const reply = await (await connect()).cancel(id);
        out(formatReply(reply, id), reply);
        return 0;
      }
      case 'history': {
        const { messages, delegates } = await (await connect()).historyTree(needId());
        out(formatHistory(messages, delegates) || '(empty)', messages);
        return 0;
      }
      case 'run': {
        const last = values.last === undefined ? undefined : Number(values.last);
        if (last !== undefined && !(Number.isInteger(last) && last > 0))
          throw new UserError(`--last takes a number of turns (1 or more), got "${values.last}".`);
        const c = await connect();
        const url = temporalUiUrl(io.env);
        const view = await c.run(needId(), url ? { url, namespace: c.client.options.namespace } : undefined);
        out(formatRun(view, { ...(last ? { turns: last } : {}) }), view);
        return 0;
      }
      case 'tree': {
        const tree = await (await connect()).tree(needId());
        out(formatTree(tree), tree);
        return 0;
      }
      case 'status': {
        const c = await connect();
        const id = needId();
        const status = await c.status(id);
        const { goal, usage } = await c.details(id);
        const retrying = status.state === 'working' ? await c.retrying(id) : null;
        out(formatStatusReport(id, status, goal, usage, retrying), { id, ...status, goal: goal?.id, usage, retrying });
        return 0;
      }
      case 'prune': {
        if (!values['older-than'])
          throw new UserError('prune needs --older-than <duration>, e.g. agent prune --older-than 30d');
        const age = parseAge(values['older-than']);
        const c = await connect();
        const pruned = await pruneConversations(c.client, age, values['dry-run'], undefined, c.files);
        const verb = values['dry-run'] ? 'would delete' : 'deleted';
        const files = pruned.filesDeleted ? `, and ${pruned.filesDeleted} file(s) no other conversation holds` : '';
        out(
          [
            `${verb} ${pruned.length} conversation run(s) that ended before ${values['older-than']} ago${files}`,
            ...pruned.map((p) => `  ${p.id}  ended ${p.closedAt.slice(0, 19).replace('T', ' ')}`),
          ].join('\n'),
          { dryRun: values['dry-run'], pruned, filesDeleted: pruned.filesDeleted ?? 0 },
        );
        return 0;
      }
      case 'deploy': {
        const deployment = io.env.WORKER_DEPLOYMENT || io.env.TASK_QUEUE || DEFAULT_TASK_QUEUE;
        const { human, data } = await deployCommand((await connect()).client, deployment, rest, values.ramp);
        out(human, data);
        return 0;
      }
      case 'end': {
        const id = needId();
        await (await connect()).end(id);
        out(`conversation ${id} ended`, { id, ended: true });
        return 0;
      }
      default:
        throw new UserError(`unknown command "${command}". ${USAGE.split('\n')[0]}; try --help`);
    }
  } catch (err) {
    // One line, always: the stack only when AGENT_DEBUG is set.
    const message =
      err instanceof UserError || isArgError(err)
        ? (err as Error).message
        : `unexpected error: ${io.env.AGENT_DEBUG ? ((err as Error).stack ?? err) : oneLine(err)}`;
    // With --json the answer is JSON whatever happened: scripts read stdout and the exit code, never prose.
    if (argv.includes('--json')) io.output.write(`${JSON.stringify({ error: message })}\n`);
    else io.error.write(`error: ${message}\n`);
    return 1;
  } finally {
    await client?.close();
  }
}

function decisionFrom(reject: string | undefined, args: string | undefined) {
  if (reject !== undefined && args !== undefined) throw new UserError('use either --reject or --args, not both');
  if (reject !== undefined) {
    if (!reject.trim()) throw new UserError('--reject needs a reason');
    return { approve: false as const, reason: reject };
  }
  if (args === undefined) return { approve: true as const };
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    throw new UserError(`--args is not valid JSON: ${args}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new UserError('--args must be a JSON object');
  return { approve: true as const, args: parsed as Record<string, unknown> };
}

function oneLine(err: unknown): string {
  const e = err as Error & { cause?: Error };
  const text = [e?.message, e?.cause?.message].filter(Boolean).join(': ') || String(err);
  return `${text.replace(/\s+/g, ' ').trim()} (set AGENT_DEBUG=1 for details)`;
}

function isArgError(err: unknown): boolean {
  return (err as { code?: string })?.code?.startsWith('ERR_PARSE_ARGS') ?? false;
}

/** The `agent` command itself: `.env` first (the environment wins), then the command, then its exit code. */
export function runFromShell(): void {
  try {
    applyEnvFile();
  } catch (err) {
    const message = (err as Error).message;
    if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
    else process.stderr.write(`error: ${message}\n`);
    process.exit(1);
  }
  const tracing = startTracing('agent-cli');
  void main(process.argv.slice(2), {
    input: process.stdin,
    output: process.stdout,
    error: process.stderr,
    env: process.env,
    interceptors: tracing?.clientInterceptors,
  })
    .then(async (code) => {
      await tracing?.shutdown().catch(() => undefined);
      return code;
    })
    .then((code) => process.exit(code));
}

if (require.main === module) runFromShell();

/** Where the Temporal UI is, for links: TEMPORAL_UI_URL, else the UI of the dev server a running `npm start` recorded. */
function temporalUiUrl(env: NodeJS.ProcessEnv): string | undefined {
  return env.TEMPORAL_UI_URL || (env.TEMPORAL_ADDRESS ? undefined : embeddedServer(env)?.uiUrl) || undefined;
}

/** `--while-busy`: what the message does if the agent is working on a turn (absent: the agent's setting). */
function whileBusyFrom(value: string | undefined): WhileBusy | undefined {
  if (value === undefined) return undefined;
  if (!(WHILE_BUSY as readonly string[]).includes(value))
    throw new UserError(`--while-busy must be one of ${WHILE_BUSY.join(', ')} (got ${value}).`);
  return value as WhileBusy;
}
