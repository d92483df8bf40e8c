import ignore, { type Ignore } from 'ignore';
import { fastMatcher } from './fastMatcher';

/**
 * Files that hold credentials by convention: environment files, package-registry and
 * netrc logins, git's credential store, SSH and TLS private keys, key stores, Terraform
 * state (it stores every secret of the infrastructure in clear), cloud-provider and
 * cluster login files. They are left out of every upload unless the user names them in
 * `codeScanner.uploadCredentialFiles`; templates meant to be committed (`.env.example`)
 * are not credentials. Gitignore syntax, matched case-insensitively.
 */
export const CREDENTIAL_FILE_PATTERNS: readonly string[] = [
  '.env', '.env.*', '!.env.example', '!.env.sample', '!.env.template', '!.env.dist', '!.env.defaults',
  '*.env',
  '.npmrc', '.yarnrc', '.pypirc', '.netrc', '_netrc', '.git-credentials', '.pgpass', '.my.cnf', '.htpasswd',
  '.dockercfg', '**/.docker/config.json', '.boto', '.s3cfg', '.terraformrc', 'terraform.rc',
  'id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519', 'id_ecdsa_sk', 'id_ed25519_sk', '.ssh/',
  '*.pem', '*.key', '*.p12', '*.pfx', '*.jks', '*.keystore', '*.kdbx', '*.ppk', '*.asc', '*.gpg', '.gnupg/',
  '*.tfstate', '*.tfstate.*', '*.tfvars', '*.tfvars.json',
  '**/.aws/credentials', '**/.aws/config', '.azure/', '**/.config/gcloud/', 'application_default_credentials.json',
  'credentials.json', 'client_secret*.json', 'service-account*.json',
  '**/.kube/config', 'kubeconfig', '*.kubeconfig', '*.ovpn',
  'secrets.yml', 'secrets.yaml', 'secrets.json', '.secrets', '.secrets.*',
];

/** Matches credential files, except those the user chose to upload (`allow`, gitignore syntax). */
export function credentialMatcher(allow: readonly string[] = []): (relPath: string) => boolean {
  const credentials = fastMatcher(CREDENTIAL_FILE_PATTERNS, { ignorecase: true });
  const allowed: Ignore | undefined = allow.length ? ignore({ ignorecase: true }).add([...allow]) : undefined;
  return (relPath) => credentials(relPath) && !allowed?.ignores(relPath);
}
