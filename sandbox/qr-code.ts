/**
 * A small QR Code encoder (ISO/IEC 18004: byte mode, error correction level M, versions 1–10)
 * for the images behind `qr_image_url`. Real codes, so a phone camera pointed at the sandbox's
 * image opens the same wa.me deep link production would; the sandbox has no dependencies, and
 * deep links (`https://wa.me/message/` + 14 characters) need version 3 at most.
 *
 * The construction follows the standard step by step: data codewords, Reed–Solomon error
 * correction per block, interleaving, function patterns, zigzag placement, and the mask with the
 * lowest penalty score. Rendered as SVG, or as a PNG via node:zlib.
 */
import { crc32, deflateSync } from 'node:zlib';

/** Per version 1..10 at level M: total codewords, error-correction codewords per block, blocks. */
const TOTAL_CODEWORDS = [26, 44, 70, 100, 134, 172, 196, 242, 292, 346];
const ECC_PER_BLOCK = [10, 16, 26, 18, 24, 16, 18, 22, 22, 26];
const BLOCKS = [1, 1, 1, 2, 2, 4, 4, 4, 5, 5];
const ALIGNMENT_CENTERS: number[][] = [[], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]];
/** Format bits of level M (ISO 18004 table 12: L=01, M=00, Q=11, H=10). */
const LEVEL_M_BITS = 0b00;
const MAX_VERSION = 10;

export interface QrMatrix {
  version: number;
  size: number;
  mask: number;
  /** modules[row][column], true = dark. */
  modules: boolean[][];
}

function dataCodewordCount(version: number): number {
  const index = version - 1;
  return (TOTAL_CODEWORDS[index] ?? 0) - (ECC_PER_BLOCK[index] ?? 0) * (BLOCKS[index] ?? 0);
}

/** Multiplication in GF(2^8) modulo the QR polynomial x^8 + x^4 + x^3 + x^2 + 1. */
function gfMultiply(x: number, y: number): number {
  let result = 0;
  for (let bit = 7; bit >= 0; bit -= 1) {
    result = (result << 1) ^ ((result >>> 7) * 0x11d);
    result ^= ((y >>> bit) & 1) * x;
  }
  return result & 0xff;
}

/** Coefficients of the generator polynomial of the given degree, highest term dropped. */
export function reedSolomonDivisor(degree: number): number[] {
  const result = new Array<number>(degree).fill(0);
  result[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i += 1) {
    for (let j = 0; j < degree; j += 1) {
      result[j] = gfMultiply(result[j] ?? 0, root);
      if (j + 1 < degree) result[j] = (result[j] ?? 0) ^ (result[j + 1] ?? 0);
    }
    root = gfMultiply(root, 0x02);
  }
  return result;
}

export function reedSolomonRemainder(data: readonly number[], divisor: readonly number[]): number[] {
  const result = new Array<number>(divisor.length).fill(0);
  for (const byte of data) {
    const factor = byte ^ (result.shift() ?? 0);
    result.push(0);
    divisor.forEach((coefficient, index) => {
      result[index] = (result[index] ?? 0) ^ gfMultiply(coefficient, factor);
    });
  }
  return result;
}

/** Mode indicator, count, bytes, terminator and padding: exactly the version's data codewords. */
function dataCodewords(bytes: Buffer, version: number): number[] {
  const bits: number[] = [];
  const append = (value: number, length: number) => {
    for (let bit = length - 1; bit >= 0; bit -= 1) bits.push((value >>> bit) & 1);
  };
  append(0b0100, 4);
  append(bytes.length, version <= 9 ? 8 : 16);
  for (const byte of bytes) append(byte, 8);
  const capacityBits = dataCodewordCount(version) * 8;
  append(0, Math.min(4, capacityBits - bits.length));
  append(0, (8 - (bits.length % 8)) % 8);
  const codewords: number[] = [];
  for (let index = 0; index < bits.length; index += 8) {
    codewords.push(bits.slice(index, index + 8).reduce((value, bit) => (value << 1) | bit, 0));
  }
  for (let pad = 0xec; codewords.length < capacityBits / 8; pad ^= 0xec ^ 0x11) codewords.push(pad);
  return codewords;
}

/** Splits into blocks, appends each block's error correction, and interleaves (ISO 18004 §7.6). */
function interleave(data: number[], version: number): number[] {
  const index = version - 1;
  const blockCount = BLOCKS[index] ?? 1;
  const eccLength = ECC_PER_BLOCK[index] ?? 0;
  const total = TOTAL_CODEWORDS[index] ?? 0;
  const shortBlocks = blockCount - (total % blockCount);
  const shortBlockLength = Math.floor(total / blockCount);
  const divisor = reedSolomonDivisor(eccLength);
  const blocks: number[][] = [];
  for (let block = 0, offset = 0; block < blockCount; block += 1) {
    const length = shortBlockLength - eccLength + (block < shortBlocks ? 0 : 1);
    const chunk = data.slice(offset, offset + length);
    offset += length;
    const ecc = reedSolomonRemainder(chunk, divisor);
    // Short blocks get a placeholder so every block has the same shape; it is skipped below.
    if (block < shortBlocks) chunk.push(0);
    blocks.push(chunk.concat(ecc));
  }
  const result: number[] = [];
  for (let position = 0; position < (blocks[0]?.length ?? 0); position += 1) {
    blocks.forEach((block, blockIndex) => {
      if (position !== shortBlockLength - eccLength || blockIndex >= shortBlocks) result.push(block[position] ?? 0);
    });
  }
  return result;
}

