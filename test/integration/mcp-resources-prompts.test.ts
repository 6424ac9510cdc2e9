// An MCP server's resources and prompts through a real dev server, worker and API, with the reference server
// (server-everything, real, over stdio and Streamable HTTP): listed by the CLI and the API, a resource attached to a
// message (the worker reads it; the model gets it with the words), a prompt opening a conversation.
import { endChatSignal } from '../../core/messages';
import { history, startConversation } from '../helpers/conversation';
import { everythingTestbed, type EverythingTestbed } from '../helpers/everything-testbed';

describe('server-everything: resources and prompts', () => {
  let bed: EverythingTestbed;
  beforeAll(async () => {
    bed = await everythingTestbed({ rules: [], fallback: { text: 'Noted.' } });
  });
  afterAll(async () => {
    await bed?.close();
  });

  it("lists an endpoint's resources and prompts through the CLI and the API", async () => {
    const listed = await bed.cli(['endpoints', 'ev']);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(
      /^resources:\n {2}demo:\/\/resource\/static\/document\/architecture\.md {2}architecture\.md/m,
    );
    expect(listed.out).toMatch(/^ {2}demo:\/\/resource\/dynamic\/text\/\{resourceId\}/m);
    expect(listed.out).toMatch(/^ {2}ev\/args-prompt city \[state\] — A prompt with two arguments/m);
    expect(await bed.cli(['endpoints', 'nope'])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/No MCP server "nope" in the registry \(endpoints: ev, evh, fx\)/),
    });
    // A server with tools alone (our fx demo) says so, and is asked for nothing else.
    expect((await bed.cli(['endpoints', 'fx'])).out).toMatch(/^resources:\n {2}\(fx offers no resources\)$/m);
    expect(await bed.call('POST', '/api/conversations', { prompt: { endpoint: 'fx', name: 'rates' } })).toEqual({
      status: 404,
      body: { error: 'The MCP server "fx" offers no prompts.' },
    });

    const resources = await bed.call('GET', '/api/endpoints/evh/resources');
    expect(resources.status).toBe(200);
    expect(resources.body.resources).toContainEqual(
      expect.objectContaining({ uri: 'demo://resource/static/document/features.md', mimeType: 'text/markdown' }),
    );
    expect(resources.body.templates).toContainEqual(
      expect.objectContaining({ uriTemplate: 'demo://resource/dynamic/blob/{resourceId}' }),
    );
    const prompts = await bed.call('GET', '/api/endpoints/evh/prompts');
    expect(prompts.body.prompts).toContainEqual({
      name: 'args-prompt',
      title: 'Arguments Prompt',
      description: 'A prompt with two arguments, one required and one optional',
      arguments: [
        { name: 'city', description: 'Name of the city', required: true },
        { name: 'state', required: false },
      ],
    });
    const read = await bed.call(
      'GET',
      `/api/endpoints/ev/resource?uri=${encodeURIComponent('demo://resource/dynamic/blob/3')}`,
    );
    // A blob of text/plain is read as text.
    expect(read.body.contents).toEqual([
      expect.objectContaining({ type: 'resource', text: expect.stringMatching(/^Resource 3: This is a base64 blob/) }),
    ]);
    expect((await bed.call('GET', '/api/endpoints/nope/prompts')).status).toBe(404);
  });

  it('attaches a resource to a message (CLI and API): the worker reads it, the model gets it with the words', async () => {
    const { handle } = await startConversation(bed.env.client, bed.taskQueue, {
      goalId: 'goal_general',
    });
    const id = handle.workflowId;
    const uri = 'demo://resource/static/document/architecture.md';
    const said = await bed.cli(['say', id, '--resource', 'ev', uri, 'what', 'does', 'this', 'say?']);
    expect(said).toMatchObject({ code: 0, out: expect.stringContaining('Noted.') });
    const viaApi = await bed.call('POST', `/api/conversations/${id}/messages`, {
      text: 'and this one?',
      resource: { endpoint: 'evh', uri: 'demo://resource/dynamic/text/7' },
    });
    expect(viaApi.status).toBe(200);
    const users = (await history(handle)).flatMap((m) => (m.kind === 'user' && !m.starter ? [m.text] : []));
    expect(users[0]).toMatch(
      /^what does this say\?\n\n\[attached resource demo:\/\/resource\/static\/document\/architecture\.md from ev\]\n\[resource </,
    );
    expect(users[0]).toContain('# Everything Server');
    expect(users[1]).toMatch(
      /^and this one\?\n\n\[attached resource demo:\/\/resource\/dynamic\/text\/7 from evh\]\n.*Resource 7: This is a plaintext resource/s,
    );
    // What the model was sent: the user's message with the resource in it.
    const last = bed.model.prompts
      .at(-1)!
      .filter((m) => m.role === 'user')
      .at(-1);
    expect(JSON.stringify(last)).toContain('Resource 7: This is a plaintext resource');
    expect(
      (
        await bed.call('POST', `/api/conversations/${id}/messages`, {
          text: 'x',
          resource: { endpoint: 'ev', uri: 'demo://nope' },
        })
      ).body,
    ).toEqual({
      error: expect.stringMatching(/^ev: MCP error -?\d+: .*demo:\/\/nope/),
    });
    await handle.signal(endChatSignal);
  });

  it("opens a conversation with a server's prompt (CLI and API): its messages first, the agent answers the last", async () => {
    const started = await bed.cli([
      'start',
      '--goal',
      'goal_general',
      '--prompt',
      'ev/args-prompt',
      '--arg',
      'city=Chicago',
      '--arg',
      'state=IL',
      '--json',
    ]);
    expect(started.code).toBe(0);
    const { id, reply } = JSON.parse(started.out) as { id: string; reply: { reply: string } };
    expect(reply.reply).toBe('Noted.');
    const messages = await bed.agents.history(id);
    expect(messages.slice(0, 2)).toEqual([
      { kind: 'note', text: 'Opened with the prompt "args-prompt" of the MCP server "ev".' },
      { kind: 'user', text: "What's weather in Chicago, IL?", promptId: 1 },
    ]);
    expect(messages.some((m) => m.kind === 'user' && m.starter)).toBe(false);

    const viaApi = await bed.call('POST', '/api/conversations', {
      goalId: 'goal_general',
      prompt: { endpoint: 'evh', name: 'resource-prompt', args: { resourceType: 'Text', resourceId: '2' } },
    });
    expect(viaApi.status).toBe(201);
    const opened = await bed.agents.history(viaApi.body.conversationId as string);
    expect(opened[1]).toMatchObject({
      kind: 'user',
      text: expect.stringMatching(
        /^This prompt includes the Text resource with id: 2\. Please analyze the following resource:\n\n\[resource <demo:\/\/resource\/dynamic\/text\/2> \(text\/plain\)\]\nResource 2: /,
      ),
    });
    expect(
      (await bed.call('POST', '/api/conversations', { prompt: { endpoint: 'ev', name: 'no-such-prompt' } })).status,
    ).toBe(404);
    await bed.agents.end(id);
  });
});
