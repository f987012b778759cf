// Answers BCP 47 questions with code Herald did not write, for dev.herald.locale.LanguageInteropTest
// (docs/languages.md#tested-against). Test-only: never part of Herald.
//
// stdin:  {"tags": ["<a tag>", ...],
//          "headers": [{"header": "<an Accept-Language value>", "herald": ["<Herald's ranges of it>", ...]}, ...],
//          "available": [["<canonical tag>", ...], ...], "default": "<tag>"}
// stdout: {"versions": {"node", "icu", "cldr", "@formatjs/intl-localematcher", "negotiator"},
//          "tags": [{"canonical": "<Intl.getCanonicalLocales' answer>",
//                    "base": "<its Intl.Locale baseName: without extensions and private use>"}
//                   | {"refused": "<the RangeError's message>"}, ...],
//          "headers": [{"negotiator": [its ranges, most wanted first, as written] | {"refused": "<its error>"},
//                       "ranges": [the base names of those Intl accepts, without * and repeats],
//                       "lookup": [per available set: lookup of the canonical ranges (the reference's own reading)],
//                       "heraldLookup": [per available set: lookup of Herald's ranges (the matcher alone)]}, ...]}
// Lookup is @formatjs/intl-localematcher's match(…, {algorithm: 'lookup'}): ECMA-402's LookupMatcher, RFC 4647 §3.4.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { match } from '@formatjs/intl-localematcher';
import Negotiator from 'negotiator';

const input = JSON.parse(readFileSync(0, 'utf8'));

function canonical(tag) {
    try {
        const canonical = Intl.getCanonicalLocales(tag)[0];
        return { canonical, base: new Intl.Locale(canonical).baseName };
    } catch (error) {
        return { refused: String(error.message) };
    }
}

function lookup(ranges, available) {
    return match(ranges, available, input.default, { algorithm: 'lookup' });
}

function negotiate(header) {
    try {
        return new Negotiator({ headers: { 'accept-language': header } }).languages();
    } catch (error) {
        return { refused: String(error.message) };
    }
}

function header(entry) {
    const negotiated = negotiate(entry.header);
    const canonicals = [];
    const ranges = [];
    for (const range of Array.isArray(negotiated) ? negotiated : []) {
        const answer = range === '*' ? {} : canonical(range);
        if (answer.canonical !== undefined && !canonicals.includes(answer.canonical)) {
            canonicals.push(answer.canonical);
        }
        if (answer.base !== undefined && !ranges.includes(answer.base)) {
            ranges.push(answer.base);
        }
    }
    return {
        negotiator: negotiated,
        ranges,
        lookup: input.available.map(available => lookup(canonicals, available)),
        heraldLookup: input.available.map(available => lookup(entry.herald, available)),
    };
}

// From the installed package.json itself (its exports do not include it), so the answer names what ran.
function version(name) {
    const file = fileURLToPath(new URL(`node_modules/${name}/package.json`, import.meta.url));
    return JSON.parse(readFileSync(file, 'utf8')).version;
}

process.stdout.write(JSON.stringify({
    versions: {
        node: process.versions.node,
        icu: process.versions.icu,
        cldr: process.versions.cldr,
        '@formatjs/intl-localematcher': version('@formatjs/intl-localematcher'),
        negotiator: version('negotiator'),
    },
    tags: input.tags.map(canonical),
    headers: input.headers.map(header),
}));
