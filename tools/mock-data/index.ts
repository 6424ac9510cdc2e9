// Demo data the offline tools read and change. Each worker starts from these seeds; handlers mutate a copy
// held in the injected store, so tests can check that a booking really changed a balance. Every date in the seeds
// is counted from the demo day (the day the data was first written, by the store's clock), so the demo reads the
// same on any day: an order placed last week, a payday next Friday. `npm start -- --reset` writes it anew.
import { addDays, isoDay } from '../../core/days';
import type { MockStore } from '../define-tool';

export interface Employee {
  email: string;
  name: string;
  ptoHoursLeft: number;
  hoursAccruedPerMonth: number;
  bookings: { startDate: string; endDate: string; hours: number }[];
}

export interface Order {
  id: string;
  email: string;
  status: 'processing' | 'shipped' | 'delivered' | 'cancelled';
  placedOn: string;
  items: { sku: string; name: string; quantity: number; price: number }[];
  trackingNumber?: string;
}

export interface Shipment {
  trackingNumber: string;
  carrier: string;
  status: string;
  lastScan: string;
  estimatedDelivery: string;
}

const seeds = (day: string): Datasets => ({
  employees: [
    { email: 'ada@example.com', name: 'Ada Lovelace', ptoHoursLeft: 104, hoursAccruedPerMonth: 8, bookings: [] },
    { email: 'grace@example.com', name: 'Grace Hopper', ptoHoursLeft: 36, hoursAccruedPerMonth: 6.67, bookings: [] },
  ],
  orders: [
    {
      id: 'ORD-1001',
      email: 'ada@example.com',
      status: 'shipped',
      placedOn: addDays(day, -10),
      trackingNumber: '1Z999AA10123456784',
      items: [{ sku: 'KB-01', name: 'Mechanical keyboard', quantity: 1, price: 129 }],
    },
    {
      id: 'ORD-1002',
      email: 'ada@example.com',
      status: 'processing',
      placedOn: addDays(day, -1),
      items: [{ sku: 'MS-02', name: 'Wireless mouse', quantity: 2, price: 39.5 }],
    },
    {
      id: 'ORD-2001',
      email: 'grace@example.com',
      status: 'delivered',
      placedOn: addDays(day, -59),
      trackingNumber: '9400111899223344556677',
      items: [{ sku: 'MN-27', name: '27" monitor', quantity: 1, price: 319 }],
    },
  ],
  shipments: [
    {
      trackingNumber: '1Z999AA10123456784',
      carrier: 'UPS',
      status: 'In transit',
      lastScan: 'Louisville, KY',
      estimatedDelivery: addDays(day, 4),
    },
    {
      trackingNumber: '9400111899223344556677',
      carrier: 'USPS',
      status: 'Delivered',
      lastScan: 'Arlington, VA',
      estimatedDelivery: addDays(day, -55),
    },
  ],
});

interface Datasets {
  employees: Employee[];
  orders: Order[];
  shipments: Shipment[];
}

/** The store's copy of a built-in dataset, seeded on first use. */
export function dataset<N extends keyof Datasets>(store: MockStore, name: N): Datasets[N] {
  return seeded(store, name, (day) => seeds(day)[name]);
}

/** Where the store keeps its demo day. */
const DEMO_DAY = 'demo.day';

/** The day the store's demo data is dated from: its clock's today when first asked, then kept with the data. */
export function demoDay(store: MockStore): string {
  if (!store.has(DEMO_DAY)) store.set(DEMO_DAY, isoDay(store.now()));
  return store.get(DEMO_DAY) as string;
}

/**
 * The store's copy of any dataset, seeded from `seed` on first use (a function: given the demo day, for data with
 * dates): other domains keep their data in files of their own (tools/mock-data/<domain>.ts) and call this, so no
 * shared list grows with every tool.
 */
export function seeded<T>(store: MockStore, name: string, seed: T | ((day: string) => T)): T {
  if (!store.has(name))
    store.set(name, structuredClone(typeof seed === 'function' ? (seed as (day: string) => T)(demoDay(store)) : seed));
  return store.get(name) as T;
}
