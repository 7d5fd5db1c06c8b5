// German texts of the pages reached from a mailed link (formal address).
import type { Catalogue } from './en.ts';

export const de: Catalogue = {
  'common.yourName': 'Ihr Name',
  'common.email': 'E-Mail',
  'common.password': 'Passwort',
  'common.samePasswordTwice': 'Geben Sie zweimal dasselbe Passwort ein.',
  'common.signInLink': 'melden Sie sich an',
  'common.backToSignIn': 'Zurück zur Anmeldung',
  'common.forgotPassword': 'Passwort vergessen?',

  'password.new': 'Neues Passwort',
  'password.hint': 'Mindestens 10 Zeichen und kein gängiges Passwort.',
  'password.again': 'Passwort wiederholen',
  'password.differ': 'Die beiden Passwörter stimmen nicht überein.',

  'setup.title': 'Herald einrichten',
  'setup.noToken':
    'Diese Adresse enthält kein Einrichtungs-Token. Öffnen Sie den vollständigen Einrichtungslink, den Herald beim ' +
    'Start ausgegeben hat ({example}), oder {signIn}.',
  'setup.intro':
    'Legen Sie das erste Konto an. Es kann jedes Projekt als Eigentümer öffnen, Projekte anlegen und Ihr Team ' +
    'einladen.',
  'setup.form': 'Das erste Konto anlegen',
  'setup.creating': 'Wird angelegt…',
  'setup.create': 'Konto anlegen',

  'invite.title': 'Einem Projekt beitreten',
  'invite.noToken':
    'Diese Adresse enthält kein Einladungs-Token: Öffnen Sie den vollständigen Link, den Sie erhalten haben.',
  'invite.summary.owner': 'Sie sind zu {project} als {role} eingeladen.',
  'invite.summary.admin': 'Sie sind zu {project} als {role} eingeladen.',
  'invite.summary.editor': 'Sie sind zu {project} als {role} eingeladen.',
  'invite.summary.viewer': 'Sie sind zu {project} als {role} eingeladen.',
  'role.owner': 'Eigentümer',
  'role.admin': 'Admin',
  'role.editor': 'Bearbeiter',
  'role.viewer': 'Betrachter',
  'invite.validity': 'Für {email} · der Link gilt bis {date}.',
  'invite.hasAccount': '{email} hat bereits ein Konto: Melden Sie sich an und nehmen Sie dann an.',
  'invite.newAccountForm': 'Ihr Konto anlegen',
  'invite.newAccountFor': 'Legen Sie Ihr Konto für {email} an:',
  'invite.createAndJoin': 'Konto anlegen und beitreten',
  'invite.signedInAs': 'Sie sind als {email} angemeldet.',
  'invite.otherAddress':
    'Die Einladung ging an {invited}: Wenn Sie sie annehmen, werden Sie ({you}) zu {project} hinzugefügt.',
  'invite.signOut': 'Abmelden',
  'invite.accept': 'Einladung annehmen',

  'reset.title': 'Neues Passwort festlegen',
  'reset.form': 'Passwort zurücksetzen',
  'reset.submit': 'Passwort festlegen',
  'reset.noToken':
    'Diese Adresse enthält kein Token zum Zurücksetzen: Öffnen Sie den vollständigen Link aus der E-Mail.',
  'reset.askNew': 'Neuen Link anfordern',

  'forgot.title': 'Passwort zurücksetzen',
  'forgot.sent':
    'Falls es ein Konto für {email} gibt, ist ein Link zum Festlegen eines neuen Passworts unterwegs. Er gilt eine ' +
    'Stunde lang.',
  'forgot.form': 'Link zum Zurücksetzen anfordern',
  'forgot.intro':
    'Geben Sie die E-Mail-Adresse Ihres Kontos ein: Wir senden einen Link für ein neues Passwort dorthin.',
  'forgot.submit': 'Link senden',
  'forgot.noMail': 'Keine E-Mail angekommen? Ein Instanz-Admin kann mit {command} einen Link erstellen.',
};
