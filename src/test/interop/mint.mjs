// Mints user tokens with npm's jose or jsonwebtoken, for Herald's interoperability tests
// (dev.herald.identity.*InteropTest, docs/identity.md#interoperability). Test-only: never part of Herald.
//
// stdin: one spec, or a JSON array of specs; stdout: one answer, or an array of answers in the same order.
//   spec   {"library": "jose" | "jsonwebtoken",
//           "alg": "HS256" | "ES256" | "EdDSA" | "none" | any alg the library knows,
//           "key": {"secret": "<base64url bytes>"} | {"text": "<string used as the HMAC secret as is>"}
//                | {"pem": "<PKCS#8 PRIVATE KEY>"} | {"jwk": {private JWK}} | absent (alg none),
//           "header": {members added to the protected header: kid, typ, ...},
//           "claims": {the payload, exactly: nothing is added (no iat by default)}}
//   answer {"token": "<compact JWS>"} | {"refused": "<the library's own error message>"}
// A library that will not produce a token is answered with "refused", so the tests can say which defects a
// library cannot make; a spec the script cannot read exits with status 2.
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';

import * as jose from 'jose';
import jsonwebtoken from 'jsonwebtoken';

// What jsonwebtoken is given: strings and buffers as they are, so its own key checks run; a JWK through Node's
// crypto, as jsonwebtoken takes no JWK.
function jsonwebtokenKey(key) {
    if (key === undefined || key === null) {
        return undefined;
    }
    if (key.secret !== undefined) {
        return Buffer.from(key.secret, 'base64url');
    }
    if (key.text !== undefined) {
        return key.text;
    }
    if (key.pem !== undefined) {
        return key.pem;
    }
    if (key.jwk !== undefined) {
        return createPrivateKey({ key: key.jwk, format: 'jwk' });
    }
    throw new Error('key: one of secret, text, pem, jwk');
}

// jose's own key import (importJWK, importPKCS8), so its checks of key and algorithm are the ones that run.
async function joseKey(spec) {
    const key = spec.key;
    if (key.secret !== undefined) {
        return jose.base64url.decode(key.secret);
    }
    if (key.text !== undefined) {
        return new TextEncoder().encode(key.text);
    }
    if (key.pem !== undefined) {
        return jose.importPKCS8(key.pem, spec.alg);
    }
    if (key.jwk !== undefined) {
        return jose.importJWK(key.jwk, spec.alg);
    }
    throw new Error('key: one of secret, text, pem, jwk');
}

async function withJose(spec) {
    if (spec.alg === 'none') {
        // jose's only way to an unsecured JWT; its header is {"alg":"none"} and cannot carry a kid.
        return new jose.UnsecuredJWT(spec.claims).encode();
    }
    return new jose.SignJWT(spec.claims)
        .setProtectedHeader({ ...spec.header, alg: spec.alg })
        .sign(await joseKey(spec));
}

function withJsonwebtoken(spec) {
    // jsonwebtoken adds iat = now unless told noTimestamp, which also deletes an iat the payload has: the spec's
    // claims are the whole payload either way.
    return jsonwebtoken.sign(spec.claims, jsonwebtokenKey(spec.key), {
        algorithm: spec.alg,
        header: { ...spec.header },
        noTimestamp: !('iat' in spec.claims),
    });
}

async function mint(spec) {
    if (typeof spec !== 'object' || spec === null || typeof spec.claims !== 'object') {
        throw new Error('a spec is an object with at least "library" and "claims"');
    }
    let token;
    try {
        if (spec.library === 'jose') {
            token = await withJose(spec);
        } else if (spec.library === 'jsonwebtoken') {
            token = withJsonwebtoken(spec);
        } else {
            throw new Error(`unknown library ${spec.library}`);
        }
    } catch (refusal) {
        if (refusal.message.startsWith('unknown library') || refusal.message.startsWith('key: ')) {
            throw refusal;
        }
        return { refused: `${refusal.name}: ${refusal.message}` };
    }
    return { token };
}

async function main() {
    const input = JSON.parse(readFileSync(0, 'utf8'));
    const answer = Array.isArray(input) ? await Promise.all(input.map(mint)) : await mint(input);
    process.stdout.write(JSON.stringify(answer));
}

main().catch((error) => {
    process.stderr.write(`mint.mjs: ${error.stack}\n`);
    process.exit(2);
});
