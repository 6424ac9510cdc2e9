// Demo MCP server "fx": a small foreign-exchange desk with offline rates. Written with the MCP SDK.
//   stdio:           tsx demo/fx.ts
//   Streamable HTTP: tsx demo/fx.ts --http [--port 3801]   (serves http://127.0.0.1:PORT/mcp)
// Logs go to stderr only: on stdio, stdout is the protocol channel.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runFromCommandLine, serveMcpOverHttp, type HttpMcpServer } from './serve';
import { z } from 'zod';

/** Units of each currency per 1 USD. */
const RATES: Record<string, number> = { USD: 1, EUR: 0.92, GBP: 0.79, JPY: 151.2, AUD: 1.52, NZD: 1.66, CHF: 0.88 };
const currency = z
  .string()
  .length(3)
  .transform((c) => c.toUpperCase())
  .describe('ISO 4217 code, e.g. EUR');
const trades: { id: string; from: string; to: string; amount: number; received: number }[] = [];

function rate(from: string, to: string): number {
  if (!RATES[from] || !RATES[to])
    throw new Error(`Unknown currency: ${!RATES[from] ? from : to}. Known: ${Object.keys(RATES).join(', ')}`);
  return RATES[to]! / RATES[from]!;
}

function json(value: unknown) {
  return {
    content: [{ type: 'text' as const, text: JSON.stringify(value) }],
    structuredContent: value as Record<string, unknown>,
  };
}

export function createFxServer(): McpServer {
  const server = new McpServer({ name: 'fx', version: '1.0.0' });
  server.registerTool(
    'get_rates',
    {
      description: 'Exchange rates from a base currency to every currency the desk trades.',
      inputSchema: { base: currency },
      annotations: { readOnlyHint: true },
    },
    async ({ base }) =>
      json({ base, rates: Object.fromEntries(Object.keys(RATES).map((c) => [c, Number(rate(base, c).toFixed(6))])) }),
  );
  server.registerTool(
    'convert',
    {
      description: 'Convert an amount between two currencies at the current rate.',
      inputSchema: { amount: z.number().positive(), from: currency, to: currency },
      annotations: { readOnlyHint: true, idempotentHint: true },
    },
    async ({ amount, from, to }) => json({ amount, from, to, converted: Number((amount * rate(from, to)).toFixed(2)) }),
  );
  server.registerTool(
    'book_trade',
    {
      description: 'Book a currency trade: sells `amount` of `from` for `to`. Moves money; cannot be undone.',
      inputSchema: { amount: z.number().positive(), from: currency, to: currency },
      annotations: { destructiveHint: true, idempotentHint: false },
    },
    async ({ amount, from, to }) => {
      const trade = {
        id: `T-${1000 + trades.length + 1}`,
        from,
        to,
        amount,
        received: Number((amount * rate(from, to)).toFixed(2)),
      };
      trades.push(trade);
      return json(trade);
    },
  );
  return server;
}

/** Streamable HTTP; `token` (default FX_TOKEN) requires `Authorization: Bearer`. */
export function serveHttp(port: number, token = process.env.FX_TOKEN): Promise<HttpMcpServer> {
  return serveMcpOverHttp(createFxServer, port, token);
}

if (require.main === module) runFromCommandLine('fx', 3801, (port) => serveHttp(port), createFxServer);
