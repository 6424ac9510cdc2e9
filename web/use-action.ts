// A card's action on the API (save, delete, pause …): busy while it runs, the API's message when it fails. `act`
// answers whether the work succeeded, so the card can go on (reload, close its form) only then.
import { useState } from 'react';
import { messageOf } from './api';

export function useAction(): {
  busy: boolean;
  error: string | null;
  setError(error: string | null): void;
  act(work: () => Promise<unknown>): Promise<boolean>;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function act(work: () => Promise<unknown>): Promise<boolean> {
    setBusy(true);
    setError(null);
    try {
      await work();
      return true;
    } catch (err) {
      setError(messageOf(err));
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, setError, act };
}
