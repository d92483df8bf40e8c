// What zHostilePolicy.test.ts leaves for zHostilePolicy.reloaded.ts across the window's reload.
export const HOSTILE_POLICY = 'a hostile policy pattern kept across a reload';

export interface HostilePolicy { policyIds: number[]; pattern: string }
