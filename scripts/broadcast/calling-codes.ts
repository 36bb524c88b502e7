/**
 * Country calling codes (ITU-T E.164 assignments, geographic areas only), to split a full
 * international number from a CSV's `phone` column into the contract's `countryCode` +
 * `toPhoneNumber`.
 *
 * Why a table of our own: the project keeps none (job-fan-out records free-form recipients
 * unsplit, and the demo pricing knows six codes), no installed package carries one, and a full
 * numbering-plan library (libphonenumber, ~10 MB of metadata) would be a new dependency for one
 * split. The split needs only the codes: E.164 calling codes are prefix-free (no code is the
 * start of another), so exactly one 1-, 2- or 3-digit prefix of a valid number is a code.
 * Non-geographic codes (800, 808, 870, 878, 881–883, 888, 979) are left out: WhatsApp accounts
 * do not live on them. Source: ITU-T E.164 Annex to Operational Bulletin (list of assigned codes).
 */

/** All codes, as strings of digits. */
export const callingCodes: ReadonlySet<string> = new Set([
  // one digit: North American Numbering Plan, Russia and Kazakhstan
  '1', '7',
  // two digits
  '20', '27', '30', '31', '32', '33', '34', '36', '39', '40', '41', '43', '44', '45', '46', '47', '48', '49',
  '51', '52', '53', '54', '55', '56', '57', '58', '60', '61', '62', '63', '64', '65', '66',
  '81', '82', '84', '86', '90', '91', '92', '93', '94', '95', '98',
  // three digits, by zone
  '211', '212', '213', '216', '218',
  '220', '221', '222', '223', '224', '225', '226', '227', '228', '229',
  '230', '231', '232', '233', '234', '235', '236', '237', '238', '239',
  '240', '241', '242', '243', '244', '245', '246', '247', '248', '249',
  '250', '251', '252', '253', '254', '255', '256', '257', '258',
  '260', '261', '262', '263', '264', '265', '266', '267', '268', '269',
  '290', '291', '297', '298', '299',
  '350', '351', '352', '353', '354', '355', '356', '357', '358', '359',
  '370', '371', '372', '373', '374', '375', '376', '377', '378', '379',
  '380', '381', '382', '383', '385', '386', '387', '389',
  '420', '421', '423',
  '500', '501', '502', '503', '504', '505', '506', '507', '508', '509',
  '590', '591', '592', '593', '594', '595', '596', '597', '598', '599',
  '670', '672', '673', '674', '675', '676', '677', '678', '679',
  '680', '681', '682', '683', '685', '686', '687', '688', '689', '690', '691', '692',
  '850', '852', '853', '855', '856', '880', '886',
  '960', '961', '962', '963', '964', '965', '966', '967', '968',
  '970', '971', '972', '973', '974', '975', '976', '977',
  '992', '993', '994', '995', '996', '998',
]);

export interface SplitNumber {
  countryCode: string;
  toPhoneNumber: string;
}

/**
 * `countryCode` + `toPhoneNumber` of a full international number given as digits (no `+`), or
 * undefined when none of its first three digits form an assigned code or nothing is left after it.
 */
export function splitInternationalNumber(digits: string): SplitNumber | undefined {
  for (let length = 1; length <= 3; length += 1) {
    const code = digits.slice(0, length);
    if (callingCodes.has(code)) {
      const national = digits.slice(length);
      return national.length > 0 ? { countryCode: code, toPhoneNumber: national } : undefined;
    }
  }
  return undefined;
}
