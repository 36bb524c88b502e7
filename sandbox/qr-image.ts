/**
 * The images behind `qr_image_url`: real QR codes of the deep link, drawn by the `qrcode` package,
 * so a phone camera pointed at the sandbox's image opens the same wa.me link production would.
 */
import QRCode from 'qrcode';

export type QrImageFormat = 'SVG' | 'PNG';

/** Error correction level M, and the light border of four modules that scanners need. */
export const QR_CODE_OPTIONS = { errorCorrectionLevel: 'M', margin: 4 } as const;
const PIXELS_PER_MODULE = 8;

/**
 * The QR code of `text` as an SVG document or a PNG, 8 pixels per module.
 *
 * @example
 * const png = await renderQrImage('https://wa.me/message/ANED2T5QRU7HG2', 'PNG');
 */
export async function renderQrImage(text: string, format: QrImageFormat): Promise<Buffer> {
  if (format === 'PNG') return QRCode.toBuffer(text, { ...QR_CODE_OPTIONS, type: 'png', scale: PIXELS_PER_MODULE });
  // The SVG renderer sizes by width only; the same pixel size as the PNG.
  const modules = QRCode.create(text, QR_CODE_OPTIONS).modules.size;
  const width = (modules + 2 * QR_CODE_OPTIONS.margin) * PIXELS_PER_MODULE;
  return Buffer.from(await QRCode.toString(text, { ...QR_CODE_OPTIONS, type: 'svg', width }));
}
