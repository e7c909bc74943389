// The environment variables of the token signing key, apart from the key's code so that the
// command definitions (help text) name them without loading the cryptography.
export const KEY_ENV = 'GATEHOUSE_PASETO_SECRET_KEY';
export const PREVIOUS_KEYS_ENV = 'GATEHOUSE_PASETO_PREVIOUS_PUBLIC_KEYS';
