// Draws build/icon.png (1024x1024): a rounded blue square with a white check mark. No
// downloads, no image library: raw RGBA rows, zlib, and the PNG chunk format. electron-builder
// derives the .icns (dmg) and .ico (NSIS) from it. Run: node build/make-icon.mjs
import { deflateSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const size = 1024;
const radius = 200;
const margin = 64;

function insideRoundedSquare(x, y) {
  const lo = margin;
  const hi = size - margin;
  if (x < lo || x >= hi || y < lo || y >= hi) return false;
  const cx = Math.min(Math.max(x, lo + radius), hi - radius);
  const cy = Math.min(Math.max(y, lo + radius), hi - radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
}

function distanceToSegment(px, py, [ax, ay], [bx, by]) {
  const t = Math.max(
    0,
    Math.min(1, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)),
  );
  return Math.hypot(px - (ax + t * (bx - ax)), py - (ay + t * (by - ay)));
}

const check = [
  [300, 530],
  [450, 680],
  [740, 360],
];
const rows = [];
for (let y = 0; y < size; y++) {
  const row = Buffer.alloc(1 + size * 4);
  for (let x = 0; x < size; x++) {
    let rgba = [0, 0, 0, 0];
    if (insideRoundedSquare(x, y)) {
      const shade = Math.round(40 * (y / size));
      rgba = [37 - Math.round(shade / 2), 99 - shade, 235 - shade, 255];
      const d = Math.min(
        distanceToSegment(x, y, check[0], check[1]),
        distanceToSegment(x, y, check[1], check[2]),
      );
      if (d < 48) rgba = [255, 255, 255, 255];
    }
    row.set(rgba, 1 + x * 4);
  }
  rows.push(row);
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
const header = Buffer.alloc(13);
header.writeUInt32BE(size, 0);
header.writeUInt32BE(size, 4);
header[8] = 8; // bit depth
header[9] = 6; // RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(join(import.meta.dirname, 'icon.png'), png);
