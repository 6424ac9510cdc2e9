// What model calls cost: a price table per model (config/prices.json, overridable with PRICES_FILE) turns each
// call's token usage into US dollars where the call is made, so the cost recorded in history is the price of the
// day, and a later change to the table never rewrites what a conversation already spent.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { PROJECT_ROOT } from '../../tools/project-root';
import { type Usage } from '../../core/types';
import { roundUsd } from '../../core/usage';

export const DEFAULT_PRICES_FILE = path.join(PROJECT_ROOT, 'config', 'prices.json');

/** US dollars per million tokens. */
export interface Price {
  input: number;
  output: number;
  /** Input tokens read from the provider's prompt cache; absent: they cost `input`. */
  cachedInput?: number;
}

const priceSchema = z
  .object({ input: z.number().min(0), output: z.number().min(0), cachedInput: z.number().min(0).optional() })
  .strict();
/** `provider:model` (or `provider:*`) → price; keys starting with `$` are comments. */
const tableSchema = z.record(z.string(), z.unknown());

export class PriceTable {
  constructor(private readonly prices: ReadonlyMap<string, Price>) {}

  /**
   * The model's price: its own entry, else its provider's `provider:*` entry; undefined when neither exists. A model
   * on OpenAI's Chat Completions API (`openai-chat:`) costs what it costs on the Responses API (`openai:`).
   */
  priceOf(model: string): Price | undefined {
    const sep = model.indexOf(':');
    const provider = model.slice(0, sep);
    const own = this.prices.get(model) ?? this.prices.get(`${provider}:*`);
    return own ?? (provider === 'openai-chat' ? this.priceOf(`openai${model.slice(sep)}`) : undefined);
  }

  /**
   * `usage` with its cost in dollars when the model has a price: uncached input at `input`, cached input at
   * `cachedInput`, output at `output`.
   */
  priced(model: string, usage: Usage): Usage {
    const price = this.priceOf(model);
    if (!price) return usage;
    const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
    const micro =
      (usage.inputTokens - cached) * price.input +
      cached * (price.cachedInput ?? price.input) +
      usage.outputTokens * price.output;
    return { ...usage, costUsd: roundUsd(micro / 1_000_000) };
  }
}

/** The default table, with the entries of `overrides` (PRICES_FILE) over it. Errors name the file and the entry. */
export function loadPrices(overrides?: string, defaults = DEFAULT_PRICES_FILE): PriceTable {
  const prices = new Map<string, Price>();
  for (const file of [defaults, ...(overrides ? [overrides] : [])]) {
    for (const [model, price] of Object.entries(readTable(file))) prices.set(model, price);
  }
  return new PriceTable(prices);
}

function readTable(file: string): Record<string, Price> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`PRICES_FILE ${file}: ${(err as Error).message}`);
  }
  const table = tableSchema.safeParse(raw);
  if (!table.success)
    throw new Error(
      `PRICES_FILE ${file}: must be an object of "provider:model": {"input": …, "output": …, "cachedInput"?: …} (US dollars per million tokens)`,
    );
  const prices: Record<string, Price> = {};
  for (const [model, entry] of Object.entries(table.data)) {
    if (model.startsWith('$')) continue;
    if (model.indexOf(':') <= 0)
      throw new Error(
        `PRICES_FILE ${file}: "${model}" must be provider:model (or provider:*), as LLM_MODEL is written`,
      );
    const price = priceSchema.safeParse(entry);
    if (!price.success)
      throw new Error(
        `PRICES_FILE ${file}: "${model}" must be {"input": dollars, "output": dollars, "cachedInput"?: dollars} per million tokens, ≥ 0`,
      );
    prices[model] = price.data;
  }
  return prices;
}
