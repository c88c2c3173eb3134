// How a CSV file is read (CONTRACT §23): what Excel saves in Spain is Windows-1252 text separated by `;`,
// perhaps with a byte order mark; what other programs save is UTF-8 separated by `,`. One rule for the
// browser that reads the chosen file and the server that parses its text.

const UTF8_BOM = '\uFEFF';

/**
 * Windows-1252's bytes 0x80–0x9F (the rest is Latin-1: the byte is the code point). Spelt out because Node's
 * TextDecoder('windows-1252') decodes Latin-1 instead (0x96 gives a C1 control, not «–"); browsers do not.
 * The five bytes 1252 leaves undefined keep their Latin-1 control, as the WHATWG decoder does.
 */
const CP1252_HIGH =
  '\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F' +
  '\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178';

const decodeCp1252 = (bytes: Uint8Array): string => {
  let text = '';
  for (const b of bytes) text += b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80] : String.fromCharCode(b);
  return text;
};

/**
 * The text of a CSV file's bytes: UTF-8 when the bytes are valid UTF-8, else Windows-1252 (no other
 * encoding a Spanish spreadsheet saves is likely, and every byte sequence is valid 1252); without a BOM.
 */
export function decodeCsvFile(bytes: Uint8Array): string {
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    return decodeCp1252(body);
  }
}

/** The separator of a CSV: `;` when its header line has more `;` than `,`, else `,`. */
export function csvDelimiter(csv: string): ';' | ',' {
  const header = (csv.startsWith(UTF8_BOM) ? csv.slice(1) : csv).split(/\r?\n/, 1)[0] ?? '';
  const count = (c: string) => header.split(c).length - 1;
  return count(';') > count(',') ? ';' : ',';
}
