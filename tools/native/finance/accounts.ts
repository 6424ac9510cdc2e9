// Account lookups shared by the finance tools (not a tool: no default export).
import { z } from 'zod';
import { ToolError, type MockStore } from '../../define-tool';
import { bankCustomers, type BankCustomer } from '../../mock-data/finance';

export const accountId = z.string().describe('Bank account number, e.g. 11235 (FindAccount gives it)');

/** The customer owning `id`, or a ToolError the LLM can pass on. */
export function customerById(store: MockStore, id: string): BankCustomer {
  const wanted = id.trim().replace(/^#/, '');
  const customer = bankCustomers(store).find((c) => c.accountId === wanted);
  if (!customer) throw new ToolError(`No account number ${id}.`);
  return customer;
}
