// Rules for caller-supplied header fields and attachment filenames, shared by request validation and compose.

/** Header names a caller may not set: Herald owns them, or a second copy would break the message. */
export const RESERVED_HEADER_NAMES: ReadonlySet<string> = new Set([
  'from',
  'sender',
  'to',
  'cc',
  'bcc',
  'reply-to',
  'subject',
  'date',
  'message-id',
  'in-reply-to',
  'references',
  'dkim-signature',
  'return-path',
  'received',
  'feedback-id',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'content-disposition',
  'content-id',
  'authentication-results',
  'arc-seal',
  'arc-message-signature',
  'arc-authentication-results',
  'received-spf',
]);

// eslint-disable-next-line no-control-regex
const CONTROL_LINE_CHARS = /[\r\n\u0000]/;
const FIELD_NAME = /^[\x21-\x39\x3b-\x7e]+$/; // RFC 5322 ftext: printable ASCII except ':'
const MAX_HEADER_LINE = 998;

function isReserved(lowerName: string): boolean {
  return (
    RESERVED_HEADER_NAMES.has(lowerName) || lowerName.startsWith('list-unsubscribe') || lowerName.startsWith('content-')
  );
}

// Why a custom header is refused (→ 422), or null when it may be added to the message.
export function findHeaderProblem(name: string, value: string): string | null {
  if (typeof name !== 'string' || typeof value !== 'string') return 'name and value must be strings';
  if (CONTROL_LINE_CHARS.test(name) || CONTROL_LINE_CHARS.test(value)) return 'contains CR, LF or NUL';
  if (!FIELD_NAME.test(name)) return 'name must be printable ASCII without ":" or spaces';
  if (isReserved(name.toLowerCase())) return 'this header is set by Herald and cannot be overridden';
  if (name.length + 2 + value.length > MAX_HEADER_LINE * 4) return 'value is too long';
  return null;
}

const MAX_FILENAME = 150;

// Attachment filenames end up in MIME headers and on recipients' disks: keep a safe base name.
export function sanitizeFilename(filename: string, index = 0): string {
  const base =
    String(filename ?? '')
      .split(/[/\\]/)
      .pop() ?? '';
  const cleaned = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f"<>|*?:]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  if (!cleaned) return `attachment-${index + 1}`;
  if (cleaned.length <= MAX_FILENAME) return cleaned;
  const dot = cleaned.lastIndexOf('.');
  const ext = dot > 0 && cleaned.length - dot <= 16 ? cleaned.slice(dot) : '';
  return cleaned.slice(0, MAX_FILENAME - ext.length) + ext;
}
