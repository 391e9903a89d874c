/**
 * An assignment as a SCORM package, the zip a lecturer uploads to Moodle, Canvas or
 * Blackboard as an activity whose score goes into the gradebook (the grading page's
 * "SCORM 1.2 / 2004 package" buttons). Inside: imsmanifest.xml (SCORM 1.2, or SCORM
 * 2004 4th Edition), the built page and both engine packages (the build lists them in
 * package-files.json), the assignment as assignment.json, and launch.html, which opens
 * index.html?assignment=assignment.json&scorm=<version> (a static redirect: the page's
 * Content Security Policy allows no inline script). The page then talks to the
 * platform's runtime (www/scorm.ts).
 *
 * The zip is written here with stored entries (no compression): a header, the bytes
 * and a CRC-32 per file and one central directory (PKWARE's APPNOTE.TXT §4.3), with
 * no dependency to audit or pin; deflate would shrink the WebAssembly by about two
 * thirds, which a package of a few megabytes uploaded once does not need. Times are
 * fixed (1980-01-01), so the same inputs give the same bytes.
 */

export type PackageVersion = '1.2' | '2004';

export interface PackageFile {
  name: string;
  data: Uint8Array;
}

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
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A zip archive of stored entries. */
export function storedZip(files: PackageFile[]): Uint8Array {
  const encoder = new TextEncoder();
  const DOS_DATE = (1 << 5) | 1; // 1980-01-01
  const parts: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const { name, data } of files) {
    const nameBytes = encoder.encode(name);
    const crc = crc32(data);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true); // version needed: 2.0
    local.setUint16(6, 0x0800, true); // names in UTF-8
    local.setUint16(8, 0, true); // stored
    local.setUint16(10, 0, true); // 00:00
    local.setUint16(12, DOS_DATE, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, data.length, true);
    local.setUint32(22, data.length, true);
    local.setUint16(26, nameBytes.length, true);
    parts.push(new Uint8Array(local.buffer), nameBytes, data);
    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, 0x02014b50, true);
    central.setUint16(4, 20, true); // made by 2.0
    central.setUint16(6, 20, true);
    central.setUint16(8, 0x0800, true);
    central.setUint16(14, DOS_DATE, true);
    central.setUint32(16, crc, true);
    central.setUint32(20, data.length, true);
    central.setUint32(24, data.length, true);
    central.setUint16(28, nameBytes.length, true);
    central.setUint32(42, offset, true);
    centrals.push(new Uint8Array(central.buffer), nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directorySize = centrals.reduce((n, p) => n + p.length, 0);
  if (offset + directorySize > 0xffffffff || files.length > 0xffff) throw new Error('the package is too large for a zip without zip64');
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, files.length, true);
  end.setUint16(10, files.length, true);
  end.setUint32(12, directorySize, true);
  end.setUint32(16, offset, true);
  const all = [...parts, ...centrals, new Uint8Array(end.buffer)];
  const out = new Uint8Array(all.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of all) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** imsmanifest.xml: one SCO launched by launch.html, listing `files`. */
export function manifest(version: PackageVersion, identifier: string, title: string, files: string[]): string {
  const list = files.map((f) => `      <file href="${xml(f)}"/>`).join('\n');
  const head =
    version === '1.2'
      ? `<manifest identifier="${xml(identifier)}" version="1.0"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>`
      : `<manifest identifier="${xml(identifier)}" version="1"
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
  </metadata>`;
  // 1.2 spells the attribute scormtype, 2004 scormType.
  const type = version === '1.2' ? 'adlcp:scormtype' : 'adlcp:scormType';
  return `<?xml version="1.0" encoding="UTF-8"?>
${head}
  <organizations default="odelab-org">
    <organization identifier="odelab-org">
      <title>${xml(title)}</title>
      <item identifier="odelab-item" identifierref="odelab-sco" isvisible="true">
        <title>${xml(title)}</title>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="odelab-sco" type="webcontent" ${type}="sco" href="launch.html">
${list}
    </resource>
  </resources>
</manifest>
`;
}

/** launch.html: a static redirect to the page with the assignment and the SCORM version. */
export function launchPage(version: PackageVersion, title: string): string {
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

/**
 * The package: `page` (the built page's files), the assignment's text as
 * assignment.json, launch.html and imsmanifest.xml. Refuses an assignment that
 * carries its key: students load the package.
 */
export function scormPackage(page: PackageFile[], assignmentText: string, version: PackageVersion, name: string): Uint8Array {
  const assignment = JSON.parse(assignmentText) as { title?: unknown; key?: unknown };
  if (assignment.key !== undefined) throw new Error('this assignment carries its key: students load a SCORM package, so leave the key out');
  const title = typeof assignment.title === 'string' && assignment.title ? assignment.title : name;
  const encoder = new TextEncoder();
  const entries = [...page, { name: 'assignment.json', data: encoder.encode(assignmentText) }, { name: 'launch.html', data: encoder.encode(launchPage(version, title)) }];
  const identifier = `odelab-${name.replace(/[^A-Za-z0-9_-]/g, '-')}-scorm${version.replace('.', '')}`;
  const files = entries.map((e) => e.name).sort();
  return storedZip([{ name: 'imsmanifest.xml', data: encoder.encode(manifest(version, identifier, title, files)) }, ...entries]);
}
