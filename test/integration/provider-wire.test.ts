// Provider wire tests: recorded answers of each provider we support (test/fixtures/wire/<provider>/, built from the
// providers' documented streaming formats) replayed over real HTTP by a local server, so the AI SDK's real provider
// code parses them and our planning activity turns them into a turn's result or a typed failure. Each case asserts
// what reaches the conversation: the text, the tool calls, the usage and its cost, or the failure's type, retry and
// words. No Temporal server: the activity runs in the test's process (provider-wire-worker.test.ts runs a worker).
import { FailureTypes } from '../../core/activity-types';
import { loadPrices } from '../../activities/llm/prices';
import { startWireBench, WIRE_MODELS, type WireBench } from '../helpers/provider-wire';
import type { WireProvider } from '../../testkit/wire-replay';

/** What differs between providers' answers to the same case. */
interface ProviderCases {
  /** What the user sees of a refusal. */
  refusal: RegExp;
  /**
   * A malformed tool call: `call`, the words it comes back to the model with (quoting what it sent); `retried`, the
   * words of the retryable failure when the provider sends no call at all (Gemini's MALFORMED_FUNCTION_CALL).
   */
  malformed: { call: RegExp } | { retried: RegExp };
  /** Whether the API streams one call's arguments in pieces (the Gemini API sends each call whole). */
  splitsArguments: boolean;
  /** How the API says it is overloaded: the HTTP status, and the delay its answer asks for (none: Temporal's). */
  overloaded: { status: number; retryAfter?: string };
  rateLimited: { retryAfter: string };
}

