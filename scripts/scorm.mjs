#!/usr/bin/env node
// An assignment as a SCORM package, the zip a lecturer uploads to Moodle, Canvas or
// Blackboard as an activity whose score goes into the gradebook:
//
//   node scripts/scorm.mjs examples/assignments/stability.json --scorm 1.2 --out stability-scorm12.zip
//   node scripts/scorm.mjs examples/assignments/stability.json --scorm 2004 --out stability-scorm2004.zip
//
// (after `npx vite build`: the package holds the built page, dist/). Inside: imsmanifest.xml
// (SCORM 1.2, or SCORM 2004 4th Edition), the page and both engine packages, the
// assignment as assignment.json, and launch.html, which opens
// index.html?assignment=assignment.json&scorm=<version> (a static redirect: the page's
// Content Security Policy allows no inline script). The page then talks to the
// platform's runtime (www/scorm.ts).
//
// The zip is written here, stored (no compression): a zip of stored entries is a
// header, the bytes and a CRC-32 per file and one central directory (PKWARE's
// APPNOTE.TXT §4.3), sixty lines with no dependency to audit or pin; the engines are
// WebAssembly that deflate would shrink by about two thirds, which a package of a few
// megabytes uploaded once does not need. Times are fixed (1980-01-01), so the same
// inputs give the same bytes.
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (ISO 3309, the zip format's). */
export function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A zip archive of stored entries: `files` is [{ name, data: Buffer }]. */
export function storedZip(files) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  const DOS_DATE = (0 << 9) | (1 << 5) | 1; // 1980-01-01
  for (const { name, data } of files) {
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0
    local.writeUInt16LE(0x0800, 6); // names in UTF-8
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt16LE(0, 10); // time 00:00
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, nameBytes, data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by 2.0
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  if (offset > 0xffffffff || files.length > 0xffff) throw new Error('the package is too large for a zip without zip64');
  return Buffer.concat([...locals, directory, end]);
}

const xml = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** imsmanifest.xml for `version` ('1.2' or '2004'), one SCO launched by launch.html. */
export function manifest(version, { identifier, title, files }) {
  const fileList = files.map((f) => `      <file href="${xml(f)}"/>`).join('\n');
  if (version === '1.2') {
    return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${xml(identifier)}" version="1.0"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="odelab-org">
    <organization identifier="odelab-org">
      <title>${xml(title)}</title>
      <item identifier="odelab-item" identifierref="odelab-sco" isvisible="true">
        <title>${xml(title)}</title>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="odelab-sco" type="webcontent" adlcp:scormtype="sco" href="launch.html">
${fileList}
    </resource>
  </resources>
</manifest>
`;
  }
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${xml(identifier)}" version="1"
  xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
  xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3"
  xmlns:adlnav="http://www.adlnet.org/xsd/adlnav_v1p3"
  xmlns:imsss="http://www.imsglobal.org/xsd/imsss"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd http://www.adlnet.org/xsd/adlseq_v1p3 adlseq_v1p3.xsd http://www.adlnet.org/xsd/adlnav_v1p3 adlnav_v1p3.xsd http://www.imsglobal.org/xsd/imsss imsss_v1p0.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>2004 4th Edition</schemaversion>
  </metadata>
  <organizations default="odelab-org">
    <organization identifier="odelab-org">
      <title>${xml(title)}</title>
      <item identifier="odelab-item" identifierref="odelab-sco" isvisible="true">
        <title>${xml(title)}</title>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="odelab-sco" type="webcontent" adlcp:scormType="sco" href="launch.html">
${fileList}
    </resource>
  </resources>
</manifest>
`;
}

/** launch.html: a static redirect to the page with the assignment and the SCORM version. */
export function launchPage(version, title) {
  const target = `index.html?assignment=assignment.json&amp;scorm=${version}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${xml(title)}</title>
<meta http-equiv="refresh" content="0; url=${target}">
</head>
<body>
<p><a href="${target}">Open the assignment</a></p>
</body>
</html>
`;
}

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/**
 * The package's bytes: the built page of `dist` (without source maps, the example
 * lecture and assignments, or packages built before), `assignmentText` as
 * assignment.json, launch.html and imsmanifest.xml.
 */
export function scormPackage({ dist, assignmentText, version, name = 'assignment' }) {
  if (version !== '1.2' && version !== '2004') throw new Error(`--scorm must be 1.2 or 2004, got ${version}`);
  const assignment = JSON.parse(assignmentText);
  if (assignment.odelabAssignment === undefined) throw new Error('this is not an odelab assignment (no "odelabAssignment")');
  if (assignment.key !== undefined) throw new Error('this assignment carries its key: a SCORM package is loaded by students, so leave the key out');
  const title = assignment.title || name;
  const page = walk(dist)
    .map((path) => relative(dist, path).split(sep).join('/'))
    .filter((f) => !f.endsWith('.map') && !f.startsWith('examples/') && !f.endsWith('.zip'))
    .sort();
  if (!page.includes('index.html')) throw new Error(`${dist} has no index.html: build the page first (npx vite build)`);
  const entries = page.map((f) => ({ name: f, data: readFileSync(join(dist, f)) }));
  entries.push({ name: 'assignment.json', data: Buffer.from(assignmentText) });
  entries.push({ name: 'launch.html', data: Buffer.from(launchPage(version, title)) });
  const files = entries.map((e) => e.name).sort();
  const identifier = `odelab-${name.replace(/[^A-Za-z0-9_-]/g, '-')}-scorm${version.replace('.', '')}`;
  return storedZip([{ name: 'imsmanifest.xml', data: Buffer.from(manifest(version, { identifier, title, files })) }, ...entries]);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (flag, fallback) => {
    const at = args.indexOf(flag);
    return at >= 0 ? args[at + 1] : fallback;
  };
  const input = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
  if (!input) {
    console.error('usage: node scripts/scorm.mjs <assignment.json> --scorm 1.2|2004 [--out package.zip] [--dist dist]');
    process.exit(2);
  }
  const version = option('--scorm', '1.2');
  const name = basename(input, '.json');
  const out = option('--out', `${name}-scorm${version.replace('.', '')}.zip`);
  const dist = resolve(option('--dist', fileURLToPath(new URL('../dist/', import.meta.url))));
  const zip = scormPackage({ dist, assignmentText: readFileSync(input, 'utf8'), version, name });
  writeFileSync(out, zip);
  console.log(`${out}: SCORM ${version}, ${(zip.length / 1e6).toFixed(1)} MB`);
}
