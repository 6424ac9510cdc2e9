// A page's data from the API, loaded again whenever `round` changes (its Refresh button); an answer that arrives after
// the page moved on is dropped. The error is the API's message, for the page to show.
import { useEffect, useState } from 'react';
import { messageOf } from './api';

export function useLoaded<T>(load: () => Promise<T>, round: number): { value: T | null; error: string | null } {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setError(null);
    load().then(
      (v) => live && setValue(v),
      (err) => live && setError(messageOf(err)),
    );
    return () => {
      live = false;
    };
    // `load` is one of the api's functions: only a new round loads again.
  }, [round]);
  return { value, error };
}
