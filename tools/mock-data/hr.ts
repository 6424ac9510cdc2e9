// Offline payroll data for the HR goals: where each employee's paycheck is deposited and whether that bank link
// works. Employees themselves (names, PTO) are the built-in `employees` dataset.
import { addDays, onOrAfter } from '../../core/days';
import type { MockStore } from '../define-tool';
import { seeded } from './index';

export interface PaycheckDeposit {
  email: string;
  bank: string;
  accountLast4: string;
  status: 'connected' | 'pending_verification' | 'disconnected';
  lastDeposit?: { date: string; amount: number };
  nextPayday: string;
  note?: string;
}

/** Paid every other Friday: the next payday is the first Friday after the demo day. */
const deposits = (day: string): PaycheckDeposit[] => {
  const nextPayday = onOrAfter(addDays(day, 1), 5);
  return [
    {
      email: 'ada@example.com',
      bank: 'First Analytical Bank',
      accountLast4: '1843',
      status: 'connected',
      lastDeposit: { date: addDays(nextPayday, -14), amount: 4120.55 },
      nextPayday,
    },
    {
      email: 'grace@example.com',
      bank: 'Compiler Credit Union',
      accountLast4: '1906',
      status: 'pending_verification',
      nextPayday,
      note: `Two small test deposits were sent on ${addDays(day, -2)}; confirm their amounts in the payroll portal to finish the link.`,
    },
  ];
};

export const paycheckDeposits = (store: MockStore) => seeded(store, 'paycheckDeposits', deposits);
