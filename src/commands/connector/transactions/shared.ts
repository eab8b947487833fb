// What the connector transactions verbs share: a container checked, errors naming FILE:LINE.
import { WireError, validateContainer } from '../../../contract/connector-wire.js';
import { UsageError } from '../../../errors.js';

export function checkContainer(
  name: string,
  lineOf: (v: unknown) => number,
  value: unknown,
  mode: 'delete' | 'update',
): void {
  try {
    validateContainer(value, mode);
  } catch (err) {
    if (err instanceof WireError) throw new UsageError(`${name}:${lineOf(value)}: ${err.message}`);
    throw err;
  }
}
