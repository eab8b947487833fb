// bankctl reads secrets and the address of the service from its config directory: a directory or
// file there that another user owns, or that the group or others may write, could point bankctl
// (and its client secret) at a server of someone else's choosing. Such a path is refused.
import { chmodSync, statSync } from 'node:fs';
import { UsageError } from '../errors.js';

export function checkPrivate(path: string, kind: 'directory' | 'file'): void {
  const uid = process.getuid?.();
  if (uid === undefined) return; // Windows: no POSIX owners or modes
  let st;
  try {
    st = statSync(path);
  } catch {
    return; // not there yet: bankctl creates it 0700/0600
  }
  const name = `the config ${kind} ${path}`;
  if (st.uid !== uid) {
    throw new UsageError(`${name} is owned by another user (uid ${st.uid}); bankctl refuses to use it`, {
      hint: `use a config directory of your own (BANKCTL_CONFIG_DIR), or \`chown\` it if it is yours`,
    });
  }
  if (st.mode & 0o022) {
    const who = [st.mode & 0o020 ? 'its group' : '', st.mode & 0o002 ? 'every user' : ''].filter(Boolean).join(' and ');
    throw new UsageError(`${name} can be written by ${who}; bankctl refuses to use it`, {
      hint: `\`chmod go-w ${path}\` if its content is yours`,
    });
  }
}

/**
 * A file of the config directory that an older version or a hand made wider than 0600 (the token
 * cache, the sandbox's client secret) is tightened to 0600 when bankctl opens the directory.
 * Returns the mode it had when it was tightened (doctor reports it).
 */
export function tightenFile(file: string): number | undefined {
  try {
    const st = statSync(file);
    // one others may write is not made to look private: checkPrivate refuses it, naming it
    if (st.isFile() && st.mode & 0o077 && !(st.mode & 0o022) && st.uid === process.getuid?.()) {
      chmodSync(file, 0o600);
      return st.mode & 0o777;
    }
  } catch {
    // not there, or a read-only file system: reading still works
  }
  return undefined;
}
