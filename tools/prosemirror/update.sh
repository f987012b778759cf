#!/usr/bin/env bash
# Vendors ProseMirror, the console's editor (docs/console.md, docs/modules.md), into
# src/main/resources/console/vendor/: each package's ES module build with its imports made relative, minified by
# terser, with a header naming its version and licence, beside its LICENSE file and prosemirror.css. Run it by hand,
# with node and npm, to change a version; the build never runs it, and a fresh clone needs neither.
set -euo pipefail
cd "$(dirname "$0")/../.."
PACKAGES="prosemirror-model@1.25.13 prosemirror-transform@1.12.6 prosemirror-state@1.4.4 prosemirror-view@1.42.9
prosemirror-commands@1.7.2 prosemirror-keymap@1.2.3 prosemirror-history@1.5.1 prosemirror-schema-list@1.6.0
orderedmap@2.1.1 rope-sequence@1.3.4 w3c-keyname@2.2.8"
TERSER=terser@5.51.4
OUT=src/main/resources/console/vendor
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tarballs" "$work/packages" "$work/plain" "$OUT"
(cd "$work/tarballs" && npm pack --silent $PACKAGES > /dev/null)
for tarball in "$work"/tarballs/*.tgz; do
    name=$(basename "$tarball" .tgz)
    mkdir "$work/packages/$name"
    tar xzf "$tarball" -C "$work/packages/$name" --strip-components=1
done
node tools/prosemirror/vendor.mjs "$work/packages" "$work/plain" > "$work/versions"
(cd "$work" && npm install --silent --no-save --prefix "$work/terser" "$TERSER" > /dev/null)
rm -f "$OUT"/*
while read -r versioned; do
    name=${versioned%@*}
    {
        echo "// $versioned, MIT licence ($name.LICENSE)"
        "$work/terser/node_modules/.bin/terser" "$work/plain/$name.js" --module --compress --mangle --comments false
    } > "$OUT/$name.js"
    cp "$work/plain/$name.LICENSE" "$OUT/$name.LICENSE"
done < "$work/versions"
cp "$work/plain/prosemirror.css" "$OUT/prosemirror.css"
if grep -lE "(from|import)\s*\(?\s*['\"][^'\"./]" "$OUT"/*.js; then
    echo "a bare import specifier is left in the files above" >&2
    exit 1
fi
echo "vendored into $OUT: $(tr '\n' ' ' < "$work/versions")"