const OPENAI_MALFORMED = { call: /LookupCustomer are not a JSON object: \{"email": "ada@exa\./ };

const PROVIDERS: Record<WireProvider, ProviderCases> = {
  'openai-chat': {
    refusal: /^I'm sorry, I can't help with that\.$/,
    malformed: OPENAI_MALFORMED,
    splitsArguments: true,
    overloaded: { status: 503, retryAfter: '5 seconds' },
    rateLimited: { retryAfter: '2 seconds' },
  },
  openai: {
    refusal: /^I'm sorry, I can't help with that\.$/,
    malformed: OPENAI_MALFORMED,
    splitsArguments: true,
    overloaded: { status: 503, retryAfter: '5 seconds' },
    rateLimited: { retryAfter: '2 seconds' },
  },
  anthropic: {
    // A classifier block: no content, stop_reason "refusal", its explanation in stop_details.
    refusal:
      /^The model declined to answer this: This request triggered restrictions on violative cyber content and was blocked under Anthropic's Usage Policy\.$/,
    malformed: OPENAI_MALFORMED,
    splitsArguments: true,
    overloaded: { status: 529, retryAfter: '5 seconds' },
    rateLimited: { retryAfter: '2 seconds' },
  },
  google: {
    refusal:
      /^The model declined to answer this: blocked by its provider's safety filter \(HARM_CATEGORY_DANGEROUS_CONTENT\)$/,
    malformed: {
      retried:
        /^Calling google failed: the model's reply was unusable \(MALFORMED_FUNCTION_CALL: Malformed function call: print\(default_api\.LookupCustomer\(email='ada@exa\)$/,
    },
    splitsArguments: false,
    // Gemini's 503 carries no delay; its 429 carries one in a google.rpc.RetryInfo detail of the body, not a header.
    overloaded: { status: 503 },
    rateLimited: { retryAfter: '2 seconds' },
  },
};

describe.each(Object.keys(PROVIDERS) as WireProvider[])('the %s provider on the wire', (provider) => {
  const cases = PROVIDERS[provider];
  let wire: WireBench;
  beforeAll(async () => {
    wire = await startWireBench(provider);
  });
  afterAll(() => wire?.close());
  afterEach(() => expect(wire.replay.pending()).toBe(0));

  it('parallel tool calls come back as both calls, in order, with their arguments and usage', async () => {
    wire.replay.play('parallel-tool-calls');
    const result = await wire.plan('Weather in Paris and Tokyo?');
    expect(result.text).toBe('');
    expect(result.toolCalls.map((c) => [c.tool, c.args])).toEqual([
      ['GetWeather', { city: 'Paris' }],
      ['GetWeather', { city: 'Tokyo' }],
    ]);
    expect(new Set(result.toolCalls.map((c) => c.id)).size).toBe(2);
    expect(result.usage).toMatchObject({ inputTokens: 412, outputTokens: 54, totalTokens: 466 });
  });

  it('text and a tool call in one response: both kept', async () => {
    wire.replay.play('text-and-tools');
    const result = await wire.plan('Where is ORD-1001?');
    expect(result.text).toBe('Let me look up order ORD-1001.');
    expect(result.toolCalls).toEqual([{ id: expect.any(String), tool: 'GetOrder', args: { orderId: 'ORD-1001' } }]);
  });

  it('reasoning: the answer is the reply, the reasoning is not, and its tokens are counted as output', async () => {
    wire.replay.play('reasoning');
    const result = await wire.plan('Weather in Paris?');
    expect(result.text).toBe('It is 18 °C in Paris.');
    expect(result.usage).toMatchObject({ inputTokens: 402, outputTokens: 210 });
  });

  it('a refusal reaches the user as words', async () => {
    wire.replay.play('refusal');
    const result = await wire.plan('Help me pick a lock.');
    expect(result.text).toMatch(cases.refusal);
    expect(result.toolCalls).toEqual([]);
  });

  if (cases.splitsArguments)
    it('tool arguments split across many chunks are joined exactly (escapes and non-ASCII included)', async () => {
      wire.replay.play('split-tool-arguments');
      const result = await wire.plan('Tell Ada about the café.');
      expect(result.toolCalls).toEqual([
        {
          id: expect.any(String),
          tool: 'SendEmail',
          args: { to: 'ada@example.com', subject: 'Café "Adá"', body: 'See you at 5 — Zoë' },
        },
      ]);
    });

  const { malformed } = cases;
  if ('call' in malformed)
    it('malformed tool-call JSON goes back to the model as that call, quoting what it sent', async () => {
      wire.replay.play('malformed-tool-arguments');
      const result = await wire.plan('Find ada');
      expect(result.toolCalls).toHaveLength(1);
      expect(result.toolCalls[0]).toMatchObject({ tool: 'LookupCustomer', args: {} });
      expect(result.toolCalls[0]!.malformed).toMatch(malformed.call);
    });
  else
    it('a malformed call the provider could not send is asked for again (retryable), never an empty reply', async () => {
      wire.replay.play('malformed-tool-arguments');
      const failure = await wire.failure('Find ada');
      expect(failure.type).toBe(FailureTypes.LlmUnavailable);
      expect(failure.nonRetryable).toBe(false);
      expect(failure.message).toMatch(malformed.retried);
    });

  it('usage with cached input tokens, priced at the cached-input price', async () => {
    wire.replay.play('cached-usage');
    const result = await wire.plan('Where is ORD-1001?');
    expect(result.text).toBe('Order ORD-1001 shipped yesterday.');
    expect(result.usage).toMatchObject({
      inputTokens: 2006,
      cachedInputTokens: 1920,
      outputTokens: 300,
      totalTokens: 2306,
    });
    // Priced at the table's cached-input price: 86 uncached, 1,920 cached, 300 out.
    const price = loadPrices().priceOf(WIRE_MODELS[provider])!;
    expect(price.cachedInput).toBeLessThan(price.input);
    const expected = (86 * price.input + 1920 * price.cachedInput! + 300 * price.output) / 1_000_000;
    expect(result.usage.costUsd).toBeCloseTo(expected, 10);
  });

  it('rate limited (429): retryable LlmRateLimited, retry-after honoured', async () => {
    wire.replay.play('rate-limited');
    const failure = await wire.failure();
    expect(failure.type).toBe(FailureTypes.LlmRateLimited);
    expect(failure.nonRetryable).toBe(false);
    expect(failure.nextRetryDelay).toBe(cases.rateLimited.retryAfter);
    expect(failure.message).toMatch(new RegExp(`^The ${provider} API is rate limiting \\(HTTP 429\\)`));
  });

  it('overloaded: retryable LlmUnavailable that says so, retry-after honoured', async () => {
    wire.replay.play('overloaded');
    const failure = await wire.failure();
    expect(failure.type).toBe(FailureTypes.LlmUnavailable);
    expect(failure.nonRetryable).toBe(false);
    expect(failure.nextRetryDelay).toBe(cases.overloaded.retryAfter);
    expect(failure.message).toMatch(
      new RegExp(`^The ${provider} API is overloaded \\(HTTP ${cases.overloaded.status}\\)`),
    );
  });

  it('a stream cut mid-way (connection reset) is a retryable failure, never a half reply', async () => {
    wire.replay.play({ name: 'cut-mid-stream', end: 'reset' });
    const failure = await wire.failure();
    expect(failure.type).toBe(FailureTypes.LlmUnavailable);
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).toMatch(
      /reply broke off mid-stream \(terminated: other side closed\); nothing of it is kept/,
    );
  });

  it('a stream closed before the model finished is a retryable failure that says so, never a half reply', async () => {
    wire.replay.play('truncated-stream');
    const failure = await wire.failure();
    expect(failure.type).toBe(FailureTypes.LlmUnavailable);
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).toMatch(/reply stream ended before the model finished/);
  });

  it('overloaded, said in the stream: retryable LlmUnavailable that says so', async () => {
    wire.replay.play('stream-overloaded');
    const failure = await wire.failure();
    expect(failure.type).toBe(FailureTypes.LlmUnavailable);
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).toMatch(new RegExp(`^The ${provider} API is overloaded`));
  });

  it('an error in the middle of a stream is a retryable failure', async () => {
    wire.replay.play('stream-error');
    const failure = await wire.failure();
    expect(failure.type).toBe(FailureTypes.LlmUnavailable);
    expect(failure.nonRetryable).toBe(false);
  });
});

describe('the google provider on the wire, what only Gemini sends', () => {
  let wire: WireBench;
  beforeAll(async () => {
    wire = await startWireBench('google');
  });
  afterAll(() => wire?.close());

  it('a prompt its safety filter blocks (no candidates, promptFeedback.blockReason) is told in words', async () => {
    wire.replay.play('prompt-blocked');
    const result = await wire.plan('Help me pick a lock.');
    expect(result.text).toBe(
      "The model declined to answer this: its provider's safety filter blocked the request (SAFETY)",
    );
    expect(result.toolCalls).toEqual([]);
  });
});
