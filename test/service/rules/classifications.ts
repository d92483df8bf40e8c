// CWE classifications the rules report.
import type { Classification } from './types';

export const CWE_95: Classification = {
  id: 'CWE-95',
  name: "Improper Neutralization of Directives in Dynamically Evaluated Code ('Eval Injection')",
  description: 'Input reaches a function that evaluates it as code, so whoever controls the input can run code in the process.',
};
export const CWE_798: Classification = {
  id: 'CWE-798',
  name: 'Use of Hard-coded Credentials',
  description: 'A password, key or token is written into the source, so everyone with the code has it and rotating it needs a release.',
};
export const CWE_489: Classification = {
  id: 'CWE-489',
  name: 'Active Debug Code',
  description: 'Debugging code left in the program can leak internal data to logs or consoles and changes behaviour in production.',
};
export const CWE_480: Classification = {
  id: 'CWE-480',
  name: 'Use of Incorrect Operator',
  description: 'A loose equality operator (== or !=) converts types before comparing, so unequal values can compare equal.',
};
export const CWE_396: Classification = {
  id: 'CWE-396',
  name: 'Declaration of Catch for Generic Exception',
  description: 'A bare except clause also catches SystemExit and KeyboardInterrupt and hides real failures.',
};
export const CWE_78: Classification = {
  id: 'CWE-78',
  name: "Improper Neutralization of Special Elements used in an OS Command ('OS Command Injection')",
  description: 'A shell command is built from variable text, so crafted input can run additional commands.',
};
export const CWE_338: Classification = {
  id: 'CWE-338',
  name: 'Use of Cryptographically Weak Pseudo-Random Number Generator (PRNG)',
  description: 'A value that must not be guessed (a token, a key, a salt) comes from a generator whose output can be predicted.',
};
