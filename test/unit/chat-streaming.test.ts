// The terminal chat prints the reply as it is written when a stream bus is at hand, and does not print it twice; a
// broken-off attempt is said so, and the retried text follows.
import { PassThrough } from 'node:stream';
import type { AgentClient } from '../../client/agent-client';
import { runChat } from '../../client/chat';
import { MemoryStreamBus, type StreamChunk } from '../../stream';
import type { AgentReply } from '../../core/conversation-types';

const reply = (text: string): AgentReply => ({ promptId: 2, reply: text, pendingToolCall: null, ended: false });

/** A client whose `say` publishes the given chunks to the bus before answering, as a worker's planning does. */
function clientPublishing(bus: MemoryStreamBus, chunks: StreamChunk[], answer: string): AgentClient {
  return {
    async say() {
      for (const c of chunks) {
        bus.publish('c1', c);
        await new Promise((r) => setImmediate(r));
      }
      return reply(answer);
    },
    async retrying() {
      return null;
    },
    // The chat reads what hooks decided during the exchange from the feed: nothing here.
    async feed() {
      return { next: 0, messages: [] };
    },
  } as unknown as AgentClient;
}

async function chat(client: AgentClient, stream: MemoryStreamBus | undefined): Promise<string> {
  const input = new PassThrough();
  const output = new PassThrough();
  let out = '';
  output.on('data', (d: Buffer) => (out += d.toString()));
  const done = runChat(client, 'c1', null, { input, output, stream });
  input.write('hello\n');
  input.end('/quit\n');
  await done;
  return out;
}

describe('runChat with a stream bus', () => {
  it('prints the text as it comes, once', async () => {
    const bus = new MemoryStreamBus();
    const chunks: StreamChunk[] = [
      { kind: 'delta', attempt: 'a/1/1', text: 'Hello ' },
      { kind: 'delta', attempt: 'a/1/1', text: 'there.' },
      { kind: 'done', attempt: 'a/1/1' },
    ];
    const out = await chat(clientPublishing(bus, chunks, 'Hello there.'), bus);
    expect(out.match(/agent> Hello there\./g)).toHaveLength(1);
  });

  it('says when an attempt broke off, then prints the retry', async () => {
    const bus = new MemoryStreamBus();
    const chunks: StreamChunk[] = [
      { kind: 'delta', attempt: 'a/1/1', text: 'Hel' },
      { kind: 'discard', attempt: 'a/1/1' },
      { kind: 'discard', attempt: 'a/1/1' },
      { kind: 'delta', attempt: 'a/1/2', text: 'Hello there.' },
      { kind: 'done', attempt: 'a/1/2' },
    ];
    const out = await chat(clientPublishing(bus, chunks, 'Hello there.'), bus);
    expect(out).toContain('agent> Hel\n(that answer broke off; the model is asked again)\nagent> Hello there.\n');
    expect(out.match(/Hello there\./g)).toHaveLength(1);
  });

  it('prints the whole reply when the stream did not carry all of it, and without a stream', async () => {
    const bus = new MemoryStreamBus();
    const partial = await chat(
      clientPublishing(bus, [{ kind: 'delta', attempt: 'a/1/1', text: 'Hello' }], 'Hello there.'),
      bus,
    );
    expect(partial).toContain('agent> Hello\nagent> Hello there.\n');
    const plain = await chat(clientPublishing(bus, [], 'Hello there.'), undefined);
    expect(plain.match(/agent> Hello there\./g)).toHaveLength(1);
  });
});
