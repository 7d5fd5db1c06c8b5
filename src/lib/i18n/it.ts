// Italian texts of hosted pages and email footers («tu»).
import type { Catalogue } from './en.ts';

export const it: Catalogue = {
  'page.from': 'Email da <strong>{sender}</strong>',
  'page.unknownSender': 'questo mittente',

  'invalid.title': 'Link non valido',
  'invalid.heading': 'Questo link non è valido',
  'invalid.body': 'Forse è stato copiato in modo incompleto.',

  'busy.title': 'Riprova',
  'busy.heading': 'Questo link è occupato',
  'busy.body': 'Riprova tra un momento.',

  'unsubscribe.title': 'Annulla l’iscrizione a {sender}',
  'unsubscribe.heading': 'Annulla iscrizione',
  'unsubscribe.question': 'Non ricevere più email da {sender} all’indirizzo <strong>{email}</strong>?',
  'unsubscribe.questionNoEmail': 'Non ricevere più email da {sender} a questo indirizzo?',
  'unsubscribe.button': 'Annulla iscrizione',

  'unsubscribed.title': 'Iscrizione annullata',
  'unsubscribed.heading': 'La tua iscrizione è stata annullata',
  'unsubscribed.body': 'Non riceverai più queste email da {sender}.',
  'unsubscribed.mistake': 'Annullata per errore?',
  'unsubscribed.resubscribe': 'Iscriviti di nuovo',

  'resubscribed.title': 'Iscrizione riattivata',
  'resubscribed.heading': 'La tua iscrizione è di nuovo attiva',
  'resubscribed.body': 'Riceverai di nuovo le email da {sender}.',

  'preferences.title': 'Preferenze email per {sender}',
  'preferences.heading': 'Preferenze email',
  'preferences.for': 'Per <strong>{email}</strong>.',
  'preferences.unsubscribedAll': 'La tua iscrizione a tutte le email di {sender} è annullata.',
  'preferences.choose': 'Scegli di cosa vuoi ricevere notizie:',
  'preferences.save': 'Salva preferenze',
  'preferences.unsubscribeAll': 'Annulla l’iscrizione a tutto',
  'preferences.saved': 'Le tue preferenze sono state salvate.',
  'preferences.unsubscribed': 'La tua iscrizione è stata annullata.',
  'preferences.resubscribed': 'La tua iscrizione è di nuovo attiva.',
  'preferences.pauseIntro': 'Hai bisogno di una pausa? Sospendi invece queste email:',
  'preferences.pause2w': 'Sospendi per 2 settimane',
  'preferences.pause1m': 'Sospendi per 1 mese',
  'preferences.pause3m': 'Sospendi per 3 mesi',
  'preferences.pausedUntil': 'Queste email sono sospese fino al <strong>{date}</strong>.',
  'preferences.resume': 'Riprendi ora',
  'preferences.snoozed': 'Queste email sono sospese.',
  'preferences.resumed': 'Queste email riprendono.',

  'confirm.title': 'Conferma la tua iscrizione a {sender}',
  'confirm.heading': 'Conferma la tua iscrizione',
  'confirm.question': 'Iscrivere <strong>{email}</strong> alle email di {sender}?',
  'confirm.button': 'Conferma',
  'confirmed.title': 'Iscrizione confermata',
  'confirmed.heading': 'La tua iscrizione è confermata',
  'confirmed.body': '<strong>{email}</strong> riceverà le email di {sender}.',
  'expired.title': 'Link scaduto',
  'expired.heading': 'Questo link è scaduto',
  'expired.body': 'I link di conferma sono validi per 7 giorni. Iscriviti di nuovo per riceverne uno nuovo.',

  'view.imagesHidden':
    'Le immagini remote non sono mostrate: caricarle comunica ai server del mittente che hai visto il messaggio.',
  'view.showImages': 'Mostra immagini',
  'view.gone.title': 'Email non disponibile',
  'view.gone.heading': 'Questa email non è più disponibile',
  'view.gone.body': 'Il link è scaduto, oppure il contenuto dell’email non è più conservato.',

  'sso.back': '<a href="/">Torna all’accesso</a>',
  'sso.again': '<a href="/auth/oidc/start">Accedi di nuovo con SSO</a> oppure <a href="/">torna all’accesso</a>.',
  'sso.noAccount.title': 'Nessun account per questo indirizzo',
  'sso.noAccount.body':
    '<strong>{email}</strong> non ha un account Herald né un invito aperto. Chiedi a un amministratore del tuo ' +
    'progetto di invitare questo indirizzo, poi accedi di nuovo con SSO.',
  'sso.unverified.title': 'Email non verificata',
  'sso.unverified.heading': 'La tua email non è verificata',
  'sso.unverified.body':
    'Il tuo provider di identità non ha verificato <strong>{email}</strong>, quindi Herald non può farti accedere ' +
    'con questo indirizzo. Verificalo lì (o chiedi al suo amministratore di farlo), poi riprova.',
  'sso.noEmail.title': 'Nessun indirizzo email',
  'sso.noEmail.body':
    'Il tuo provider di identità non ha comunicato a Herald il tuo indirizzo email, con cui Herald ti fa accedere. ' +
    'Chiedi al suo amministratore di rilasciare a Herald il claim <code>email</code>.',
  'sso.attempt.title': 'Accesso scaduto',
  'sso.attempt.heading': 'Questo accesso è scaduto',
  'sso.attempt.body':
    'È stato avviato più di 10 minuti fa, in un altro browser, oppure è già stato usato (lo state non corrisponde).',
  'sso.notSignedIn.title': 'Accesso non effettuato',
  'sso.issuerError.heading': 'Il tuo provider di identità non ti ha fatto accedere',
  'sso.issuerError.body': 'Ha risposto con un errore{detail}.',
  'sso.exchange.heading': 'Non è stato possibile completare l’accesso',
  'sso.exchange.body':
    'La risposta del tuo provider di identità non è stata accettata (il suo codice potrebbe essere già stato ' +
    'usato, oppure non ha superato i controlli di Herald).',
  'sso.unreachable.title': 'Provider di identità non raggiungibile',
  'sso.unreachable.heading': 'Il tuo provider di identità non è raggiungibile',
  'sso.unreachable.body': 'Riprova tra un minuto; se continua a succedere, avvisa chi gestisce questo Herald.',

  'form.submit': 'Iscriviti',
  'form.required': 'Questo campo è obbligatorio.',
  'form.invalidEmail': 'Inserisci un indirizzo email valido.',
  'form.invalidChoice': 'Scegli una delle opzioni.',
  'form.choose': 'Scegli…',
  'form.problems': 'Controlla i campi segnalati qui sotto.',
  'form.honeypot': 'Lascia vuoto questo campo',
  'form.pow.failed': 'La verifica che tu sia una persona non è riuscita. Riprova.',
  'form.pow.noScript': 'Questo modulo verifica nel browser che tu sia una persona: attiva JavaScript.',
  'form.unavailable': 'Questo modulo non accetta iscrizioni al momento. Riprova più tardi.',
  'form.done.title': 'Grazie',
  'form.done.subscribed': 'Grazie per l’iscrizione.',
  'form.done.confirm': 'Quasi fatto: conferma l’iscrizione dall’email che trovi nella tua casella.',
  'form.missing.title': 'Modulo non trovato',
  'form.missing.body': 'Questo modulo non esiste o è stato rimosso.',

  'footer.unsubscribe': 'Annulla iscrizione',
  'footer.manage': 'Gestisci preferenze',
};
