// Where the project's own files are (config/, node_modules/, dist/web): the folder holding package.json, found
// upwards from here, so the same paths hold whether code runs from source (tsx) or compiled into dist/.
import { existsSync } from 'node:fs';
import path from 'node:path';

function projectRoot(from: string): string {
  let dir = from;
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

export const PROJECT_ROOT = projectRoot(__dirname);
