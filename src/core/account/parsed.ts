// The result of parsing user input: a value, or a message that says what to fix.
export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

export const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
export const fail = <T>(message: string): Parsed<T> => ({ ok: false, message });
