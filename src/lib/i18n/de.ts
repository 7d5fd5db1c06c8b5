// German texts of hosted pages and email footers (formal address).
import type { Catalogue } from './en.ts';

export const de: Catalogue = {
  'page.from': 'E-Mails von <strong>{sender}</strong>',
  'page.unknownSender': 'diesem Absender',

  'invalid.title': 'Link ungültig',
  'invalid.heading': 'Dieser Link ist ungültig',
  'invalid.body': 'Vielleicht wurde er unvollständig kopiert.',

  'busy.title': 'Bitte erneut versuchen',
  'busy.heading': 'Dieser Link ist gerade ausgelastet',
  'busy.body': 'Bitte versuchen Sie es gleich noch einmal.',

  'unsubscribe.title': 'Von {sender} abmelden',
  'unsubscribe.heading': 'Abmelden',
  'unsubscribe.question': 'Keine E-Mails mehr von {sender} an <strong>{email}</strong> erhalten?',
  'unsubscribe.questionNoEmail': 'Keine E-Mails mehr von {sender} an diese Adresse erhalten?',
  'unsubscribe.button': 'Abmelden',

  'unsubscribed.title': 'Abgemeldet',
  'unsubscribed.heading': 'Sie sind abgemeldet',
  'unsubscribed.body': 'Sie erhalten diese E-Mails von {sender} nicht mehr.',
  'unsubscribed.mistake': 'Versehentlich abgemeldet?',
  'unsubscribed.resubscribe': 'Wieder anmelden',

  'resubscribed.title': 'Wieder angemeldet',
  'resubscribed.heading': 'Sie sind wieder angemeldet',
  'resubscribed.body': 'Sie erhalten wieder E-Mails von {sender}.',

  'preferences.title': 'E-Mail-Einstellungen: {sender}',
  'preferences.heading': 'E-Mail-Einstellungen',
  'preferences.for': 'Für <strong>{email}</strong>.',
  'preferences.unsubscribedAll': 'Sie erhalten keine E-Mails von {sender} mehr.',
  'preferences.choose': 'Wählen Sie, worüber Sie informiert werden möchten:',
  'preferences.save': 'Einstellungen speichern',
  'preferences.unsubscribeAll': 'Von allem abmelden',
  'preferences.saved': 'Ihre Einstellungen sind gespeichert.',
  'preferences.unsubscribed': 'Sie sind abgemeldet.',
  'preferences.resubscribed': 'Sie sind wieder angemeldet.',
  'preferences.pauseIntro': 'Brauchen Sie eine Pause? Pausieren Sie diese E-Mails stattdessen:',
  'preferences.pause2w': 'Für 2 Wochen pausieren',
  'preferences.pause1m': 'Für 1 Monat pausieren',
  'preferences.pause3m': 'Für 3 Monate pausieren',
  'preferences.pausedUntil': 'Diese E-Mails sind bis <strong>{date}</strong> pausiert.',
  'preferences.resume': 'Jetzt fortsetzen',
  'preferences.snoozed': 'Diese E-Mails sind pausiert.',
  'preferences.resumed': 'Diese E-Mails kommen wieder.',

  'confirm.title': 'Anmeldung bei {sender} bestätigen',
  'confirm.heading': 'Bestätigen Sie Ihre Anmeldung',
  'confirm.question': '<strong>{email}</strong> für E-Mails von {sender} anmelden?',
  'confirm.button': 'Bestätigen',
  'confirmed.title': 'Anmeldung bestätigt',
  'confirmed.heading': 'Sie sind angemeldet',
  'confirmed.body': '<strong>{email}</strong> erhält E-Mails von {sender}.',
  'expired.title': 'Link abgelaufen',
  'expired.heading': 'Dieser Link ist abgelaufen',
  'expired.body': 'Bestätigungslinks sind 7 Tage gültig. Melden Sie sich erneut an, um einen neuen zu erhalten.',

  'view.imagesHidden':
    'Externe Bilder werden nicht angezeigt: ' +
    'Beim Laden erfahren die Server des Absenders, dass Sie die E-Mail angesehen haben.',
  'view.showImages': 'Bilder anzeigen',
  'view.gone.title': 'E-Mail nicht verfügbar',
  'view.gone.heading': 'Diese E-Mail ist nicht mehr verfügbar',
  'view.gone.body': 'Der Link ist abgelaufen, oder der Inhalt der E-Mail wird nicht mehr aufbewahrt.',

  'sso.back': '<a href="/">Zurück zur Anmeldung</a>',
  'sso.again': '<a href="/auth/oidc/start">Erneut mit SSO anmelden</a> oder <a href="/">zurück zur Anmeldung</a>.',
  'sso.noAccount.title': 'Kein Konto für diese Adresse',
  'sso.noAccount.body':
    '<strong>{email}</strong> hat kein Herald-Konto und keine offene Einladung. Bitten Sie einen Admin Ihres ' +
    'Projekts, diese Adresse einzuladen, und melden Sie sich dann erneut mit SSO an.',
  'sso.unverified.title': 'E-Mail nicht bestätigt',
  'sso.unverified.heading': 'Ihre E-Mail-Adresse ist nicht bestätigt',
  'sso.unverified.body':
    'Ihr Identitätsanbieter hat <strong>{email}</strong> nicht bestätigt, daher kann Herald Sie damit nicht ' +
    'anmelden. Bestätigen Sie die Adresse dort (oder bitten Sie dessen Administrator darum) und versuchen Sie es ' +
    'dann erneut.',
  'sso.noEmail.title': 'Keine E-Mail-Adresse',
  'sso.noEmail.body':
    'Ihr Identitätsanbieter hat Herald Ihre E-Mail-Adresse nicht mitgeteilt, über die Herald Sie anmeldet. Bitten ' +
    'Sie dessen Administrator, den Claim <code>email</code> für Herald freizugeben.',
  'sso.attempt.title': 'Anmeldung abgelaufen',
  'sso.attempt.heading': 'Diese Anmeldung ist abgelaufen',
  'sso.attempt.body':
    'Sie wurde vor mehr als 10 Minuten oder in einem anderen Browser gestartet oder bereits verwendet (der State ' +
    'stimmt nicht überein).',
  'sso.notSignedIn.title': 'Nicht angemeldet',
  'sso.issuerError.heading': 'Ihr Identitätsanbieter hat Sie nicht angemeldet',
  'sso.issuerError.body': 'Er hat mit einem Fehler geantwortet{detail}.',
  'sso.exchange.heading': 'Die Anmeldung konnte nicht abgeschlossen werden',
  'sso.exchange.body':
    'Die Antwort Ihres Identitätsanbieters wurde nicht akzeptiert (ihr Code wurde vielleicht bereits verwendet, ' +
    'oder sie hat die Prüfungen von Herald nicht bestanden).',
  'sso.unreachable.title': 'Identitätsanbieter nicht erreichbar',
  'sso.unreachable.heading': 'Ihr Identitätsanbieter war nicht erreichbar',
  'sso.unreachable.body':
    'Versuchen Sie es in einer Minute erneut; wenn das weiterhin passiert, wenden Sie sich an die Betreiber ' +
    'dieses Herald.',

  'form.submit': 'Abonnieren',
  'form.required': 'Dieses Feld ist erforderlich.',
  'form.invalidEmail': 'Bitte geben Sie eine gültige E-Mail-Adresse ein.',
  'form.invalidChoice': 'Bitte wählen Sie eine der Optionen.',
  'form.choose': 'Bitte wählen…',
  'form.problems': 'Bitte prüfen Sie die markierten Felder.',
  'form.honeypot': 'Dieses Feld bitte leer lassen',
  'form.pow.failed': 'Die Prüfung, dass Sie ein Mensch sind, ist fehlgeschlagen. Bitte versuchen Sie es erneut.',
  'form.pow.noScript':
    'Dieses Formular prüft in Ihrem Browser, dass Sie ein Mensch sind: Bitte aktivieren Sie JavaScript.',
  'form.unavailable': 'Dieses Formular nimmt gerade keine Anmeldungen an. Bitte versuchen Sie es später erneut.',
  'form.done.title': 'Vielen Dank',
  'form.done.subscribed': 'Vielen Dank für Ihre Anmeldung.',
  'form.done.confirm': 'Fast geschafft: Bitte bestätigen Sie Ihre Anmeldung über die E-Mail in Ihrem Posteingang.',
  'form.missing.title': 'Formular nicht gefunden',
  'form.missing.body': 'Dieses Formular existiert nicht oder wurde entfernt.',

  'footer.unsubscribe': 'Abmelden',
  'footer.manage': 'Einstellungen verwalten',
};
