import { describe, expect } from 'vitest';
import { newCmdAuthenticate } from '../../../src/commands/credentials/authenticate.js';
import { cliCases, connectTestBank, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ user: true });
let id = '';
const FAST = ['--poll-interval', '20', '--wait-timeout', '20'];

describe('credentials authenticate', () => {
  optionCases('credentials authenticate', newCmdAuthenticate, [
    {
      name: 'an app URI',
      args: ['c1', '--app-uri', 'https://app.example/'],
      options: { id: 'c1', appUri: 'https://app.example/', walk: undefined },
    },
    {
      name: 'a bad --return-url',
      args: ['c1', '--wait', '--return-url', 'nowhere'],
      code: 2,
      stderr: '--return-url: "nowhere" is not a URL',
    },
  ]);
  cliCases('credentials authenticate', () => sb.env, [
    {
      name: '--wait ends UPDATED',
      before: async () => void (id = await connectTestBank(sb.env)),
      args: () => [id, '--wait', ...FAST, '-o', 'json'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out).status).toBe('UPDATED'),
    },
    {
      name: 'without --wait: started, and how to follow it',
      args: () => [id],
      code: 0,
      stderr: /authentication of [0-9a-f]{32} started/,
    },
  ]);
});
