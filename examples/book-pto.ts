// Driving a conversation from your own code: start one with the PTO agent, ask for a booking, approve the call the
// agent proposes, print its reply and the transcript, end the conversation. It needs a running worker (npm start, or
// npm run worker); TEMPORAL_ADDRESS and TASK_QUEUE say where, as for the CLI.
//   npx tsx examples/book-pto.ts
// Outside this repository the import is `from 'temporal-agent-orchestrator/client'` (docs/api.md: "Starting
// conversations from your own code"); here it is the same entry point's source.
import { AgentClient, DEFAULT_TASK_QUEUE, type ChatMessage } from '../client';

async function main(): Promise<void> {
  const agents = await AgentClient.connect(process.env.TASK_QUEUE ?? DEFAULT_TASK_QUEUE);
  try {
    const { id, greeting } = await agents.start('goal_hr_pto');
    console.log(`conversation ${id}`);
    console.log(`agent> ${greeting?.reply}`);

    const proposal = await agents.say(id, 'book next Monday to Tuesday for ada@example.com');
    if (proposal.reply) console.log(`agent> ${proposal.reply}`);
    const pending = proposal.pendingToolCall;
    if (pending) {
      console.log(`approving ${pending.tool} ${JSON.stringify(pending.call.args)}`);
      // callId: approve this call, not whichever one is pending by the time the update arrives.
      const done = await agents.confirm(id, { approve: true, callId: pending.call.id });
      console.log(`agent> ${done.reply}`);
    }

    console.log('history:');
    for (const message of await agents.history(id)) console.log(`  ${describe(message)}`);
    await agents.end(id);
    console.log(`conversation ${id} ended`);
  } finally {
    await agents.close();
  }
}

function describe(m: ChatMessage): string {
  switch (m.kind) {
    case 'user':
      return `user: ${m.text}`;
    case 'agent':
      return `agent: ${[m.text, ...m.toolCalls.map((c) => `→ ${c.tool} ${JSON.stringify(c.args)}`)].filter(Boolean).join(' ')}`;
    case 'tool':
      return `tool ${m.call.tool}: ${JSON.stringify(m.outcome)}`;
    case 'note':
      return `note: ${m.text}`;
  }
}

main().catch((err: Error) => {
  console.error(`error: ${err.message}`);
  process.exitCode = 1;
});
