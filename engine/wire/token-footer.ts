/**
 * A Gatehouse token's footer names the key that signed it, `{"kid": id}`, so a verifier picks the
 * key before it verifies anything (and keeps verifying across a key rotation).
 */
export const tokenFooter = (keyId: string): Uint8Array => new TextEncoder().encode(JSON.stringify({ kid: keyId }));

/**
 * The key id in the footer `read` returns (a PASETO library's footer inspection); null when the
 * token has no readable footer or it names no key.
 */
export function footerKeyId(read: () => Uint8Array): string | null {
  try {
    const footer: unknown = JSON.parse(new TextDecoder().decode(read()));
    return typeof footer === 'object' && footer !== null && 'kid' in footer && typeof footer.kid === 'string' ? footer.kid : null;
  } catch {
    return null;
  }
}
