// Money as the CLI shows it (workflows/types.ts formatUsd): four decimals under a dollar, where token prices live,
// two above. Kept here because web/ runs in the browser and shares only types with the server side.
export function formatUsd(usd: number): string {
  return `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
}
