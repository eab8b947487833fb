// `config`: its verbs (the description is in src/program.ts).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { newCmdList } from './list.js';
import { newCmdGet } from './get.js';
import { newCmdSet } from './set.js';
import { newCmdUnset } from './unset.js';
import { newCmdUse } from './use.js';
import { newCmdExplain } from './explain.js';
import { newCmdProfiles } from './profiles.js';

export function registerConfig(noun: Command, ctx: Context): void {
  // config shows and saves profiles, so it may name one that is not saved yet (Context.settings)
  noun.hook('preAction', () => {
    ctx.allowUnsavedProfile = true;
  });
  newCmdList(noun, ctx);
  newCmdGet(noun, ctx);
  newCmdSet(noun, ctx);
  newCmdUnset(noun, ctx);
  newCmdUse(noun, ctx);
  newCmdExplain(noun, ctx);
  newCmdProfiles(noun, ctx);
}
