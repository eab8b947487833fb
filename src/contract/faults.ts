// The kinds of fault the sandbox injects (`sandbox start --faults`): shared by the sandbox and the
// command that starts it, which may not import the sandbox statically.
export const FAULT_KINDS = ['429', '500', '503', 'reset', 'slow'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
