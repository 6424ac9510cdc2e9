// Shopping carts for the food-ordering goal, one per customer email. The menu and prices belong to the shop (the
// MCP server demo/shop.ts); the cart is ours, kept in the worker's store like the other demo data.
import type { MockStore } from '../define-tool';
import { seeded } from './index';

export interface CartLine {
  priceId: string;
  product: string;
  /** Price of one, in the smallest currency unit (cents), as the shop quotes it. */
  unitAmount: number;
  quantity: number;
  /** The shop's pending invoice items for this line, billed at checkout. */
  invoiceItemIds: string[];
}

export interface Cart {
  email: string;
  currency: string;
  lines: CartLine[];
}

export const carts = (store: MockStore) => seeded<Record<string, Cart>>(store, 'food.carts', {});

export function money(minor: number, currency: string): string {
  return `${(minor / 100).toFixed(2)} ${currency.toUpperCase()}`;
}
