// The learning platforms' packages, for institutions that take uploads only: written
// by site/build.mjs into dist/lms/:
//   attention-and-transformers-scorm12.zip    the chapter, SCORM 1.2: the one-file edition with
//   attention-and-transformers-scorm2004.zip  the adapter (site/src/scorm.js) as its first script;
//                                             it reports the exercises, Figure 9.1's score and
//                                             completion, and keeps them across visits
//   figures/<name>-scorm12.zip, -scorm2004.zip  each figure alone (embed.html and its files),
//                                             completed once launched; Figure 9.1 reports its
//                                             score, complete once every step is answered
//   attention-and-transformers.imscc          IMS Common Cartridge 1.3: the chapter and every
//                                             figure as web content, for a course's files
// Each zip is written by the small writer below: deflated (node:zlib), its entries in a fixed
// order with a fixed date, so that the same edition makes the same bytes. The manifests follow
// the specifications' rules that can be checked without the platform (tests/browser/scorm.test.js
// checks them): imsmanifest.xml at the root, its schema version, one organization whose items
// each name a resource, the launch resource a SCO, every file it lists in the zip, identifiers
// unique. The schema files (.xsd) the manifests name are not carried: platforms bring their own.
import { deflateRawSync, crc32 } from "node:zlib";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";

// --- a zip writer -------------------------------------------------------------------------------
// 1980-01-01 00:00, the earliest date a zip can say: no build's time is written.
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
const DOS_TIME = 0;

/**
 * A zip of `files` ([name, Buffer | string] in the order given), each deflated unless that makes
 * it larger. Names are UTF-8 (flag bit 11). No zip64: every package is far below 4 GiB.
 * @param {[string, Buffer | string][]} files
 */
