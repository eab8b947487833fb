import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { registerProvidersList } from './list.js';
import { registerProvidersGet } from './get.js';

export function registerProviders(program: Command, ctx: Context): void {
  const providers = program
    .command('providers')
    .description("financial institutions (providers) and the sandbox's test providers");
  registerProvidersList(providers, ctx);
  registerProvidersGet(providers, ctx);
}
