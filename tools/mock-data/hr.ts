// Offline payroll data for the HR goals: where each employee's paycheck is deposited and whether that bank link
// works. Employees themselves (names, PTO) are the built-in `employees` dataset.
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

const DEPOSITS: PaycheckDeposit[] = [
  {
    email: 'ada@example.com',
    bank: 'First Analytical Bank',
    accountLast4: '1843',
    status: 'connected',
    lastDeposit: { date: '2026-11-13', amount: 4120.55 },
    nextPayday: '2026-11-27',
  },
  {
    email: 'grace@example.com',
    bank: 'Compiler Credit Union',
    accountLast4: '1906',
    status: 'pending_verification',
    nextPayday: '2026-11-27',
    note: 'Two small test deposits were sent on 2026-11-18; confirm their amounts in the payroll portal to finish the link.',
  },
];

export const paycheckDeposits = (store: MockStore) => seeded(store, 'paycheckDeposits', DEPOSITS);