class Grid {
  readonly modules: boolean[][];
  readonly reserved: boolean[][];

  constructor(readonly size: number) {
    this.modules = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
    this.reserved = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
  }

  /** A function-pattern module: never data, never masked. */
  setFunction(x: number, y: number, dark: boolean): void {
    const row = this.modules[y];
    const reservedRow = this.reserved[y];
    if (row === undefined || reservedRow === undefined || x < 0 || x >= this.size) return;
    row[x] = dark;
    reservedRow[x] = true;
  }
}

function drawFinder(grid: Grid, centerX: number, centerY: number): void {
  for (let dy = -4; dy <= 4; dy += 1) {
    for (let dx = -4; dx <= 4; dx += 1) {
      const distance = Math.max(Math.abs(dx), Math.abs(dy));
      grid.setFunction(centerX + dx, centerY + dy, distance !== 2 && distance !== 4);
    }
  }
}

function drawFormatBits(grid: Grid, mask: number): void {
  const data = (LEVEL_M_BITS << 3) | mask;
  let remainder = data;
  for (let i = 0; i < 10; i += 1) remainder = (remainder << 1) ^ ((remainder >>> 9) * 0x537);
  const bits = ((data << 10) | remainder) ^ 0x5412;
  const bit = (i: number) => ((bits >>> i) & 1) !== 0;
  const { size } = grid;
  for (let i = 0; i <= 5; i += 1) grid.setFunction(8, i, bit(i));
  grid.setFunction(8, 7, bit(6));
  grid.setFunction(8, 8, bit(7));
  grid.setFunction(7, 8, bit(8));
  for (let i = 9; i < 15; i += 1) grid.setFunction(14 - i, 8, bit(i));
  for (let i = 0; i < 8; i += 1) grid.setFunction(size - 1 - i, 8, bit(i));
  for (let i = 8; i < 15; i += 1) grid.setFunction(8, size - 15 + i, bit(i));
  grid.setFunction(8, size - 8, true); // the dark module
}

function drawVersionBits(grid: Grid, version: number): void {
  if (version < 7) return;
  let remainder = version;
  for (let i = 0; i < 12; i += 1) remainder = (remainder << 1) ^ ((remainder >>> 11) * 0x1f25);
  const bits = (version << 12) | remainder;
  for (let i = 0; i < 18; i += 1) {
    const dark = ((bits >>> i) & 1) !== 0;
    const a = grid.size - 11 + (i % 3);
    const b = Math.floor(i / 3);
    grid.setFunction(a, b, dark);
    grid.setFunction(b, a, dark);
  }
}

function drawFunctionPatterns(grid: Grid, version: number): void {
  const { size } = grid;
  for (let i = 0; i < size; i += 1) {
    grid.setFunction(6, i, i % 2 === 0);
    grid.setFunction(i, 6, i % 2 === 0);
  }
  drawFinder(grid, 3, 3);
  drawFinder(grid, size - 4, 3);
  drawFinder(grid, 3, size - 4);
  const centers = ALIGNMENT_CENTERS[version - 1] ?? [];
  const last = centers.length - 1;
  centers.forEach((y, row) => {
    centers.forEach((x, column) => {
      // The three corners hold finder patterns instead.
      if ((row === 0 && column === 0) || (row === 0 && column === last) || (row === last && column === 0)) return;
      for (let dy = -2; dy <= 2; dy += 1) {
        for (let dx = -2; dx <= 2; dx += 1) grid.setFunction(x + dx, y + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
      }
    });
  });
  drawFormatBits(grid, 0); // reserves the area; redrawn with the chosen mask
  drawVersionBits(grid, version);
}

/** Zigzag placement in two-column strips from the bottom right (ISO 18004 §7.7.3). */
function placeCodewords(grid: Grid, codewords: readonly number[]): void {
  const { size } = grid;
  let bitIndex = 0;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5; // the vertical timing pattern column is skipped
    for (let vertical = 0; vertical < size; vertical += 1) {
      for (let offset = 0; offset < 2; offset += 1) {
        const x = right - offset;
        const upward = ((right + 1) & 2) === 0;
        const y = upward ? size - 1 - vertical : vertical;
        const row = grid.modules[y];
        if (row === undefined || grid.reserved[y]?.[x]) continue;
        // Remainder bits past the last codeword are light.
        const byte = codewords[bitIndex >>> 3];
        row[x] = byte !== undefined && ((byte >>> (7 - (bitIndex & 7))) & 1) !== 0;
        bitIndex += 1;
      }
    }
  }
}

