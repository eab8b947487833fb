// A file that cannot be read or written is one line naming the file and the reason (exit 2),
// never "unexpected" with a stack: a full disk, a read-only file system, a missing permission.
import { BankctlError, UsageError } from '../errors.js';

const REASONS: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is exceeded',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  ENOENT: 'no such file or directory',
  EEXIST: 'a file is in the way',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the name is too long',
  EMFILE: 'too many open files',
  EIO: 'an input/output error',
  EFBIG: 'the file is too large',
};

export function errnoReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code && REASONS[code]) return `${REASONS[code]} (${code})`;
  if (code) return code;
  return (err as Error)?.message ?? String(err);
}

/** The error to throw for a failed file operation. */
export function fileError(err: unknown, path: string, verb: 'read' | 'write', what?: string): BankctlError {
  if (err instanceof BankctlError) return err;
  const name = what ? `${what} ${path}` : path;
  return new UsageError(`cannot ${verb} ${name}: ${errnoReason(err)}`, { cause: err });
}

/** True for the errors of a full or read-only disk (and the like), as opposed to a bug. */
export function isFileSystemError(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException)?.code;
  return !!code && code in REASONS;
}
