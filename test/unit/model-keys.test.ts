// Keys per provider: LLM_KEY and LLM_BASE_URL are LLM_MODEL's provider's; a goal's or a fallback's model of another
// provider takes its provider's own variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY), and
// no key goes to a provider it is not for. Checked on the wire: a local server records the key each provider sends
// (and answers 401, whose failure names the settings to check).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { APICallError, generateText } from 'ai';
import { toLlmFailure } from '../../activities/llm/errors';
import { createModel, type LlmConfig } from '../../activities/llm/model';
import { readWorkerSettings } from '../../worker/worker-settings';
import { secretsOf } from '../../worker/create-worker';
import { FailureTypes } from '../../core/activity-types';

/** A server that refuses every request, remembering the credentials it was shown. */
let server: http.Server;
let baseUrl: string;
const seen: { path: string; key: string | undefined }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const auth = req.headers.authorization?.replace(/^Bearer /, '');
    const key = auth ?? (req.headers['x-api-key'] as string) ?? (req.headers['x-goog-api-key'] as string);
    seen.push({ path: req.url ?? '', key });
    req.resume();
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'invalid api key', type: 'authentication_error' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The key the model's provider sent, and the failure its 401 became. */
async function keySent(config: LlmConfig): Promise<{ key?: string; path: string; failure: string }> {
  seen.length = 0;
  const resolved = createModel(config);
  const err = await generateText({ model: resolved.model, prompt: 'hi', maxRetries: 0 }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(APICallError.isInstance(err)).toBe(true);
  const failure = toLlmFailure(err, resolved.provider);
  expect(failure.type).toBe(FailureTypes.LlmAuth);
  expect(seen).toHaveLength(1);
  return { ...seen[0]!, failure: failure.message };
}

describe('keys per provider', () => {
  it("LLM_KEY and LLM_BASE_URL go to LLM_MODEL's provider, before its own variable", async () => {
    const sent = await keySent({
      model: 'openai-chat:gpt-4o-mini',
      key: 'llm-key-1',
      baseUrl,
      providerEnv: { OPENAI_API_KEY: 'openai-key-1' },
    });
    expect(sent).toMatchObject({ key: 'llm-key-1', path: '/v1/chat/completions' });
    expect(sent.failure).toMatch(/check LLM_KEY or OPENAI_API_KEY/);
  });

  it("LLM_MODEL's provider takes its own variable when LLM_KEY is not set", async () => {
    const sent = await keySent({
      model: 'google:gemini-2.5-flash',
      baseUrl,
      providerEnv: { GOOGLE_GENERATIVE_AI_API_KEY: 'google-key-1' },
    });
    expect(sent).toMatchObject({ key: 'google-key-1', path: '/v1/models/gemini-2.5-flash:generateContent' });
    expect(sent.failure).toMatch(/check LLM_KEY or GOOGLE_GENERATIVE_AI_API_KEY/);
  });

  it("another provider's model (a goal's, a fallback) takes its own key and endpoint, never LLM_KEY", async () => {
    const sent = await keySent({
      model: 'anthropic:claude-haiku-4-5',
      llmModel: 'openai:gpt-4o-mini',
      key: 'llm-key-1',
      baseUrl: 'http://127.0.0.1:9/not-for-anthropic',
      providerEnv: { ANTHROPIC_API_KEY: 'anthropic-key-1', ANTHROPIC_BASE_URL: baseUrl },
    });
    expect(sent).toMatchObject({ key: 'anthropic-key-1', path: '/v1/messages' });
    expect(sent.failure).toMatch(/check LLM_KEY or ANTHROPIC_API_KEY/);
  });

  it('the Responses and Chat Completions APIs share OpenAI’s key: LLM_KEY serves both', async () => {
    const sent = await keySent({
      model: 'openai-chat:gpt-4o-mini',
      llmModel: 'openai:gpt-5-mini',
      key: 'llm-key-1',
      baseUrl,
      providerEnv: { OPENAI_API_KEY: 'openai-key-1', ANTHROPIC_API_KEY: 'anthropic-key-1' },
    });
    expect(sent).toMatchObject({ key: 'llm-key-1', path: '/v1/chat/completions' });
    const responses = await keySent({ model: 'openai:gpt-5-mini', key: 'llm-key-2', baseUrl });
    expect(responses).toMatchObject({ key: 'llm-key-2', path: '/v1/responses' });
  });

  it("a model of another provider without its variable is refused, naming that variable (not LLM_KEY's)", () => {
    expect(() =>
      createModel({ model: 'anthropic:claude-haiku-4-5', llmModel: 'openai:gpt-4o-mini', key: 'llm-key-1' }),
    ).toThrow(
      'ANTHROPIC_API_KEY is not set: the anthropic provider needs an API key (anthropic:claude-haiku-4-5); ' +
        "LLM_KEY is for LLM_MODEL's provider, openai.",
    );
    expect(() => createModel({ model: 'openai:gpt-4o-mini' })).toThrow(
      'LLM_KEY or OPENAI_API_KEY is not set: the openai provider needs an API key (openai:gpt-4o-mini).',
    );
    // An openai-compatible model beside another LLM_MODEL has no endpoint: LLM_BASE_URL is LLM_MODEL's.
    expect(() =>
      createModel({ model: 'openai-compatible:llama3.1', llmModel: 'openai:gpt-4o-mini', baseUrl, key: 'k' }),
    ).toThrow(/LLM_BASE_URL is not set/);
  });

  it('the worker reads the providers’ variables once, and blanks their keys in what it hands out', () => {
    const settings = readWorkerSettings({
      LLM_MODEL: 'openai:gpt-4o-mini',
      LLM_KEY: 'sk-llm-key-0123456789abcdef',
      ANTHROPIC_API_KEY: 'anthropic-secret-key',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:4010/v1',
      GOOGLE_GENERATIVE_AI_API_KEY: 'google-secret-key',
    });
    expect(settings.llm).toMatchObject({
      model: 'openai:gpt-4o-mini',
      llmModel: 'openai:gpt-4o-mini',
      providerEnv: {
        ANTHROPIC_API_KEY: 'anthropic-secret-key',
        ANTHROPIC_BASE_URL: 'http://127.0.0.1:4010/v1',
        GOOGLE_GENERATIVE_AI_API_KEY: 'google-secret-key',
      },
    });
    const scrubbed = secretsOf(settings, {}).scrub(
      'anthropic-secret-key google-secret-key at http://127.0.0.1:4010/v1',
    );
    expect(scrubbed).toBe('[secret] [secret] at http://127.0.0.1:4010/v1');
    expect(() => readWorkerSettings({ OPENAI_BASE_URL: 'api.openai.com' })).toThrow(/OPENAI_BASE_URL must be a URL/);
  });
});
