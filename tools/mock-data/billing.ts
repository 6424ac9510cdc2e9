// Invoices recorded by CreateInvoice when no payment provider is configured (offline demo).
import type { MockStore } from '../define-tool';
import { seeded } from './index';

export interface InvoiceLine {
  description: string;
  /** Unit price in the invoice's currency (not minor units). */
  amount: number;
  quantity: number;
  lineTotal: number;
}

export interface MockInvoice {
  id: string;
  email: string;
  customerName?: string;
  currency: string;
  items: InvoiceLine[];
  total: number;
  status: 'open';
  createdOn: string;
  dueDate: string;
  url: string;
}

export const invoices = (store: MockStore) => seeded<MockInvoice[]>(store, 'billing.invoices', []);
