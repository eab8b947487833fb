// `npm start` until `bankctl demo` exists: a short end-to-end walk of what bankctl does today,
// against an embedded sandbox on a free port, with a throw-away config directory.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'bankctl.js');
const { startSandbox } = await import(join(root, 'dist', 'sandbox.js'));
const sandbox = await startSandbox({ port: 0, authDelayMs: 200 });
const configDir = mkdtempSync(join(tmpdir(), 'bankctl-walk-'));
const env = { ...process.env, BANKCTL_CONFIG_DIR: configDir, BANKCTL_BASE_URL: sandbox.baseUrl, BANKCTL_CLIENT_ID: sandbox.clientId, BANKCTL_CLIENT_SECRET: sandbox.clientSecret };

// The sandbox lives in this process, so the CLI runs asynchronously beside it.
async function step(title, args, { capture = false } = {}) {
  console.log(`\n\x1b[1m# ${title}\x1b[0m\n$ bankctl ${args.join(' ')}`);
  const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'] });
  let out = '';
  child.stdout?.on('data', (c) => {
    out += c;
    process.stdout.write(c);
  });
  const code = await new Promise((r) => child.on('close', r));
  if (code !== 0) throw new Error(`bankctl ${args.join(' ')} exited ${code}`);
  return out;
}

try {
  console.log(`An embedded sandbox is running at ${sandbox.baseUrl} (client ${sandbox.clientId}).`);
  await step('The client and the server', ['version', '-o', 'table']);
  const user = JSON.parse(await step('Create an end user in the Swedish market', ['users', 'create', '--market', 'SE', '--locale', 'sv_SE', '-o', 'json'], { capture: true })).user_id;
  await step('Grant an authorization code for that user', ['auth', 'grant', '--user', user, '--scope', 'accounts:read,transactions:read', '-o', 'table']);
  await step('A user token, obtained by grant + exchange and cached', ['auth', 'token', '--user', user, '--scope', 'accounts:read'], { capture: true });
  await step('What is cached, and where', ['auth', 'status', '-o', 'table']);
  await step('Any endpoint, authenticated like the rest', ['api', 'GET', '/version', '--as', 'none']);
  await step('Delete the user and all of their data', ['users', 'delete', '--user', user]);
  console.log('\nDone. Run `bankctl --help` to see every command, `bankctl sandbox start` for a sandbox of your own.');
} finally {
  await sandbox.close();
  rmSync(configDir, { recursive: true, force: true });
}
