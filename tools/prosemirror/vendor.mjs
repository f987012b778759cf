// Copies each unpacked package's browser ES module build to OUT/<package>.js and rewrites its bare import specifiers
// ('prosemirror-model') to relative ones ('./prosemirror-model.js'): the console loads them as they are, with no
// import map (an inline script its Content-Security-Policy refuses) and no bundler. Fails on any specifier that is
// not one of the packages given. Usage: node vendor.mjs UNPACKED-DIR OUT-DIR
import fs from 'node:fs';
import path from 'node:path';

const [packagesDir, out] = process.argv.slice(2);
const packages = new Map();
for (const dir of fs.readdirSync(packagesDir)) {
  const manifest = JSON.parse(fs.readFileSync(path.join(packagesDir, dir, 'package.json'), 'utf8'));
  const entry = manifest.module || manifest.exports?.import || manifest.exports?.['.']?.import;
  packages.set(manifest.name, { dir, entry, version: manifest.version });
}
const specifier = /(\bfrom\s*|\bimport\s*\(?\s*)(['"])([^'"./][^'"]*)\2/g;
for (const [name, { dir, entry, version }] of packages) {
  const source = fs.readFileSync(path.join(packagesDir, dir, entry), 'utf8').replace(specifier, (all, keyword, quote, bare) => {
    if (!packages.has(bare)) throw new Error(`${name}: unknown bare specifier ${bare}`);
    return `${keyword}${quote}./${bare}.js${quote}`;
  });
  fs.writeFileSync(path.join(out, `${name}.js`), source);
  fs.copyFileSync(path.join(packagesDir, dir, 'LICENSE'), path.join(out, `${name}.LICENSE`));
  console.log(`${name}@${version}`);
}
fs.copyFileSync(path.join(packagesDir, packages.get('prosemirror-view').dir, 'style/prosemirror.css'),
                path.join(out, 'prosemirror.css'));
