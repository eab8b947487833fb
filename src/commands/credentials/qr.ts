// `credentials qr ID`: the eID QR code while the credentials wait for it: a data URL, or a PNG file.
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { writeFileAtomicSync } from '../../fs/atomic.js';
import { ServerError, UsageError } from '../../errors.js';
import { examples, shapingFlag, type Run } from '../util.js';

export interface QrOptions {
  id: string;
  out?: string;
}

export function newCmdQr(parent: Command, ctx: Context, run: Run<QrOptions> = qrRun): Command {
  const cmd = parent
    .command('qr')
    .description(
      'the eID QR code while the credentials wait for the mobile eID (GET /api/v1/credentials/{id}/qr); prints the data URL, or writes the PNG',
    )
    .argument('<id>', 'credentials id')
    .option(
      '-O, --out <file>',
      'write the PNG image to this file instead of printing the data URL (-o json: {credentialsId, dataUrl})',
    )
    .action(async (id: string, o: { out?: string }) => {
      // the PNG goes to the file: there is nothing for --jq or --fields to shape (they were ignored)
      const flag = shapingFlag(ctx.globals);
      if (o.out !== undefined && flag)
        throw new UsageError(`${flag} does not apply with -O: the PNG image goes to the file`, {
          hint: `drop ${flag}, or drop -O for {credentialsId, dataUrl}`,
        });
      await run(ctx, { id, out: o.out });
    });
  return examples(cmd, [
    'bankctl credentials qr 6e68cc6287704273984567b3300c5822 -O qr.png',
    'bankctl credentials qr 6e68cc6287704273984567b3300c5822 > qr.txt',
  ]);
}

export async function qrRun(ctx: Context, o: QrOptions): Promise<void> {
  const { credentialsQr } = await import('../../api/credentials.js');
  const dataUrl = await credentialsQr(await ctx.api(), o.id);
  const m = /^data:image\/png;base64,([A-Za-z0-9+/=\s]+)$/.exec(dataUrl);
  if (!m) throw new ServerError('the service answered something that is not a PNG data URL');
  if (o.out) {
    const file = resolve(ctx.io.cwd, o.out);
    writeFileAtomicSync(file, Buffer.from(m[1]!.replace(/\s/g, ''), 'base64'), { what: 'the QR code image' });
    ctx.notice(`wrote ${file}`);
    return;
  }
  // an explicit -o, --jq or --fields gets what every command gives them (`-o json | jq` works
  // everywhere); without, the bare data URL, for an <img src> or a browser
  if (ctx.globals.output !== undefined || shapingFlag(ctx.globals)) {
    const { render } = await import('../../output/render.js');
    await render(ctx, { credentialsId: o.id, dataUrl });
    return;
  }
  ctx.io.stdout.write(`${dataUrl}\n`);
}
