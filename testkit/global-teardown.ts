// Jest's global tear-down: the run's folder the set-up made (the workflow bundle, the web chat, …) goes with the run.
import { rmSync } from 'node:fs';
import { runFolder } from './run-folder';

export default function globalTeardown(): void {
  const folder = runFolder();
  if (folder) rmSync(folder, { recursive: true, force: true });
}