const MASKS: ReadonlyArray<(x: number, y: number) => boolean> = [
  (x, y) => (x + y) % 2 === 0,
  (_x, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

function applyMask(grid: Grid, mask: number): void {
  const condition = MASKS[mask] ?? MASKS[0]!;
  for (let y = 0; y < grid.size; y += 1) {
    const row = grid.modules[y]!;
    for (let x = 0; x < grid.size; x += 1) {
      if (!grid.reserved[y]?.[x] && condition(x, y)) row[x] = !row[x];
    }
  }
}

const FINDER_LIKE = [
  [true, false, true, true, true, false, true, false, false, false, false],
  [false, false, false, false, true, false, true, true, true, false, true],
];

/** ISO 18004 §7.8.3 penalty: runs, 2×2 blocks, finder-like patterns, dark/light balance. */
function penalty(modules: boolean[][]): number {
  const size = modules.length;
  let score = 0;
  const lines: boolean[][] = [];
  for (let i = 0; i < size; i += 1) {
    lines.push(modules[i]!);
    lines.push(modules.map((row) => row[i]!));
  }
  for (const line of lines) {
    let run = 1;
    for (let i = 1; i <= line.length; i += 1) {
      if (i < line.length && line[i] === line[i - 1]) run += 1;
      else {
        if (run >= 5) score += 3 + (run - 5);
        run = 1;
      }
    }
    for (let i = 0; i + 11 <= line.length; i += 1) {
      if (FINDER_LIKE.some((pattern) => pattern.every((dark, offset) => line[i + offset] === dark))) score += 40;
    }
  }
  for (let y = 0; y + 1 < size; y += 1) {
    for (let x = 0; x + 1 < size; x += 1) {
      const color = modules[y]![x];
      if (modules[y]![x + 1] === color && modules[y + 1]![x] === color && modules[y + 1]![x + 1] === color) score += 3;
    }
  }
  const dark = modules.reduce((count, row) => count + row.filter(Boolean).length, 0);
  const total = size * size;
  score += (Math.ceil(Math.abs(dark * 20 - total * 10) / total) - 1) * 10;
  return score;
}

/** The QR matrix for `text` (UTF-8, byte mode, level M) in the smallest version that holds it. */
export function encodeQr(text: string, options: { mask?: number } = {}): QrMatrix {
  const bytes = Buffer.from(text, 'utf8');
  let version = 1;
  const bitsNeeded = (v: number) => 4 + (v <= 9 ? 8 : 16) + bytes.length * 8;
  while (version <= MAX_VERSION && bitsNeeded(version) > dataCodewordCount(version) * 8) version += 1;
  if (version > MAX_VERSION) throw new Error(`text of ${bytes.length} bytes does not fit a version ${MAX_VERSION} QR code`);

  const codewords = interleave(dataCodewords(bytes, version), version);
  const size = version * 4 + 17;
  const candidates = options.mask === undefined ? [0, 1, 2, 3, 4, 5, 6, 7] : [options.mask];
  let best: { mask: number; modules: boolean[][]; score: number } | undefined;
  for (const mask of candidates) {
    const grid = new Grid(size);
    drawFunctionPatterns(grid, version);
    placeCodewords(grid, codewords);
    applyMask(grid, mask);
    drawFormatBits(grid, mask);
    const score = penalty(grid.modules);
    if (best === undefined || score < best.score) best = { mask, modules: grid.modules, score };
  }
  return { version, size, mask: best!.mask, modules: best!.modules };
}

/** Light border of four modules, which scanners need around the code. */
const QUIET_ZONE = 4;

export function qrSvg(matrix: QrMatrix): string {
  const extent = matrix.size + QUIET_ZONE * 2;
  const path: string[] = [];
  matrix.modules.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path.push(`M${x + QUIET_ZONE},${y + QUIET_ZONE}h1v1h-1z`);
    }),
  );
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${extent} ${extent}" width="${extent * 8}" height="${extent * 8}" shape-rendering="crispEdges">` +
    `<rect width="100%" height="100%" fill="#ffffff"/><path fill="#000000" d="${path.join('')}"/></svg>`
  );
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, checksum]);
}

/** An 8-bit grayscale PNG, `scale` pixels per module. */
export function qrPng(matrix: QrMatrix, scale = 8): Buffer {
  const extent = (matrix.size + QUIET_ZONE * 2) * scale;
  const raw = Buffer.alloc((extent + 1) * extent, 0xff);
  for (let py = 0; py < extent; py += 1) {
    raw[py * (extent + 1)] = 0; // filter type None
    const y = Math.floor(py / scale) - QUIET_ZONE;
    for (let px = 0; px < extent; px += 1) {
      const x = Math.floor(px / scale) - QUIET_ZONE;
      if (matrix.modules[y]?.[x]) raw[py * (extent + 1) + 1 + px] = 0;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(extent, 0);
  header.writeUInt32BE(extent, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // grayscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