export function zip(files) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, content] of files) {
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content, "utf8");
    const packed = deflateRawSync(data, { level: 9 });
    const deflate = packed.length < data.length;
    const body = deflate ? packed : data;
    const nameBytes = Buffer.from(name, "utf8");
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(deflate ? 8 : 0, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by: 2.0
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(deflate ? 8 : 0, 10);
    central.writeUInt16LE(DOS_TIME, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, body);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

// --- manifests ----------------------------------------------------------------------------------
const xml = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The namespaces and schema version of each edition of SCORM. */
const EDITIONS = {
  1.2: {
    suffix: "scorm12",
    namespaces: `xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd"`,
    schemaversion: "1.2",
    scoType: 'adlcp:scormtype="sco"',
  },
  2004: {
    suffix: "scorm2004",
    namespaces: `xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
  xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3"
  xmlns:adlnav="http://www.adlnet.org/xsd/adlnav_v1p3"
  xmlns:imsss="http://www.imsglobal.org/xsd/imsss"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd http://www.adlnet.org/xsd/adlseq_v1p3 adlseq_v1p3.xsd http://www.adlnet.org/xsd/adlnav_v1p3 adlnav_v1p3.xsd http://www.imsglobal.org/xsd/imsss imsss_v1p0.xsd"`,
    schemaversion: "2004 4th Edition",
    scoType: 'adlcp:scormType="sco"',
  },
};

/**
 * A SCORM manifest of one SCO: `id` (the package's identifier), `title`, the launch file `href`
 * with its item's `parameters` (a query a platform appends to it), and every file of the package.
 */
function scormManifest(edition, { id, title, href, parameters = "", files }) {
  const e = EDITIONS[edition];
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${xml(id)}" version="1.0"
  ${e.namespaces}>
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>${e.schemaversion}</schemaversion>
  </metadata>
  <organizations default="${xml(id)}-org">
    <organization identifier="${xml(id)}-org">
      <title>${xml(title)}</title>
      <item identifier="${xml(id)}-item" identifierref="${xml(id)}-sco"${parameters ? ` parameters="${xml(parameters)}"` : ""}>
        <title>${xml(title)}</title>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="${xml(id)}-sco" type="webcontent" ${e.scoType} href="${xml(href)}">
${files.map((f) => `      <file href="${xml(f)}"/>`).join("\n")}
    </resource>
  </resources>
</manifest>
`;
}

/** A package: the manifest first, then its files in their order. */
const scormPackage = (edition, meta, files) =>
  zip([["imsmanifest.xml", scormManifest(edition, { ...meta, files: files.map(([f]) => f) })], ...files]);

/**
 * A Common Cartridge 1.3 of web content: `resources`, each { id, title, href, files: [[name,
 * content]] } under web_resources/, one item each in the cartridge's one organization.
 */
function cartridge({ id, title, resources }) {
  const items = resources
    .map(
      (r) =>
        `        <item identifier="${xml(r.id)}-item" identifierref="${xml(r.id)}">\n          <title>${xml(r.title)}</title>\n        </item>`,
    )
    .join("\n");
  const listed = resources
    .map(
      (r) => `    <resource identifier="${xml(r.id)}" type="webcontent" href="${xml(r.href)}">
${r.files.map(([f]) => `      <file href="${xml(f)}"/>`).join("\n")}
    </resource>`,
    )
    .join("\n");
  const manifest = `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${xml(id)}"
  xmlns="http://www.imsglobal.org/xsd/imsccv1p3/imscp_v1p1"
  xmlns:lomimscc="http://ltsc.ieee.org/xsd/imsccv1p3/LOM/manifest"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsglobal.org/xsd/imsccv1p3/imscp_v1p1 http://www.imsglobal.org/profile/cc/ccv1p3/ccv1p3_imscp_v1p2_v1p0.xsd http://ltsc.ieee.org/xsd/imsccv1p3/LOM/manifest http://www.imsglobal.org/profile/cc/ccv1p3/LOM/ccv1p3_lommanifest_v1p0.xsd">
  <metadata>
    <schema>IMS Common Cartridge</schema>
    <schemaversion>1.3.0</schemaversion>
    <lomimscc:lom>
      <lomimscc:general>
        <lomimscc:title>
          <lomimscc:string language="en">${xml(title)}</lomimscc:string>
        </lomimscc:title>
      </lomimscc:general>
    </lomimscc:lom>
  </metadata>
  <organizations>
    <organization identifier="${xml(id)}-org" structure="rooted-hierarchy">
      <item identifier="${xml(id)}-root">
${items}
      </item>
    </organization>
  </organizations>
  <resources>
${listed}
  </resources>
</manifest>
`;
  // A file shared by several resources (the figures' scripts) is stored once.
  const stored = new Map();
  for (const r of resources) for (const [f, content] of r.files) stored.set(f, content);
  return zip([["imsmanifest.xml", manifest], ...stored]);
}

// --- the packages -------------------------------------------------------------------------------
export const LMS_DIR = "lms";
const CHAPTER = "attention-and-transformers";

/**
 * Writes dist/lms/ (see the top). `chapter[edition]`: the launch page of the chapter for that
 * edition (the one-file edition with the adapter inline, site/build.mjs); `embed`: embed.html's
 * text; `embedFiles`: the files it loads, [name, content]; `adapter`: scorm.js; `figures`: the
 * registry (name → { caption title }); `title`: the chapter's. Returns the paths written, under out.
 */
export async function writeLmsPackages(out, { chapter, embed, embedFiles, adapter, figures, title }) {
  const dir = path.join(out, LMS_DIR);
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.join(dir, "figures"), { recursive: true });
  const written = [];
  const put = async (name, bytes) => {
    await writeFile(path.join(dir, name), bytes);
    written.push(`${LMS_DIR}/${name}`);
  };
  for (const edition of ["1.2", "2004"]) {
    const { suffix } = EDITIONS[edition];
    await put(
      `${CHAPTER}-${suffix}.zip`,
      scormPackage(edition, { id: `${CHAPTER}-${suffix}`, title, href: "chapter.html" }, [
        ["chapter.html", chapter[edition]],
      ]),
    );
    // A figure alone: embed.html with the adapter before its scripts, completed once launched;
    // one that keeps a score (Figure 9.1) reports it as the chapter does, and is kept across visits.
    const tag = '<script src="llmmath-widgets.js"></script>';
    if (!embed.includes(tag)) throw new Error(`embed.html: no ${tag}`);
    const launchPage = (scored) =>
      embed.replace(
        tag,
        () =>
          `<script src="scorm.js" data-scorm="${edition}"${scored ? "" : ' data-complete="view"'}></script>\n${tag}`,
      );
    for (const [name, figure] of Object.entries(figures)) {
      const launch = launchPage(figure.scored === true);
      await put(
        `figures/${name}-${suffix}.zip`,
        scormPackage(
          edition,
          {
            id: `${CHAPTER}-${name}-${suffix}`,
            title: figure.title,
            href: "embed.html",
            parameters: `?widget=${name}`,
          },
          [["embed.html", launch], ...embedFiles, ["scorm.js", adapter]],
        ),
      );
    }
  }
  // The cartridge: the one-file chapter, and each figure by a page that opens embed.html with it
  // (a web content resource names a file, not a query), all beside one copy of the embed's files.
  const web = "web_resources";
  const shared = [[`${web}/embed.html`, embed], ...embedFiles.map(([f, c]) => [`${web}/${f}`, c])];
  const opener = (name, figure) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="0; url=embed.html?widget=${xml(name)}">
<title>${xml(figure.title)}</title>
</head>
<body>
<p><a href="embed.html?widget=${xml(name)}">${xml(figure.title)}</a></p>
</body>
</html>
`;
  await put(
    `${CHAPTER}.imscc`,
    cartridge({
      id: `${CHAPTER}-cartridge`,
      title,
      resources: [
        {
          id: `${CHAPTER}-chapter`,
          title,
          href: `${web}/${CHAPTER}.html`,
          files: [[`${web}/${CHAPTER}.html`, chapter.standalone]],
        },
        ...Object.entries(figures).map(([name, figure]) => ({
          id: `${CHAPTER}-${name}`,
          title: figure.title,
          href: `${web}/${name}.html`,
          files: [[`${web}/${name}.html`, opener(name, figure)], ...shared],
        })),
      ],
    }),
  );
  return written;
}
