// Offline bank data for the finance goals: customers with checking and savings accounts, and what the agents
// record (transfers, loan applications). Seeded per store, so each worker (and each test) starts from these.
import type { MockStore } from '../define-tool';
import { seeded } from './index';

export type AccountType = 'checking' | 'savings';

export interface BankCustomer {
  accountId: string;
  name: string;
  email: string;
  customerSince: string;
  balances: Record<AccountType, number>;
  bitcoin: number;
}

export interface Transfer {
  confirmationId: string;
  accountId: string;
  from: AccountType;
  /** `checking` / `savings` of the same customer, or another customer's account number. */
  to: string;
  amount: number;
  on: string;
}

export interface LoanApplication {
  referenceId: string;
  accountId: string;
  amount: number;
  termMonths: number;
  purpose: string;
  aprPercent: number;
  estimatedMonthlyPayment: number;
  status: 'submitted';
  submittedOn: string;
}

/** Customers for 12, 7 and 2 years before the demo day. */
const customers = (day: string): BankCustomer[] => [
  {
    accountId: '11235',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    customerSince: yearsBefore(day, 12, '03-10'),
    balances: { checking: 875.4, savings: 3200.15 },
    bitcoin: 0.1378,
  },
  {
    accountId: '81321',
    name: 'Grace Hopper',
    email: 'grace@example.com',
    customerSince: yearsBefore(day, 7, '07-01'),
    balances: { checking: 2410, savings: 150.75 },
    bitcoin: 0,
  },
  {
    accountId: '34558',
    name: 'Alan Turing',
    email: 'alan@example.com',
    customerSince: yearsBefore(day, 2, '01-15'),
    balances: { checking: 12.5, savings: 0 },
    bitcoin: 0.5,
  },
];

export const bankCustomers = (store: MockStore) => seeded(store, 'bankCustomers', customers);

function yearsBefore(day: string, years: number, monthDay: string): string {
  return `${Number(day.slice(0, 4)) - years}-${monthDay}`;
}
export const transfers = (store: MockStore) => seeded<Transfer[]>(store, 'transfers', []);
export const loanApplications = (store: MockStore) => seeded<LoanApplication[]>(store, 'loanApplications', []);

/** Dollars rounded to the cent, so repeated transfers do not drift (0.1 + 0.2). */
export const cents = (amount: number) => Math.round(amount * 100) / 100;

export const usd = (amount: number) => amount.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
