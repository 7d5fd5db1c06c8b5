import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { toDataURL } from 'qrcode';
import { useSession } from '../../../app/session/session-context.tsx';
import type { Api } from '../../../shared/api/client.ts';
import { submitWith } from '../../../shared/forms.ts';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { CopyButton } from '../../../shared/ui/buttons.tsx';
import { disableTwoFactor, enableTwoFactor, setupTwoFactor } from '../api.ts';

/** The otpauth:// URL as a QR code image, drawn here (no request leaves the page). */
function QrCode({ value }: { value: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    toDataURL(value, { margin: 2, width: 200, errorCorrectionLevel: 'M' }).then(
      (url) => {
        if (live) setSrc(url);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [value]);
  return src ? (
    <img className="qr" src={src} width={200} height={200} alt="QR code of the two-factor secret, for an app" />
  ) : (
    <div className="qr" aria-hidden="true" />
  );
}

/** Step one and two: the new secret (QR code and text), and a code of it to turn two-factor on. */
function Enable({
  api,
  secret,
  otpauthUrl,
  onEnabled,
  onCancel,
}: {
  api: Api;
  secret: string;
  otpauthUrl: string;
  onEnabled: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const [code, setCode] = useState('');
  const enable = useMutation({
    mutationFn: () => enableTwoFactor(api, code.trim()),
    onSuccess: (enabled) => onEnabled(enabled.recoveryCodes),
  });
  return (
    <div className="two-factor-setup">
      <ol>
        <li>
          Scan this QR code with an authenticator app (1Password, Google Authenticator, Aegis…):
          <QrCode value={otpauthUrl} />
          <p className="copyable">
            <span>or type this secret into it:</span> <code data-testid="totp-secret">{secret}</code>
            <CopyButton value={secret} label="two-factor secret" />
          </p>
        </li>
        <li>
          <form onSubmit={submitWith(() => enable.mutate())} aria-label="Confirm two-factor" className="inline-form">
            <div className="field">
              <label htmlFor="totp-code">Code from the app</label>
              <input
                id="totp-code"
                autoComplete="one-time-code"
                inputMode="numeric"
                required
                value={code}
                onChange={(e) => setCode(e.target.value)}
              />
            </div>
            <button type="submit" disabled={enable.isPending || code.trim() === ''}>
              Turn on two-factor
            </button>
            <button type="button" className="secondary" onClick={onCancel}>
              Cancel
            </button>
          </form>
        </li>
      </ol>
      {enable.error !== null && <ErrorMessage error={enable.error} />}
    </div>
  );
}

/** The ten recovery codes, shown this once. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="notice secret" role="status">
      <p>
        <strong>Two-factor is on.</strong> Keep these recovery codes somewhere safe: each signs you in once without the
        app. They are not shown again.
      </p>
      <ul className="recovery-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="actions">
        <CopyButton value={codes.join('\n')} label="recovery codes" />
        <button type="button" onClick={onDone}>
          I have saved them
        </button>
      </div>
    </div>
  );
}

/** Turning two-factor off: the password and a current code (or a recovery code). */
function Disable({ api, onDisabled }: { api: Api; onDisabled: () => Promise<unknown> }) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const disable = useMutation({
    mutationFn: async () => {
      await disableTwoFactor(api, password, code.trim());
      await onDisabled();
    },
  });
  return (
    <form onSubmit={submitWith(() => disable.mutate())} aria-label="Turn off two-factor">
      <div className="grid-2">
        <div className="field">
          <label htmlFor="disable-password">Your password</label>
          <input
            id="disable-password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="disable-code">Code or recovery code</label>
          <input
            id="disable-code"
            autoComplete="one-time-code"
            required
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
        </div>
      </div>
      {disable.error !== null && <ErrorMessage error={disable.error} />}
      <button type="submit" className="danger" disabled={disable.isPending}>
        Turn off two-factor
      </button>
    </form>
  );
}

/**
 * Two-factor sign-in (TOTP): set up with a QR code, confirmed with a code, recovery codes shown once; or turned
 * off.
 */
export function TwoFactorPanel() {
  const { account, personApi, refreshAccount } = useSession();
  const [pending, setPending] = useState<{ secret: string; otpauthUrl: string } | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const start = useMutation({ mutationFn: () => setupTwoFactor(personApi!), onSuccess: setPending });
  if (!account || !personApi) return null;
  const on = account.user.twoFactor;
  const enabled = (recovery: string[]) => {
    setPending(null);
    setCodes(recovery);
    void refreshAccount();
  };
  return (
    <section className="panel" aria-labelledby="two-factor-title">
      <div className="panel-head">
        <h2 id="two-factor-title">Two-factor sign-in</h2>
        <span className={`badge ${on ? 'badge-good' : 'badge-neutral'}`} data-testid="two-factor-state">
          {on ? 'ON' : 'OFF'}
        </span>
      </div>
      {codes && <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />}
      {on && !codes && (
        <>
          <p>Signing in asks for a code of your authenticator app after your password.</p>
          <Disable api={personApi} onDisabled={refreshAccount} />
        </>
      )}
      {!on && !pending && (
        <>
          <p>
            With two-factor, signing in also asks for a code from an app on your phone, so a stolen password is not
            enough.
          </p>
          <button type="button" disabled={start.isPending} onClick={() => start.mutate()}>
            Set up two-factor
          </button>
        </>
      )}
      {!on && pending && (
        <Enable
          api={personApi}
          secret={pending.secret}
          otpauthUrl={pending.otpauthUrl}
          onEnabled={enabled}
          onCancel={() => setPending(null)}
        />
      )}
      {start.error !== null && <ErrorMessage error={start.error} />}
    </section>
  );
}
