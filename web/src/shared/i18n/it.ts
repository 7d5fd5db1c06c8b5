// Italian texts of the pages reached from a mailed link («tu»).
import type { Catalogue } from './en.ts';

export const it: Catalogue = {
  'common.yourName': 'Il tuo nome',
  'common.email': 'Email',
  'common.password': 'Password',
  'common.samePasswordTwice': 'Digita la stessa password due volte.',
  'common.signInLink': 'accedi',
  'common.backToSignIn': 'Torna all’accesso',
  'common.forgotPassword': 'Password dimenticata?',

  'password.new': 'Nuova password',
  'password.hint': 'Almeno 10 caratteri, e non una password comune.',
  'password.again': 'Ripeti la password',
  'password.differ': 'Le due password sono diverse.',

  'setup.title': 'Configura Herald',
  'setup.noToken':
    'Questo indirizzo non ha un token di configurazione. Apri il link di configurazione completo che Herald ha ' +
    'mostrato all’avvio ({example}), oppure {signIn}.',
  'setup.intro':
    'Crea il primo account. Può aprire ogni progetto come proprietario, creare progetti e invitare il tuo team.',
  'setup.form': 'Crea il primo account',
  'setup.creating': 'Creazione…',
  'setup.create': 'Crea account',

  'invite.title': 'Unisciti a un progetto',
  'invite.noToken': 'Questo indirizzo non ha un token di invito: apri il link completo che hai ricevuto.',
  'invite.summary.owner': 'Sei invitato a {project} come {role}.',
  'invite.summary.admin': 'Sei invitato a {project} come {role}.',
  'invite.summary.editor': 'Sei invitato a {project} come {role}.',
  'invite.summary.viewer': 'Sei invitato a {project} come {role}.',
  'role.owner': 'proprietario',
  'role.admin': 'amministratore',
  'role.editor': 'editor',
  'role.viewer': 'lettore',
  'invite.validity': 'Per {email} · il link vale fino al {date}.',
  'invite.hasAccount': '{email} ha già un account: accedi, poi accetta.',
  'invite.newAccountForm': 'Crea il tuo account',
  'invite.newAccountFor': 'Crea il tuo account per {email}:',
  'invite.createAndJoin': 'Crea account e unisciti',
  'invite.signedInAs': 'Hai effettuato l’accesso come {email}.',
  'invite.otherAddress': 'L’invito è stato inviato a {invited}: accettandolo aggiungi te ({you}) a {project}.',
  'invite.signOut': 'Esci',
  'invite.accept': 'Accetta invito',

  'reset.title': 'Imposta una nuova password',
  'reset.form': 'Reimpostazione password',
  'reset.submit': 'Imposta password',
  'reset.noToken': 'Questo indirizzo non ha un token di reimpostazione: apri il link completo dell’email.',
  'reset.askNew': 'Chiedi un nuovo link',

  'forgot.title': 'Reimposta la password',
  'forgot.sent':
    'Se esiste un account per {email}, è in arrivo un link per impostare una nuova password. Vale per un’ora.',
  'forgot.form': 'Chiedi un link di reimpostazione',
  'forgot.intro': 'Digita l’email del tuo account: riceverai lì un link per impostare una nuova password.',
  'forgot.submit': 'Invia link',
  'forgot.noMail': 'Non arriva nessuna email? Un amministratore dell’istanza può creare un link con {command}.',
};
