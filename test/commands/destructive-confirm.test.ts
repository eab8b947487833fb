// budgets delete, connector webhooks delete and webhooks endpoints delete confirm like users delete:
// without a terminal they refuse without --yes (exit 2, nothing deleted); with --yes the thing is
// gone; on a terminal they ask. The spawned CLI runs dist/ (node scripts/build.mjs).
import { describe, expect, test } from 'vitest';
import { runCli, spawnCli } from '../helpers/cli.js';
import { useSandbox } from '../helpers/commands.js';
import { ScriptedPrompter } from '../../src/prompts/scripted.js';

const s = useSandbox({ user: true });

const REFUSED = /refusing without --yes \(there is no terminal to confirm on\)/;

interface Thing {
  /** The command path of the noun: ['budgets'], ['connector', 'webhooks'], ... */
  noun: string[];
  /** The message naming what is deleted, before ": refusing without --yes". */
  action: (id: string) => string;
  /** Makes one through the CLI; its id. */
  create: () => Promise<string>;
  /** The ids listed through the CLI. */
  ids: () => Promise<string[]>;
}

async function json(args: string[]): Promise<any> {
  const r = await spawnCli([...args, '-o', 'json'], { env: s.env });
  expect(r.code, `bankctl ${args.join(' ')}\n${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout);
}

const THINGS: Thing[] = [
  {
    noun: ['budgets'],
    action: (id) => `delete budget ${id}`,
    create: async () =>
      (await json(['budgets', 'create-recurring', '--name', 'x', '--amount', '1', '--currency', 'SEK'])).id,
    ids: async () => (await json(['budgets', 'list', '--include-archived'])).map((b: { id: string }) => b.id),
  },
  {
    noun: ['connector', 'webhooks'],
    action: (id) => `delete connector webhook ${id}`,
    create: async () =>
      (
        await spawnCli(
          [
            'connector',
            'webhooks',
            'create',
            '--url',
            'https://hooks.example.com/c',
            '--event',
            'transaction:create',
            '--secret-stdin',
            '-o',
            'json',
          ],
          { env: s.env, stdin: 'a-connector-webhook-secret' },
        ).then((r) => {
          expect(r.code, r.stderr).toBe(0);
          return JSON.parse(r.stdout);
        })
      ).id,
    ids: async () => (await json(['connector', 'webhooks', 'list'])).map((w: { id: string }) => w.id),
  },
  {
    noun: ['webhooks', 'endpoints'],
    action: (id) => `delete webhook endpoint ${id}`,
    create: async () =>
      (
        await json([
          'webhooks',
          'endpoints',
          'create',
          '--url',
          'https://hooks.example.com/e',
          '--event',
          'refresh:finished',
        ])
      ).id,
    ids: async () => {
      const l = await json(['webhooks', 'endpoints', 'list']);
      return (Array.isArray(l) ? l : l.webhookEndpoints).map((e: { id: string }) => e.id);
    },
  },
];

describe.each(THINGS.map((t) => [t.noun.join(' '), t] as const))('%s delete', (name, t) => {
  test('without a terminal: exit 2 naming --yes and nothing deleted; with --yes it is gone', async () => {
    const id = await t.create();
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(await t.ids()).toContain(id);

    const refused = await spawnCli([...t.noun, 'delete', id], { env: s.env });
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(`${t.action(id)}: refusing without --yes`);
    expect(refused.stderr).toMatch(REFUSED);
    expect(refused.stdout).toBe('');
    expect(await t.ids(), 'refused: still there').toContain(id);

    const rm = await spawnCli([...t.noun, 'rm', id], { env: s.env });
    expect(rm.code, 'the rm alias refuses too').toBe(2);
    expect(rm.stderr).toMatch(REFUSED);

    const yes = await spawnCli([...t.noun, 'delete', id, '--yes'], { env: s.env });
    expect(yes.code, yes.stderr).toBe(0);
    expect(yes.stderr).toMatch(/deleted webhook|deleted budget/);
    expect(await t.ids(), 'deleted: gone from the list').not.toContain(id);
    const again = await spawnCli([...t.noun, 'delete', id, '-y'], { env: s.env });
    expect(again.code, 'deleted already: the service says 404').toBe(4);
  });

  test('on a terminal: asks "Continue?" showing what goes; no keeps it, yes deletes it', async () => {
    const id = await t.create();
    const no = new ScriptedPrompter([false]);
    const kept = await runCli([...t.noun, 'delete', id], {
      env: s.env,
      stdinIsTTY: true,
      stdoutIsTTY: true,
      context: { prompter: no },
    });
    expect(kept.code, kept.stderr).toBe(2);
    expect(no.asked).toEqual([{ kind: 'confirm', message: 'Continue?' }]);
    expect(kept.stderr).toContain(`This will ${t.action(id)}:`);
    expect(kept.stderr).toContain(`profile: default`);
    expect(kept.stderr).toContain(`not confirmed: nothing was done (${t.action(id)})`);
    expect(await t.ids()).toContain(id);

    const yes = new ScriptedPrompter([true]);
    const gone = await runCli([...t.noun, 'delete', id], {
      env: s.env,
      stdinIsTTY: true,
      stdoutIsTTY: true,
      context: { prompter: yes },
    });
    expect(gone.code, gone.stderr).toBe(0);
    expect(yes.asked).toHaveLength(1);
    expect(await t.ids()).not.toContain(id);
  });

  test(`--help shows --yes for scripts (${name})`, async () => {
    const h = await spawnCli([...t.noun, 'delete', '--help']);
    expect(h.code).toBe(0);
    expect(h.stdout).toMatch(new RegExp(`\\$ bankctl ${t.noun.join(' ')} delete [0-9a-f]{32} --yes`));
  });
});

test('webhooks delete --help: the xargs example passes --yes (xargs has no terminal to confirm on)', async () => {
  const h = await spawnCli(['webhooks', 'delete', '--help']);
  expect(h.code).toBe(0);
  const xargs = h.stdout.split('\n').filter((l) => l.includes('xargs'));
  expect(xargs.length).toBeGreaterThan(0);
  for (const l of xargs) expect(l).toMatch(/xargs -r -n1 bankctl webhooks delete --yes\b/);
});
