import { fastMatcher, type PathMatcher } from './fastMatcher';

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

/**
 * Matches credential files. The user's own choice of files to upload anyway
 * (`codeScanner.uploadCredentialFiles`) is applied by the selection on top of this.
 */
export function credentialMatcher(): PathMatcher {
  return fastMatcher(CREDENTIAL_FILE_PATTERNS, { ignorecase: true });
}
