package dev.herald.identity;

import java.math.BigInteger;

/**
 * Which 32-byte Ed25519 public keys can be trusted (RFC 8032 §5.1.3 decoding). A key of small order (one of the 8
 * points whose multiple by 8 is the identity) lets anyone forge a signature that verifies for any message: with the
 * identity as key, R = identity and S = 0 verify everything. A non-canonical encoding (y ≥ p, or "negative" x = 0)
 * is a second spelling of a point, refused too. Plain BigInteger arithmetic: it runs once per key, not per token.
 */
final class Ed25519Points {

    private static final BigInteger P = BigInteger.TWO.pow(255).subtract(BigInteger.valueOf(19));
    private static final BigInteger D = BigInteger.valueOf(-121665)
            .multiply(BigInteger.valueOf(121666).modInverse(P)).mod(P);
    private static final BigInteger SQRT_MINUS_ONE = BigInteger.TWO.modPow(P.subtract(BigInteger.ONE).shiftRight(2), P);
    private static final int BYTES = 32;

    private Ed25519Points() {
    }

    /** @return true when the key is the canonical encoding of a point of the curve that is not of small order */
    static boolean isStrongKey(byte[] encoded) {
        if (encoded.length != BYTES) {
            return false;
        }
        byte[] bigEndian = new byte[BYTES];
        for (int i = 0; i < BYTES; i++) {
            bigEndian[i] = encoded[BYTES - 1 - i];
        }
        boolean xOdd = (bigEndian[0] & 0x80) != 0;
        bigEndian[0] &= 0x7f;
        BigInteger y = new BigInteger(1, bigEndian);
        if (y.compareTo(P) >= 0) {
            return false;
        }
        BigInteger x = xOf(y);
        if (x == null || x.signum() == 0 && xOdd) {
            return false;
        }
        BigInteger[] point = {x, y};
        for (int i = 0; i < 3; i++) {
            point = doubled(point);
        }
        boolean identity = point[0].signum() == 0 && point[1].equals(BigInteger.ONE);
        return !identity;
    }

    /** x of the point with this y (either sign: the order does not depend on it), null when there is none. */
    private static BigInteger xOf(BigInteger y) {
        BigInteger yy = y.multiply(y).mod(P);
        BigInteger u = yy.subtract(BigInteger.ONE).mod(P);
        BigInteger v = D.multiply(yy).add(BigInteger.ONE).mod(P);
        BigInteger xx = u.multiply(v.modInverse(P)).mod(P);
        BigInteger x = xx.modPow(P.add(BigInteger.valueOf(3)).shiftRight(3), P);
        if (x.multiply(x).mod(P).equals(xx)) {
            return x;
        }
        x = x.multiply(SQRT_MINUS_ONE).mod(P);
        return x.multiply(x).mod(P).equals(xx) ? x : null;
    }

    /** 2·(x, y) on -x² + y² = 1 + d·x²·y², by the complete addition law (d is not a square: no exceptions). */
    private static BigInteger[] doubled(BigInteger[] point) {
        BigInteger x = point[0];
        BigInteger y = point[1];
        BigInteger dxxyy = D.multiply(x).multiply(x).multiply(y).multiply(y).mod(P);
        BigInteger x3 = BigInteger.TWO.multiply(x).multiply(y)
                .multiply(BigInteger.ONE.add(dxxyy).modInverse(P)).mod(P);
        BigInteger y3 = y.multiply(y).add(x.multiply(x))
                .multiply(BigInteger.ONE.subtract(dxxyy).mod(P).modInverse(P)).mod(P);
        return new BigInteger[] {x3, y3};
    }
}
