"""Mints user tokens with PyJWT, for Herald's interoperability tests.

dev.herald.identity.*InteropTest and docs/identity.md#interoperability; test-only, never part of Herald. Run with
Debian's interpreter and package: /usr/bin/python3 mint.py (python3-jwt, with python3-cryptography for ES256 and
EdDSA). The same specs and answers as mint.mjs, with "library": "pyjwt":

stdin: one spec, or a JSON array of specs; stdout: one answer, or an array of answers in the same order.
  spec   {"library": "pyjwt", "alg": "HS256" | "ES256" | "EdDSA" | "none" | ...,
          "key": {"secret": base64url} | {"text": str} | {"pem": PKCS#8 PEM} | {"jwk": private JWK} | absent,
          "header": {members added to the protected header}, "claims": {the payload, exactly}}
  answer {"token": "<compact JWS>"} | {"refused": "<PyJWT's own error message>"}
"""
import base64
import json
import sys

import jwt


class SpecError(Exception):
    """A spec this script cannot read: a fault of the test, not a refusal of the library."""


def signing_key(spec):
    key = spec.get("key")
    if key is None:
        return None
    if "secret" in key:
        encoded = key["secret"]
        return base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4))
    if "text" in key:
        return key["text"]
    if "pem" in key:
        # PyJWT loads PEM itself (and refuses one given as an HMAC secret: that check is what runs).
        return key["pem"]
    if "jwk" in key:
        return jwt.PyJWK(key["jwk"], spec["alg"]).key
    raise SpecError("key: one of secret, text, pem, jwk")


def mint(spec):
    if not isinstance(spec, dict) or not isinstance(spec.get("claims"), dict):
        raise SpecError('a spec is an object with at least "library" and "claims"')
    if spec.get("library") != "pyjwt":
        raise SpecError("unknown library %r" % spec.get("library"))
    try:
        token = jwt.encode(spec["claims"], signing_key(spec), algorithm=spec["alg"],
                           headers=spec.get("header") or None)
    except SpecError:
        raise
    except Exception as refusal:  # pylint: disable=broad-except
        return {"refused": "%s: %s" % (type(refusal).__name__, refusal)}
    # PyJWT 1.x answered bytes; 2.x a str.
    return {"token": token.decode("ascii") if isinstance(token, bytes) else token}


def main():
    given = json.load(sys.stdin)
    answer = [mint(spec) for spec in given] if isinstance(given, list) else mint(given)
    sys.stdout.write(json.dumps(answer))


if __name__ == "__main__":
    try:
        main()
    except (SpecError, ValueError, KeyError) as fault:
        sys.stderr.write("mint.py: %s\n" % fault)
        sys.exit(2)
