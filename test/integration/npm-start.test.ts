// The README's main command as a new user runs it: `npm start` with typed input (here piped), on a machine where
// the default ports may be taken. It books PTO, then asks for an order without saying bye first, and stops
// cleanly; the agent CLI then finds the dev server it ran through DATA_DIR.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { distinctFreePorts } from '../../testkit/ports';
import { week } from '../../testkit/days';

const ROOT = path.join(__dirname, '..', '..');

function npmStart(env: NodeJS.ProcessEnv, lines: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['start'], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    // One line at a time, each once the chat has asked for it: what a person at the keyboard does.
    let sent = 0;
    const feed = () => {
      const asked = out.split(/you> |approve\? /).length - 1;
      while (sent < lines.length && sent < asked) child.stdin.write(`${lines[sent++]}\n`);
    };
    child.stdout.on('data', feed);
    child.once('exit', (code) => resolve({ code, out }));
  });
}

describe('npm start, as the README says', () => {
  it('books PTO, then finds an order without a bye, and stops cleanly', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'npm-start-'));
    const [temporalPort, uiPort, apiPort] = await distinctFreePorts(3);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      TEMPORAL_PORT: String(temporalPort),
      TEMPORAL_UI_PORT: String(uiPort),
      API_PORT: String(apiPort),
      ENV_FILE: '/dev/null',
    };
    const { code, out } = await npmStart(env, [
      'I want to check my PTO',
      'ada@example.com',
      'book next Monday to Thursday for ada@example.com',
      'y',
      'where is my order',
      'ORD-1001',
      '/quit',
    ]);
    expect(out).toMatch(/Temporal dev server at 127\.0\.0\.1:\d+/);
    expect(out).toMatch(new RegExp(`web chat http://127\\.0\\.0\\.1:${env.API_PORT}/ and HTTP API`));
    expect(out).toMatch(/no API_KEYS: the API listens on 127\.0\.0\.1 only/);
    // "next Monday to Thursday", read by the worker's clock (the machine's): next week's Monday to Thursday.
    expect(out).toMatch(new RegExp(`Booked ${week(1)} to ${week(1, 3)}: 32 hours deducted`));
    expect(out).toMatch(/UPS says: In transit/);
    expect(out).not.toMatch(/I'm the offline scripted model, so I only follow a script/);
    expect(out).not.toMatch(/No workflows registered/);
    expect(out).toMatch(/\[start\] stopped/);
    expect(code).toBe(0);
  }, 180_000);
});
