// Dutch texts of the pages reached from a mailed link ("je").
import type { Catalogue } from './en.ts';

export const nl: Catalogue = {
  'common.yourName': 'Je naam',
  'common.email': 'E-mailadres',
  'common.password': 'Wachtwoord',
  'common.samePasswordTwice': 'Typ twee keer hetzelfde wachtwoord.',
  'common.signInLink': 'log in',
  'common.backToSignIn': 'Terug naar inloggen',
  'common.forgotPassword': 'Wachtwoord vergeten?',

  'password.new': 'Nieuw wachtwoord',
  'password.hint': 'Minstens 10 tekens, en geen veelgebruikt wachtwoord.',
  'password.again': 'Herhaal het wachtwoord',
  'password.differ': 'De twee wachtwoorden verschillen.',

  'setup.title': 'Herald instellen',
  'setup.noToken':
    'Dit adres bevat geen installatietoken. Open de volledige installatielink die Herald bij het starten toonde ' +
    '({example}), of {signIn}.',
  'setup.intro':
    'Maak het eerste account aan. Het kan elk project openen als eigenaar, projecten aanmaken en je team uitnodigen.',
  'setup.form': 'Het eerste account aanmaken',
  'setup.creating': 'Bezig met aanmaken…',
  'setup.create': 'Account aanmaken',

  'invite.title': 'Lid worden van een project',
  'invite.noToken': 'Dit adres bevat geen uitnodigingstoken: open de volledige link die je hebt gekregen.',
  'invite.summary.owner': 'Je bent uitgenodigd voor {project} als {role}.',
  'invite.summary.admin': 'Je bent uitgenodigd voor {project} als {role}.',
  'invite.summary.editor': 'Je bent uitgenodigd voor {project} als {role}.',
  'invite.summary.viewer': 'Je bent uitgenodigd voor {project} als {role}.',
  'role.owner': 'eigenaar',
  'role.admin': 'beheerder',
  'role.editor': 'redacteur',
  'role.viewer': 'kijker',
  'invite.validity': 'Voor {email} · de link werkt tot {date}.',
  'invite.hasAccount': '{email} heeft al een account: log in en accepteer daarna.',
  'invite.newAccountForm': 'Maak je account aan',
  'invite.newAccountFor': 'Maak je account aan voor {email}:',
  'invite.createAndJoin': 'Account aanmaken en lid worden',
  'invite.signedInAs': 'Je bent ingelogd als {email}.',
  'invite.otherAddress':
    'De uitnodiging is naar {invited} gestuurd: als je haar accepteert, word jij ({you}) toegevoegd aan {project}.',
  'invite.signOut': 'Uitloggen',
  'invite.accept': 'Uitnodiging accepteren',

  'reset.title': 'Nieuw wachtwoord instellen',
  'reset.form': 'Wachtwoord herstellen',
  'reset.submit': 'Wachtwoord instellen',
  'reset.noToken': 'Dit adres bevat geen hersteltoken: open de volledige link uit de e-mail.',
  'reset.askNew': 'Vraag een nieuwe link aan',

  'forgot.title': 'Wachtwoord herstellen',
  'forgot.sent':
    'Als er een account bestaat voor {email}, is er een link onderweg om een nieuw wachtwoord in te stellen. Hij ' +
    'werkt een uur lang.',
  'forgot.form': 'Vraag een herstellink aan',
  'forgot.intro':
    'Typ het e-mailadres van je account: we sturen er een link naartoe om een nieuw wachtwoord in te stellen.',
  'forgot.submit': 'Herstellink versturen',
  'forgot.noMail': 'Komt er geen e-mail aan? Een beheerder van de instantie kan een link maken met {command}.',
};
