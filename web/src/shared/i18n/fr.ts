// French texts of the pages reached from a mailed link (« vous »).
import type { Catalogue } from './en.ts';

export const fr: Catalogue = {
  'common.yourName': 'Votre nom',
  'common.email': 'E-mail',
  'common.password': 'Mot de passe',
  'common.samePasswordTwice': 'Saisissez deux fois le même mot de passe.',
  'common.signInLink': 'connectez-vous',
  'common.backToSignIn': 'Retour à la connexion',
  'common.forgotPassword': 'Mot de passe oublié ?',

  'password.new': 'Nouveau mot de passe',
  'password.hint': 'Au moins 10 caractères, et pas un mot de passe courant.',
  'password.again': 'Répétez le mot de passe',
  'password.differ': 'Les deux mots de passe sont différents.',

  'setup.title': 'Configurer Herald',
  'setup.noToken':
    'Cette adresse ne contient pas de jeton de configuration. Ouvrez le lien de configuration complet que Herald a ' +
    'affiché au démarrage ({example}), ou {signIn}.',
  'setup.intro':
    'Créez le premier compte. Il peut ouvrir chaque projet en tant que propriétaire, créer des projets et inviter ' +
    'votre équipe.',
  'setup.form': 'Créer le premier compte',
  'setup.creating': 'Création…',
  'setup.create': 'Créer le compte',

  'invite.title': 'Rejoindre un projet',
  'invite.noToken': 'Cette adresse ne contient pas de jeton d’invitation : ouvrez le lien complet que vous avez reçu.',
  'invite.summary.owner': 'Vous êtes invité à {project} en tant que {role}.',
  'invite.summary.admin': 'Vous êtes invité à {project} en tant qu’{role}.',
  'invite.summary.editor': 'Vous êtes invité à {project} en tant qu’{role}.',
  'invite.summary.viewer': 'Vous êtes invité à {project} en tant que {role}.',
  'role.owner': 'propriétaire',
  'role.admin': 'administrateur',
  'role.editor': 'éditeur',
  'role.viewer': 'lecteur',
  'invite.validity': 'Pour {email} · le lien est valable jusqu’au {date}.',
  'invite.hasAccount': '{email} a déjà un compte : connectez-vous, puis acceptez.',
  'invite.newAccountForm': 'Créer votre compte',
  'invite.newAccountFor': 'Créez votre compte pour {email} :',
  'invite.createAndJoin': 'Créer le compte et rejoindre',
  'invite.signedInAs': 'Vous êtes connecté en tant que {email}.',
  'invite.otherAddress': 'L’invitation a été envoyée à {invited} : l’accepter vous ajoute ({you}) à {project}.',
  'invite.signOut': 'Se déconnecter',
  'invite.accept': 'Accepter l’invitation',

  'reset.title': 'Définir un nouveau mot de passe',
  'reset.form': 'Réinitialisation du mot de passe',
  'reset.submit': 'Définir le mot de passe',
  'reset.noToken':
    'Cette adresse ne contient pas de jeton de réinitialisation : ouvrez le lien complet figurant dans l’e-mail.',
  'reset.askNew': 'Demander un nouveau lien',

  'forgot.title': 'Réinitialiser votre mot de passe',
  'forgot.sent':
    'Si un compte existe pour {email}, un lien pour définir un nouveau mot de passe est en route. Il est valable ' +
    'une heure.',
  'forgot.form': 'Demander un lien de réinitialisation',
  'forgot.intro':
    'Saisissez l’adresse e-mail de votre compte : un lien pour définir un nouveau mot de passe y sera envoyé.',
  'forgot.submit': 'Envoyer le lien',
  'forgot.noMail': 'Aucun e-mail reçu ? Un administrateur de l’instance peut créer un lien avec {command}.',
};
