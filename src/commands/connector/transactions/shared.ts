// What the connector transactions verbs share: a container checked, errors naming FILE:LINE (the
// line of the object at fault, not the file's first line).
import { WireError, validateContainer } from '../../../contract/connector-wire.js';
import { UsageError } from '../../../errors.js';
import { lineOfField } from '../shared.js';

export function checkContainer(
  name: string,
  lineOf: (v: unknown) => number,
  value: unknown,
  mode: 'delete' | 'update',
): void {
  try {
    validateContainer(value, mode);
  } catch (err) {
    if (err instanceof WireError)
      throw new UsageError(`${name}:${lineOfField(value, err.field, lineOf)}: ${err.message}`);
    throw err;
  }
}
