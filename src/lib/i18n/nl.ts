// Dutch texts of hosted pages and email footers ("je").
import type { Catalogue } from './en.ts';

export const nl: Catalogue = {
  'page.from': 'E-mails van <strong>{sender}</strong>',
  'page.unknownSender': 'deze afzender',

  'invalid.title': 'Link ongeldig',
  'invalid.heading': 'Deze link is ongeldig',
  'invalid.body': 'Misschien is hij niet volledig gekopieerd.',

  'busy.title': 'Probeer het opnieuw',
  'busy.heading': 'Deze link is bezet',
  'busy.body': 'Probeer het zo meteen opnieuw.',

  'unsubscribe.title': 'Afmelden bij {sender}',
  'unsubscribe.heading': 'Afmelden',
  'unsubscribe.question': 'Geen e-mails meer ontvangen van {sender} op <strong>{email}</strong>?',
  'unsubscribe.questionNoEmail': 'Geen e-mails meer ontvangen van {sender} op dit adres?',
  'unsubscribe.button': 'Afmelden',

  'unsubscribed.title': 'Afgemeld',
  'unsubscribed.heading': 'Je bent afgemeld',
  'unsubscribed.body': 'Je ontvangt deze e-mails van {sender} niet meer.',
  'unsubscribed.mistake': 'Per ongeluk afgemeld?',
  'unsubscribed.resubscribe': 'Opnieuw aanmelden',

  'resubscribed.title': 'Weer aangemeld',
  'resubscribed.heading': 'Je bent weer aangemeld',
  'resubscribed.body': 'Je ontvangt weer e-mails van {sender}.',

  'preferences.title': 'E-mailvoorkeuren voor {sender}',
  'preferences.heading': 'E-mailvoorkeuren',
  'preferences.for': 'Voor <strong>{email}</strong>.',
  'preferences.unsubscribedAll': 'Je bent afgemeld voor alle e-mails van {sender}.',
  'preferences.choose': 'Kies waarover je iets wilt horen:',
  'preferences.save': 'Voorkeuren opslaan',
  'preferences.unsubscribeAll': 'Overal voor afmelden',
  'preferences.saved': 'Je voorkeuren zijn opgeslagen.',
  'preferences.unsubscribed': 'Je bent afgemeld.',
  'preferences.resubscribed': 'Je bent weer aangemeld.',
  'preferences.pauseIntro': 'Even pauze nodig? Pauzeer deze e-mails in plaats daarvan:',
  'preferences.pause2w': '2 weken pauzeren',
  'preferences.pause1m': '1 maand pauzeren',
  'preferences.pause3m': '3 maanden pauzeren',
  'preferences.pausedUntil': 'Deze e-mails zijn gepauzeerd tot <strong>{date}</strong>.',
  'preferences.resume': 'Nu hervatten',
  'preferences.snoozed': 'Deze e-mails zijn gepauzeerd.',
  'preferences.resumed': 'Deze e-mails worden hervat.',

  'confirm.title': 'Bevestig je aanmelding bij {sender}',
  'confirm.heading': 'Bevestig je aanmelding',
  'confirm.question': '<strong>{email}</strong> aanmelden voor e-mails van {sender}?',
  'confirm.button': 'Bevestigen',
  'confirmed.title': 'Aanmelding bevestigd',
  'confirmed.heading': 'Je bent aangemeld',
  'confirmed.body': '<strong>{email}</strong> ontvangt e-mails van {sender}.',
  'expired.title': 'Link verlopen',
  'expired.heading': 'Deze link is verlopen',
  'expired.body': 'Bevestigingslinks zijn 7 dagen geldig. Meld je opnieuw aan om een nieuwe te krijgen.',

  'view.imagesHidden':
    'Externe afbeeldingen worden niet getoond: ' +
    'als u ze laadt, weten de servers van de afzender dat u het bericht hebt bekeken.',
  'view.showImages': 'Afbeeldingen tonen',
  'view.gone.title': 'E-mail niet beschikbaar',
  'view.gone.heading': 'Deze e-mail is niet meer beschikbaar',
  'view.gone.body': 'De link is verlopen, of de inhoud van de e-mail wordt niet meer bewaard.',

  'sso.back': '<a href="/">Terug naar inloggen</a>',
  'sso.again': '<a href="/auth/oidc/start">Opnieuw inloggen met SSO</a> of ga <a href="/">terug naar inloggen</a>.',
  'sso.noAccount.title': 'Geen account voor dit adres',
  'sso.noAccount.body':
    '<strong>{email}</strong> heeft geen Herald-account en geen openstaande uitnodiging. Vraag een beheerder van je ' +
    'project om dit adres uit te nodigen en log daarna opnieuw in met SSO.',
  'sso.unverified.title': 'E-mailadres niet geverifieerd',
  'sso.unverified.heading': 'Je e-mailadres is niet geverifieerd',
  'sso.unverified.body':
    'Je identiteitsprovider heeft <strong>{email}</strong> niet geverifieerd, dus Herald kan je daarmee niet laten ' +
    'inloggen. Verifieer het adres daar (of vraag de beheerder ervan dat te doen) en probeer het opnieuw.',
  'sso.noEmail.title': 'Geen e-mailadres',
  'sso.noEmail.body':
    'Je identiteitsprovider heeft Herald je e-mailadres niet doorgegeven, en daarmee laat Herald je inloggen. ' +
    'Vraag de beheerder ervan om de claim <code>email</code> aan Herald vrij te geven.',
  'sso.attempt.title': 'Inloggen verlopen',
  'sso.attempt.heading': 'Deze inlogpoging is verlopen',
  'sso.attempt.body':
    'Ze is meer dan 10 minuten geleden gestart, in een andere browser, of is al gebruikt (de state komt niet ' +
    'overeen).',
  'sso.notSignedIn.title': 'Niet ingelogd',
  'sso.issuerError.heading': 'Je identiteitsprovider heeft je niet laten inloggen',
  'sso.issuerError.body': 'Hij antwoordde met een fout{detail}.',
  'sso.exchange.heading': 'Het inloggen kon niet worden voltooid',
  'sso.exchange.body':
    'Het antwoord van je identiteitsprovider is niet geaccepteerd (de code ervan is misschien al gebruikt, of het ' +
    'antwoord kwam niet door de controles van Herald).',
  'sso.unreachable.title': 'Identiteitsprovider onbereikbaar',
  'sso.unreachable.heading': 'Je identiteitsprovider is niet bereikbaar',
  'sso.unreachable.body':
    'Probeer het over een minuut opnieuw; blijft dit gebeuren, laat het dan weten aan wie deze Herald beheert.',

  'form.submit': 'Aanmelden',
  'form.required': 'Dit veld is verplicht.',
  'form.invalidEmail': 'Vul een geldig e-mailadres in.',
  'form.invalidChoice': 'Kies een van de opties.',
  'form.choose': 'Kies…',
  'form.problems': 'Controleer de gemarkeerde velden hieronder.',
  'form.honeypot': 'Laat dit veld leeg',
  'form.pow.failed': 'De controle dat u een mens bent is mislukt. Probeer het opnieuw.',
  'form.pow.noScript': 'Dit formulier controleert in uw browser dat u een mens bent: zet JavaScript aan.',
  'form.unavailable': 'Dit formulier neemt nu geen aanmeldingen aan. Probeer het later opnieuw.',
  'form.done.title': 'Bedankt',
  'form.done.subscribed': 'Bedankt voor uw aanmelding.',
  'form.done.confirm': 'Bijna klaar: bevestig uw aanmelding via de e-mail in uw inbox.',
  'form.missing.title': 'Formulier niet gevonden',
  'form.missing.body': 'Dit formulier bestaat niet of is verwijderd.',

  'footer.unsubscribe': 'Afmelden',
  'footer.manage': 'Voorkeuren beheren',
};
